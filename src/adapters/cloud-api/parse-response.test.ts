import { describe, expect, it } from 'vitest';
import { classifyCode } from '../../core/error-catalogue/index.js';
import { parseSendResponse } from './parse-response.js';

const classify = (code: number) => classifyCode(code, [131049]);

describe('parseSendResponse', () => {
  it('reads the wamid, message_status and wa_id of a success', () => {
    const body = JSON.stringify({
      messaging_product: 'whatsapp',
      contacts: [{ input: '+44 7700 900123', wa_id: '447700900123' }],
      messages: [{ id: 'wamid.ABC', message_status: 'held_for_quality_assessment' }],
    });
    expect(parseSendResponse(200, body, classify)).toEqual({
      kind: 'accepted',
      wamid: 'wamid.ABC',
      messageStatus: 'held_for_quality_assessment',
      waId: '447700900123',
      userId: null,
      httpStatus: 200,
    });
  });

  it('classifies errors by error.code, whatever the HTTP status says', () => {
    const body = JSON.stringify({
      error: {
        message: '(#130429) Rate limit hit',
        type: 'OAuthException',
        code: 130429,
        error_data: { messaging_product: 'whatsapp', details: 'Cloud API message throughput has been reached.' },
        fbtrace_id: 'Az8or2yhqkZfEZ-_4Qn_Bam',
        is_transient: true,
      },
    });
    for (const status of [400, 429, 500]) {
      const result = parseSendResponse(status, body, classify);
      expect(result).toMatchObject({
        kind: 'rejected',
        code: 130429,
        errorClass: 'throughput_limit',
        details: 'Cloud API message throughput has been reached.',
        fbtraceId: 'Az8or2yhqkZfEZ-_4Qn_Bam',
        isTransient: true,
        httpStatus: status,
      });
    }
  });

  it('turns an HTML page into a transient non_json failure', () => {
    const result = parseSendResponse(502, '<html>Bad Gateway</html>', classify);
    expect(result).toMatchObject({ kind: 'transport_failure', reason: 'non_json', transient: true, httpStatus: 502 });
  });

  it('turns JSON of another shape into unexpected_body, naming where it broke', () => {
    const result = parseSendResponse(200, JSON.stringify({ messages: [] }), classify);
    expect(result).toMatchObject({ kind: 'transport_failure', reason: 'unexpected_body' });
    if (result.kind === 'transport_failure') expect(result.detail).toContain('messages');
  });

  it('treats an unknown message_status with a wamid as accepted, never as a failure', () => {
    const body = JSON.stringify({ messages: [{ id: 'wamid.X', message_status: 'something_new' }] });
    expect(parseSendResponse(200, body, classify)).toMatchObject({ kind: 'accepted', messageStatus: 'accepted', waId: null });
  });
});
