import { Pool } from 'undici';
import { z } from 'zod';
import { classifyCode } from '../../core/error-catalogue/index.js';
import { DEFAULT_POLICY } from '../../core/policy.js';
import type { ApiFailure, TemplateApi } from '../../ports/cloud-api.js';
import { systemClock, type Scheduler } from '../../ports/clock.js';
import { describeIssue, readJson, unexpectedBody } from './parse-response.js';

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

const pageBody = z.object({
  data: z.array(z.unknown()),
  paging: z.object({ cursors: z.object({ after: z.string().optional() }).partial().optional(), next: z.string().optional() }).optional(),
});

const templateBody = z.object({ id: z.union([z.string(), z.number()]) }).passthrough();

/** Reads templates over its own small keep-alive pool; like the send client, it never retries. */
export function createTemplateApiClient(options: TemplateApiClientOptions): TemplateApi {
  const url = new URL(options.baseUrl);
  const prefix = url.pathname.replace(/\/+$/, '');
  const pool = new Pool(url.origin, { connections: 2, pipelining: 1 });
  const scheduler = options.scheduler ?? systemClock;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const headers = { authorization: `Bearer ${options.accessToken}` };
  // No cap applies to reading templates; the default cap codes keep the classification the send client's.
  const classify = (code: number) => classifyCode(code, DEFAULT_POLICY.capCodes);

  async function get(path: string): Promise<ApiFailure | { kind: 'json'; json: unknown; status: number }> {
    const controller = new AbortController();
    const timer = scheduler.at(scheduler.now() + timeoutMs, () => controller.abort());
    try {
      const response = await pool.request({
        method: 'GET',
        path: `${prefix}/${options.apiVersion}/${path}`,
        headers,
        signal: controller.signal,
      });
      const text = await response.body.text();
      const read = readJson(response.statusCode, text, classify);
      if (read.kind !== 'json') return read;
      if (response.statusCode < 200 || response.statusCode >= 300)
        return unexpectedBody(response.statusCode, 'a success body with a non-2xx status');
      return { ...read, status: response.statusCode };
    } catch (error) {
      const aborted = controller.signal.aborted;
      return {
        kind: 'transport_failure',
        reason: aborted ? 'timeout' : 'network_error',
        transient: true,
        detail: aborted ? `no complete answer within ${timeoutMs} ms` : error instanceof Error ? error.message : String(error),
        httpStatus: null,
      };
    } finally {
      timer.cancel();
    }
  }

  return {
    async listTemplates(wabaId, after) {
      const query = new URLSearchParams({ fields: TEMPLATE_FIELDS, limit: String(options.pageSize ?? 100) });
      if (after !== undefined) query.set('after', after);
      const answer = await get(`${encodeURIComponent(wabaId)}/message_templates?${query.toString()}`);
      if (answer.kind !== 'json') return answer;
      const page = pageBody.safeParse(answer.json);
      if (!page.success) return unexpectedBody(answer.status, describeIssue(page.error));
      return {
        kind: 'ok',
        page: { data: page.data.data, after: page.data.paging?.cursors?.after ?? null, next: page.data.paging?.next ?? null },
      };
    },
    async getTemplate(id) {
      const answer = await get(`${encodeURIComponent(id)}?${new URLSearchParams({ fields: TEMPLATE_FIELDS }).toString()}`);
      if (answer.kind !== 'json') return answer;
      const template = templateBody.safeParse(answer.json);
      if (!template.success) return unexpectedBody(answer.status, describeIssue(template.error));
      return { kind: 'ok', template: answer.json };
    },
    close: () => pool.close(),
  };
}
