import type { PhoneNumberApi } from '../../ports/cloud-api.js';
import type { Scheduler } from '../../ports/clock.js';
import { createGraphReader, graphObject, graphPage } from './graph-reader.js';
import { describeIssue, unexpectedBody } from './parse-response.js';

export interface PhoneNumberApiClientOptions {
  baseUrl: string;
  apiVersion: string;
  accessToken: string;
  /** `limit=` on each list request. */
  pageSize?: number;
  timeoutMs?: number;
  scheduler?: Scheduler;
}

/**
 * What a sync keeps of each number. The messaging limit is the portfolio's from v24
 * (`whatsapp_business_manager_messaging_limit`); older versions only know the per-number tier.
 */
export function phoneNumberFields(apiVersion: string): string {
  const major = Number(/^v(\d+)/.exec(apiVersion)?.[1] ?? 0);
  return [
    'id',
    'display_phone_number',
    'verified_name',
    'quality_rating',
    'status',
    'name_status',
    'throughput',
    major >= 24 ? 'whatsapp_business_manager_messaging_limit' : 'messaging_limit_tier',
  ].join(',');
}

export function createPhoneNumberApiClient(options: PhoneNumberApiClientOptions): PhoneNumberApi {
  const { get, close } = createGraphReader(options);
  const fields = phoneNumberFields(options.apiVersion);
  return {
    async listPhoneNumbers(wabaId, after) {
      const query = new URLSearchParams({ fields, limit: String(options.pageSize ?? 100) });
      if (after !== undefined) query.set('after', after);
      const answer = await get(`${encodeURIComponent(wabaId)}/phone_numbers?${query.toString()}`);
      if (answer.kind !== 'json') return answer;
      const page = graphPage.safeParse(answer.json);
      if (!page.success) return unexpectedBody(answer.status, describeIssue(page.error));
      // Meta leaves `next` out on the last page; its cursors are there either way.
      const next = page.data.paging?.next !== undefined ? (page.data.paging.cursors?.after ?? null) : null;
      return { kind: 'ok', page: { data: page.data.data, after: next } };
    },
    async getPhoneNumber(phoneNumberId) {
      const answer = await get(`${encodeURIComponent(phoneNumberId)}?${new URLSearchParams({ fields }).toString()}`);
      if (answer.kind !== 'json') return answer;
      const number = graphObject.safeParse(answer.json);
      if (!number.success) return unexpectedBody(answer.status, describeIssue(number.error));
      return { kind: 'ok', number: answer.json };
    },
    close,
  };
}
