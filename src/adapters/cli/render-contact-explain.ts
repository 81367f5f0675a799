import type { CategoryExplanation } from '../../core/explain-contact.js';
import { iso } from '../../core/time.js';

const VERDICT: Record<CategoryExplanation['decision']['kind'], string> = {
  send: 'would send now',
  defer: 'waits',
  hold: 'held',
  skip: 'not sent',
};

/** `pacer contact explain` as text: per category, the verdict, the reason, and the events behind it. */
export function renderContactExplain(who: string, rows: readonly CategoryExplanation[]): string {
  const lines = [`Contact ${who}`];
  for (const r of rows) {
    const d = r.decision;
    const until = 'until' in d && d.until !== null ? ` until ${iso(d.until)}` : '';
    lines.push('', `${r.category.padEnd(15)} ${VERDICT[d.kind]}${until}  [${d.reason}]`, `  ${d.explanation}`);
    for (const c of r.causes) lines.push(`  · ${iso(c.at)} ${c.type}${c.detail ? ` ${c.detail}` : ''}`);
  }
  return lines.join('\n');
}
