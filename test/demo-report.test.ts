import { describe, expect, it } from 'vitest';
import { renderHtml, simulatedDays, spanOf } from '../src/main/demo/demo-report.js';

describe('the lab report', () => {
  it('names the span it simulated: a week for seven days, else the days', () => {
    expect([1, 2, 7, 14].map(spanOf)).toEqual(['day', '2 days', 'week', '14 days']);
    expect([1, 7].map(simulatedDays)).toEqual(['1 simulated day', '7 simulated days']);
    const page = (days?: number) =>
      renderHtml({
        title: 'Pacer lab',
        subtitle: 's',
        columns: [],
        describes: [],
        rows: [],
        stories: [{ strategy: 'pacer', contact: '+••••1234', story: 'delivered on day 1' }],
        ...(days === undefined ? {} : { days }),
      });
    expect(page(14)).toContain("<h2>One contact's 14 days</h2>");
    expect(page()).toContain("<h2>One contact's week</h2>");
  });
});
