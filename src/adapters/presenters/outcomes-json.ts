import type { OutcomeGroup } from '../../core/recipient-outcomes.js';
import { iso } from '../../core/time.js';

/** A campaign's outcome groups as JSON (times in ISO 8601), the same for `pacer campaign status --json` and the REST API. */
export function outcomesJson(groups: readonly OutcomeGroup[]) {
  return groups.map(({ until, ...g }) => ({
    ...g,
    ...(until === undefined ? {} : { until: { first: iso(until.first), last: iso(until.last) } }),
  }));
}
