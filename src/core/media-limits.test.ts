import { describe, expect, it } from 'vitest';
import { checkMediaFile } from './media-limits.js';

describe('checkMediaFile', () => {
  it('takes the types Meta lists, by extension, with their MIME type', () => {
    expect(checkMediaFile('spring.JPG', 200_000)).toEqual({ ok: true, mime: 'image/jpeg', kind: 'image' });
    expect(checkMediaFile('menu.pdf', 20 * 1024 * 1024)).toEqual({ ok: true, mime: 'application/pdf', kind: 'document' });
    expect(checkMediaFile('clip.mp4', 1)).toMatchObject({ ok: true, mime: 'video/mp4' });
  });

  it('refuses other types, empty files and files over the kind’s limit, saying which', () => {
    expect(checkMediaFile('anim.gif', 10)).toEqual({ ok: false, reason: expect.stringContaining('does not take .gif files') });
    expect(checkMediaFile('noext', 10)).toEqual({ ok: false, reason: expect.stringContaining('.(no extension)') });
    expect(checkMediaFile('a.png', 0)).toEqual({ ok: false, reason: 'a.png is empty' });
    expect(checkMediaFile('big.png', 5 * 1024 * 1024 + 1)).toEqual({
      ok: false,
      reason: 'big.png is 5.0 MB; WhatsApp takes image files up to 5.0 MB',
    });
    expect(checkMediaFile('s.webp', 600 * 1024)).toEqual({
      ok: false,
      reason: 's.webp is 600 KB; WhatsApp takes sticker files up to 500 KB',
    });
    expect(checkMediaFile('v.mp4', 16 * 1024 * 1024)).toMatchObject({ ok: true });
  });
});
