import { describe, expect, it } from 'vitest';
import { startDashboard, T0 } from './dashboard-harness.js';
import { FINE_ID, PORTFOLIO, seedSenders, STOP_REASON, STOPPED_ID, VERIFIED_NAME } from './senders-seed.js';
import { BACKENDS } from './store-backends.js';

/** The markup of the table row of one number (`<tr data-sender="…">` to its `</tr>`). */
function rowOf(page: string, phoneNumberId: string): string {
  const start = page.indexOf(`<tr data-sender="${phoneNumberId}"`);
  expect(start, `row of ${phoneNumberId}`).toBeGreaterThan(-1);
  return page.slice(start, page.indexOf('</tr>', start));
}

function sectionOf(page: string, phoneNumberId: string): string {
  const start = page.indexOf(`<section class="sender-history" id="sender-${phoneNumberId}"`);
  expect(start, `history of ${phoneNumberId}`).toBeGreaterThan(-1);
  return page.slice(start, page.indexOf('</section>', start));
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

describe.each(BACKENDS)('Dashboard: senders page ($name)', (backend) => {
  it('needs a session, and is linked from every page', async () => {
    const rig = await startDashboard(backend);
    const anonymous = await rig.get('/senders');
    expect(anonymous.status).toBe(303);
    expect(anonymous.location).toBe('/login?next=%2Fsenders');
    const cookie = await rig.login();
    const overview = await rig.get('/', { cookie });
    expect(overview.text).toContain('<a href="/senders">Senders</a>');
    const empty = await rig.get('/senders', { cookie });
    expect(empty.status).toBe(200);
    expect(empty.text).toContain('No sender number is registered yet');
  });

  it('shows both numbers, the stopped one first and marked with why, and each one’s 30 days of changes', async () => {
    const rig = await startDashboard(backend);
    const seed = await seedSenders(rig.store, T0);
    const cookie = await rig.login();
    const page = await rig.get('/senders', { cookie });
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1>Senders</h1>');
    expect(page.text).toContain('1 of 2 number(s) cannot send');
    // The number that cannot send comes first and stands out.
    expect(page.text.indexOf(`data-sender="${STOPPED_ID}"`)).toBeLessThan(page.text.indexOf(`data-sender="${FINE_ID}"`));

    const stopped = rowOf(page.text, STOPPED_ID);
    expect(stopped).toContain('class="problem"');
    expect(stopped).toContain(`Cannot send: ${esc(STOP_REASON)}`);
    expect(stopped).not.toContain(STOP_REASON); // escaped, never raw
    expect(stopped).toContain('+1 555-0101');
    expect(stopped).toContain('never — run <code>pacer sender sync</code>');
    expect(stopped).toContain('<span class="muted">not read</span>'); // Meta status
    expect(stopped).toContain(`<a href="/campaigns/${seed.winter}">Winter</a> <span class="muted">(paused)</span>`);
    expect(stopped).toContain(`<a href="/campaigns/${seed.summer}">Summer</a> <span class="muted">(running)</span>`); // through its pool
    expect(stopped).not.toContain(`/campaigns/${seed.spring}"`);
    expect(stopped).toContain('<span class="badge bad">RED</span>');

    const fine = rowOf(page.text, FINE_ID);
    expect(fine).not.toContain('class="problem"');
    expect(fine).not.toContain('Cannot send');
    expect(fine).toContain(esc(VERIFIED_NAME));
    expect(fine).not.toContain(VERIFIED_NAME);
    expect(fine).toContain(`<code>${FINE_ID}</code>`);
    expect(fine).toContain('<td>waba-1</td>');
    expect(fine).toContain(`<td>${PORTFOLIO}</td>`);
    expect(fine).toContain('<span class="badge good">CONNECTED</span>');
    expect(fine).toContain('name APPROVED');
    expect(fine).toContain('<span class="badge good">ok</span>');
    expect(fine).toContain('80/s<br><span class="muted">STANDARD</span>');
    // The portfolio's limit and the 3 people its two numbers reached in the last 24 h (not the one 36 h ago).
    expect(fine).toContain('TIER_1K: 1,000 people/24 h');
    expect(fine).toContain('3 of 1,000 used by the portfolio in the last 24 h');
    expect(fine).toContain('(2 numbers)');
    expect(fine).toContain('2026-01-05 08:00 UTC'); // last read from Meta
    expect(fine).toContain(`<a href="/campaigns/${seed.spring}">Spring &lt;sale&gt;</a> <span class="muted">(running)</span>`);
    expect(fine).toContain(`<a href="/campaigns/${seed.summer}">Summer</a>`);
    expect(fine).not.toContain(`/campaigns/${seed.done}"`); // completed campaigns are not listed
    expect(fine).not.toContain(`/campaigns/${seed.winter}"`);
    expect(stopped).toContain('3 of 1,000 used by the portfolio');

    const fineHistory = sectionOf(page.text, FINE_ID);
    expect(fineHistory).toContain('<svg class="chart" role="img" aria-label="Quality rating of +1 555-0100"');
    expect(fineHistory).toContain('aria-label="Sending state of +1 555-0100"');
    expect(fineHistory.match(/<tr><td>/g)).toHaveLength(2); // FLAGGED then UNFLAGGED; the change 40 days ago is out
    expect(fineHistory).toContain('phone_quality FLAGGED');
    expect(fineHistory).toContain('phone_quality UNFLAGGED');
    expect(fineHistory).not.toContain('DOWNGRADE');
    expect(fineHistory).toContain('Charts from 2025-12-06 to 2026-01-05 (UTC).');
    const stoppedHistory = sectionOf(page.text, STOPPED_ID);
    expect(stoppedHistory).toContain('send 190');
    expect(stoppedHistory).toContain(esc(STOP_REASON));
    expect(page.text).not.toMatch(/<script/);
  });

  it('names the number a campaign sends from and its state on the campaign page', async () => {
    const rig = await startDashboard(backend);
    const seed = await seedSenders(rig.store, T0);
    const cookie = await rig.login();
    const winter = await rig.get(`/campaigns/${seed.winter}`, { cookie });
    expect(winter.status).toBe(200);
    expect(winter.text).toContain(
      `Sends from <a href="/senders#sender-${STOPPED_ID}">+1 555-0101</a> <span class="muted">(${STOPPED_ID})</span> · <span class="badge bad">stopped</span>`,
    );
    expect(winter.text).toContain(`Cannot send: ${esc(STOP_REASON)}`);
    const spring = await rig.get(`/campaigns/${seed.spring}`, { cookie });
    expect(spring.text).toContain(
      `+1 555-0100 ${esc(VERIFIED_NAME)}</a> <span class="muted">(${FINE_ID})</span> · <span class="badge good">ok</span>`,
    );
    expect(spring.text).not.toContain('Cannot send');
    // A pool: every number, its own first, the stopped one marked.
    const summer = await rig.get(`/campaigns/${seed.summer}`, { cookie });
    expect(summer.text).toContain('<p>Sends from 2 numbers (pool: spread):</p><ul class="campaign-senders"><li class="campaign-sender">');
    const items = summer.text.slice(summer.text.indexOf('<ul class="campaign-senders">')).split('</li>');
    expect(items[0]).toContain(`(${FINE_ID})</span> · <span class="badge good">ok</span>`);
    expect(items[1]).toContain(`(${STOPPED_ID})</span> · <span class="badge bad">stopped</span>`);
    expect(items[1]).toContain(`Cannot send: ${esc(STOP_REASON)}`);
  });
});
