import { z } from 'zod';
import type { TemplateApi } from '../../ports/cloud-api.js';
import type { Scheduler } from '../../ports/clock.js';
import { createGraphReader, graphObject, graphPage } from './graph-reader.js';
import { describeIssue, unexpectedBody } from './parse-response.js';

export interface TemplateApiClientOptions {
  baseUrl: string;
  apiVersion: string;
  accessToken: string;
  /** `limit=` on each list request. */
  pageSize?: number;
  timeoutMs?: number;
  scheduler?: Scheduler;
}

/** Everything a sync keeps; Meta returns only default fields unless asked (quality, TTL are not). */
export const TEMPLATE_FIELDS = [
  'id',
  'name',
  'language',
  'status',
  'category',
  'sub_category',
  'parameter_format',
  'components',
  'quality_score',
  'message_send_ttl_seconds',
].join(',');

/** Graph's answer to an edit that took. */
const editAnswer = z.object({ success: z.literal(true) });

/** Reads and edits templates over its own small keep-alive pool; like the send client, it never retries. */
export function createTemplateApiClient(options: TemplateApiClientOptions): TemplateApi {
  const { get, post, close } = createGraphReader(options);

  return {
    async listTemplates(wabaId, after) {
      const query = new URLSearchParams({ fields: TEMPLATE_FIELDS, limit: String(options.pageSize ?? 100) });
      if (after !== undefined) query.set('after', after);
      const answer = await get(`${encodeURIComponent(wabaId)}/message_templates?${query.toString()}`);
      if (answer.kind !== 'json') return answer;
      const page = graphPage.safeParse(answer.json);
      if (!page.success) return unexpectedBody(answer.status, describeIssue(page.error));
      return {
        kind: 'ok',
        page: { data: page.data.data, after: page.data.paging?.cursors?.after ?? null, next: page.data.paging?.next ?? null },
      };
    },
    async getTemplate(id) {
      const answer = await get(`${encodeURIComponent(id)}?${new URLSearchParams({ fields: TEMPLATE_FIELDS }).toString()}`);
      if (answer.kind !== 'json') return answer;
      const template = graphObject.safeParse(answer.json);
      if (!template.success) return unexpectedBody(answer.status, describeIssue(template.error));
      return { kind: 'ok', template: answer.json };
    },
    async editTemplate(id, edit) {
      const answer = await post(encodeURIComponent(id), edit);
      if (answer.kind !== 'json') return answer;
      const done = editAnswer.safeParse(answer.json);
      if (!done.success) return unexpectedBody(answer.status, describeIssue(done.error));
      return { kind: 'ok' };
    },
    close,
  };
}
