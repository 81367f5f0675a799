import { Pool, FormData } from 'undici';
import { z } from 'zod';
import { classifyCode } from '../../core/error-catalogue/index.js';
import { DEFAULT_POLICY } from '../../core/policy.js';
import type { MediaApi } from '../../ports/cloud-api.js';
import { describeIssue, readJson, unexpectedBody } from './parse-response.js';

export interface MediaApiClientOptions {
  baseUrl: string;
  apiVersion: string;
  accessToken: string;
  timeoutMs?: number;
}

const uploaded = z.object({ id: z.string().min(1) });

/** Uploads media as Meta's form (`messaging_product`, `type`, `file`); like the send client, it never retries. */
export function createMediaApiClient(options: MediaApiClientOptions): MediaApi {
  const url = new URL(options.baseUrl);
  const prefix = url.pathname.replace(/\/+$/, '');
  const pool = new Pool(url.origin, { connections: 1, pipelining: 1 });
  const timeoutMs = options.timeoutMs ?? 120_000;
  const classify = (code: number) => classifyCode(code, DEFAULT_POLICY.capCodes);
  return {
    async upload(phoneNumberId, file) {
      const form = new FormData();
      form.set('messaging_product', 'whatsapp');
      form.set('type', file.mimeType);
      form.set('file', new Blob([file.bytes], { type: file.mimeType }), file.fileName);
      try {
        const response = await pool.request({
          method: 'POST',
          path: `${prefix}/${options.apiVersion}/${encodeURIComponent(phoneNumberId)}/media`,
          headers: { authorization: `Bearer ${options.accessToken}` },
          body: form,
          signal: AbortSignal.timeout(timeoutMs),
        });
        const read = readJson(response.statusCode, await response.body.text(), classify);
        if (read.kind !== 'json') return read;
        const body = uploaded.safeParse(read.json);
        if (!body.success) return unexpectedBody(response.statusCode, describeIssue(body.error));
        return { kind: 'ok', id: body.data.id };
      } catch (error) {
        const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
        return {
          kind: 'transport_failure',
          reason: timedOut ? 'timeout' : 'network_error',
          transient: true,
          detail: timedOut ? `no complete answer within ${timeoutMs} ms` : error instanceof Error ? error.message : String(error),
          httpStatus: null,
        };
      }
    },
    close: () => pool.close(),
  };
}
