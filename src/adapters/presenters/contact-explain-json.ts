import type { CategoryExplanation } from '../../core/explain-contact.js';
import { iso } from '../../core/time.js';

/** The JSON shape of the interface contract: per category, kind, reason and until (ISO) when there is one. */
export function contactExplainJson(who: string, rows: readonly CategoryExplanation[]): unknown {
  return {
    contact: who,
    categories: Object.fromEntries(
      rows.map((r) => {
        const d = r.decision;
        const until = 'until' in d && d.until !== null ? iso(d.until) : null;
        return [
          r.category,
          {
            kind: d.kind,
            reason: d.reason,
            until,
            explanation: d.explanation,
            ...(d.kind === 'send' ? { path: d.path } : {}),
            causes: r.causes.map((c) => ({ ...c, at: iso(c.at) })),
          },
        ];
      }),
    ),
  };
}
