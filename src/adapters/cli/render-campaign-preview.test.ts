import { describe, expect, it } from 'vitest';
import { messageLines } from './render-campaign-preview.js';

const message = (header: string | null) => ({ header, body: 'Hi Ana', footer: 'Shop', buttons: ['Stop promotions'] });

describe('a previewed message in the terminal', () => {
  it('bolds a text header as WhatsApp shows it, and leaves a media header as the media it is', () => {
    expect(messageLines(message('Your coupon'))).toEqual(['    *Your coupon*', '    Hi Ana', '    Shop', '    [ Stop promotions ]']);
    expect(messageLines(message('[image https://cdn.example.com/sale.jpg]'))[0]).toBe('    [image https://cdn.example.com/sale.jpg]');
    expect(messageLines(message('[document media 1234]'))[0]).toBe('    [document media 1234]');
    expect(messageLines(message('[video]'))[0]).toBe('    [video]');
    // Text that only looks like a bracket is still a text header.
    expect(messageLines(message('[Sale] ends Sunday'))[0]).toBe('    *[Sale] ends Sunday*');
    expect(messageLines(message('[image of the week]'))[0]).toBe('    *[image of the week]*');
    expect(messageLines(message(null))[0]).toBe('    Hi Ana');
  });
});
