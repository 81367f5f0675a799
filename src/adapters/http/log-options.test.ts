import { describe, expect, it } from 'vitest';
import { buildLoggerOptions, safeRequestSummary } from './log-options.js';

describe('logger options', () => {
  it('keeps the path and drops the query string, which can hold the verify token', () => {
    expect(
      safeRequestSummary({ method: 'GET', url: '/webhooks/whatsapp?hub.verify_token=secret&hub.challenge=1', ip: '127.0.0.1' }),
    ).toEqual({
      method: 'GET',
      url: '/webhooks/whatsapp?…',
      remoteAddress: '127.0.0.1',
    });
    expect(safeRequestSummary({ method: 'POST', url: '/healthz' })).toEqual({ method: 'POST', url: '/healthz' });
  });

  it('censors credential and signature headers wherever a logged object carries them', () => {
    const options = buildLoggerOptions({ level: 'warn' });
    expect(options).toMatchObject({ level: 'warn' });
    const redact = (options as { redact: { paths: string[] } }).redact.paths;
    for (const header of ['authorization', 'x-hub-signature-256', 'cookie']) expect(redact).toContain(`req.headers["${header}"]`);
  });
});
