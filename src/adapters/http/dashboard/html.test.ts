import { describe, expect, it } from 'vitest';
import { escapeHtml, html } from './html.js';

describe('html templates', () => {
  it('escapes every interpolated string, in text and in attributes', () => {
    const name = `<script>alert("x")</script> & 'O'Brien' \`x\``;
    const out = html`<p title="${name}">${name}</p>`.text;
    expect(out).not.toContain('<script>');
    expect(out).toBe(`<p title="${escapeHtml(name)}">${escapeHtml(name)}</p>`);
    expect(escapeHtml(name)).toBe('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;O&#39;Brien&#39; &#96;x&#96;');
  });

  it('keeps nested fragments, joins lists and drops null, undefined and false', () => {
    const items = ['a<b', 'c'].map((t) => html`<li>${t}</li>`);
    expect(html`<ul>${items}</ul>${null}${undefined}${false}${0}`.text).toBe('<ul><li>a&lt;b</li><li>c</li></ul>0');
  });
});
