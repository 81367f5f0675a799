import { describe, expect, it } from 'vitest';
import { boundaryOf, parseMultipart } from './multipart-form.js';

const body = (boundary: string, parts: string[], close = true): Buffer =>
  Buffer.from(`preamble\r\n${parts.map((p) => `--${boundary}\r\n${p}\r\n`).join('')}${close ? `--${boundary}--\r\n` : ''}`, 'latin1');

describe('multipart form parser', () => {
  it('reads the boundary, plain or quoted, only from multipart/form-data', () => {
    expect(boundaryOf('multipart/form-data; boundary=abc123')).toBe('abc123');
    expect(boundaryOf('Multipart/Form-Data; charset=utf-8; boundary="a b;c"')).toBe('a b;c');
    expect(boundaryOf('application/json')).toBeNull();
    expect(boundaryOf('multipart/form-data')).toBeNull();
    expect(boundaryOf(undefined)).toBeNull();
  });

  it('splits fields and files, keeping file bytes that contain line breaks and boundary-like text', () => {
    // Boundary text not at a line start is data (a delimiter is CRLF, then "--" and the boundary).
    const data = 'line one\r\n\r\nline two x--abc\r\n\x00\xff';
    const form = parseMultipart(
      'abc',
      body('abc', [
        'Content-Disposition: form-data; name="messaging_product"\r\n\r\nwhatsapp',
        `Content-Disposition: form-data; name="file"; filename="a \\"b\\".jpg"\r\nContent-Type: image/jpeg\r\n\r\n${data}`,
        'Content-Disposition: form-data; name="type"\r\nContent-Type: text/plain\r\n\r\nimage/jpeg',
      ]),
    );
    if ('error' in form) throw new Error(form.error);
    expect(Object.fromEntries(form.fields)).toEqual({ messaging_product: 'whatsapp', type: 'image/jpeg' });
    const file = form.files.get('file')!;
    expect(file).toMatchObject({ filename: 'a "b".jpg', contentType: 'image/jpeg' });
    expect(file.data.equals(Buffer.from(data, 'latin1'))).toBe(true);
  });

  it('refuses a body without the boundary, without its closing delimiter, or with a part without a name', () => {
    expect(parseMultipart('abc', Buffer.from('nothing here'))).toEqual({ error: 'the body has no part with the declared boundary' });
    expect(parseMultipart('abc', body('abc', ['Content-Disposition: form-data; name="a"\r\n\r\n1'], false))).toEqual({
      error: 'the body ends before its closing boundary',
    });
    expect(parseMultipart('abc', body('abc', ['Content-Disposition: form-data\r\n\r\n1']))).toEqual({ error: 'a part has no name' });
    expect(parseMultipart('abc', body('abc', ['Content-Type: text/plain\r\n\r\n1']))).toEqual({
      error: 'a part has no Content-Disposition: form-data',
    });
  });
});
