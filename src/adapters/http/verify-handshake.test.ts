import { describe, expect, it } from 'vitest';
import { verifyHandshake } from './verify-handshake.js';

const TOKEN = 'tok-123';
const ok = { 'hub.mode': 'subscribe', 'hub.verify_token': TOKEN, 'hub.challenge': '1158201444' };

describe('verifyHandshake', () => {
  it('returns the challenge when mode and token are right', () => {
    expect(verifyHandshake(ok, TOKEN)).toEqual({ ok: true, challenge: '1158201444' });
  });

  it('names every missing parameter in one 400', () => {
    expect(verifyHandshake({}, TOKEN)).toEqual({
      ok: false,
      status: 400,
      error: 'bad_request',
      message: 'query parameter hub.mode is missing; hub.challenge is missing',
    });
    expect(verifyHandshake(undefined, TOKEN)).toMatchObject({ status: 400 });
  });

  it('refuses a repeated parameter, another mode and an over-long challenge with 400', () => {
    expect(verifyHandshake({ ...ok, 'hub.mode': ['subscribe', 'subscribe'] }, TOKEN)).toMatchObject({
      status: 400,
      message: 'query parameter hub.mode must be given once, as text',
    });
    expect(verifyHandshake({ ...ok, 'hub.mode': 'unsubscribe' }, TOKEN)).toMatchObject({
      status: 400,
      message: 'query parameter hub.mode must be "subscribe"',
    });
    expect(verifyHandshake({ ...ok, 'hub.challenge': '' }, TOKEN)).toMatchObject({
      status: 400,
      message: 'query parameter hub.challenge is missing',
    });
    expect(verifyHandshake({ ...ok, 'hub.challenge': 'x'.repeat(1025) }, TOKEN)).toMatchObject({ status: 400 });
  });

  it('answers 403 to a missing, wrong or repeated token, and when none is configured', () => {
    const { 'hub.verify_token': _omit, ...noToken } = ok;
    expect(verifyHandshake(noToken, TOKEN)).toMatchObject({ status: 403, message: 'query parameter hub.verify_token is missing' });
    expect(verifyHandshake({ ...ok, 'hub.verify_token': 'tok-124' }, TOKEN)).toMatchObject({ status: 403 });
    expect(verifyHandshake({ ...ok, 'hub.verify_token': `${TOKEN}x` }, TOKEN)).toMatchObject({ status: 403 });
    expect(verifyHandshake({ ...ok, 'hub.verify_token': [TOKEN, TOKEN] }, TOKEN)).toMatchObject({ status: 403 });
    expect(verifyHandshake(ok, null)).toMatchObject({ status: 403, message: expect.stringContaining('WHATSAPP_VERIFY_TOKEN') });
    expect(verifyHandshake({ ...ok, 'hub.verify_token': '' }, '')).toMatchObject({ status: 403 });
  });

  it('never puts the expected token in a message', () => {
    const wrong = verifyHandshake({ ...ok, 'hub.verify_token': 'guess' }, TOKEN);
    expect(wrong.ok).toBe(false);
    expect(JSON.stringify(wrong)).not.toContain(TOKEN);
  });
});
