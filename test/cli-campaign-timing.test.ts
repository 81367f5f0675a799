import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runPacer as run } from './cli-run.js';

let dir: string;

beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'pacer-campaign-timing-'));
  process.env.PACER_DATA_DIR = dir;
  process.env.WHATSAPP_PHONE_NUMBER_ID = '106540352242922';
  const csv = path.join(dir, 'c.csv');
  writeFileSync(csv, 'phone,name,consent_marketing\n+447911123401,A,yes\n');
  expect((await run('import', 'contacts', csv)).code).toBe(0);
  expect((await run('template', 'add', 'spring_sale', '--category', 'marketing')).code).toBe(0);
});

afterEach(() => {
  delete process.env.PACER_DATA_DIR;
  delete process.env.WHATSAPP_PHONE_NUMBER_ID;
  delete process.env.PACER_SEND_SPREAD;
  delete process.env.PACER_MARKETING_PATH;
  rmSync(dir, { recursive: true, force: true });
});

const create = (...flags: string[]) => run('campaign', 'create', '--name', 'Timed', '--template', 'spring_sale', ...flags);

describe('pacer campaign create, the timing flags', () => {
  it('stores a window, its days, a zone, a maximum delay and a spread, and campaign status says what governs the hours', async () => {
    const created = await create(
      '--window',
      '09:00-20:00',
      '--days',
      'mon-fri',
      '--time-zone',
      'Europe/Madrid',
      '--max-delay',
      '36h',
      '--spread-over',
      '2h',
      '--json',
    );
    expect(created.code).toBe(0);
    const { id, timing } = JSON.parse(created.out) as { id: number; timing: unknown };
    expect(timing).toEqual({
      window: { from: 540, to: 1200, days: [1, 2, 3, 4, 5] },
      timeZone: 'Europe/Madrid',
      maxDelayMs: 36 * 3_600_000,
      spreadMs: 2 * 3_600_000,
    });
    const status = await run('campaign', 'status', String(id));
    expect(status.out).toContain(
      "Send window: 09:00–20:00 recipient local time, Mon, Tue, Wed, Thu, Fri (this campaign's own) (recipients of unknown zone: Europe/Madrid); sends spread over 2 h after each opening; a message that cannot go within 36 h ends expired.",
    );
    const json = JSON.parse((await run('campaign', 'status', String(id), '--json')).out) as { timingInEffect: unknown };
    expect(json.timingInEffect).toMatchObject({ spreadMs: 2 * 3_600_000, spreadFrom: 'campaign', maxDelayMs: 36 * 3_600_000 });
  });

  it("shows the installation's spread, and a campaign's off turns it off for that campaign", async () => {
    process.env.PACER_SEND_SPREAD = '45m';
    const byDefault = JSON.parse((await create('--json')).out) as { id: number };
    expect((await run('campaign', 'status', String(byDefault.id))).out).toContain(
      'Quiet hours: no marketing between 21:00 and 08:00 recipient local time (PACER_QUIET_HOURS) (recipients of unknown zone: UTC); sends spread over 45 min after each opening (PACER_SEND_SPREAD).',
    );
    const off = JSON.parse((await create('--spread-over', 'off', '--json')).out) as { id: number; timing: unknown };
    expect(off.timing).toEqual({ spreadMs: 0 });
    const status = JSON.parse((await run('campaign', 'status', String(off.id), '--json')).out) as { timingInEffect: { sentence: string } };
    expect(status.timingInEffect).toMatchObject({ spreadMs: 0, spreadFrom: 'campaign' });
    expect(status.timingInEffect.sentence).not.toContain('spread');
  });

  it('refuses a bad timing flag, naming it and why, and creates nothing', async () => {
    const cases: [string[], RegExp][] = [
      [['--spread-over', 'soon'], /--spread-over must be a duration like 2h or 90m, or off, got "soon"/],
      [['--spread-over', '30s'], /--spread-over: between one minute and one day, or 0 \(at once\)/],
      [['--spread-over', '2d'], /--spread-over: between one minute and one day/],
      [['--window', '9-20'], /--window: "9" is not a local time like 09:00/],
      [['--window', '09:00'], /--window must be like 09:00-20:00/],
      [['--days', 'mon-fri'], /--days goes with --window/],
      [['--window', '09:00-20:00', '--days', 'funday'], /--days: "funday" is not a day/],
      [['--time-zone', 'Mars/Olympus'], /--time-zone: not a time zone this platform knows/],
      [['--max-delay', '10s'], /--max-delay: at least one minute/],
    ];
    for (const [flags, message] of cases) {
      const r = await create(...flags);
      expect(r.code, flags.join(' ')).toBe(2);
      expect(r.err).toMatch(message);
    }
    expect(JSON.parse((await run('campaign', 'list', '--json')).out)).toEqual([]);
  });

  it("warns when Meta may still deliver later than --max-delay, naming the template's TTL and the command to shorten it", async () => {
    process.env.PACER_MARKETING_PATH = 'marketing_messages';
    const text = await create('--max-delay', '6h');
    expect(text.code).toBe(0);
    expect(text.out.split('\n')).toEqual([
      'Campaign #1 created (draft). Start it with: pacer campaign start 1',
      "Warning: --max-delay 6 h keeps Pacer from sending late, but on the Marketing Messages API Meta retries a message it cannot deliver for spring_sale (en_US)'s time-to-live, 30 days (Meta's default): a message to a phone that is off may arrive that long after it was sent. Shorten it with: pacer template ttl spring_sale --language en_US --ttl 12h (12 h (43,200 s) is the shortest Meta allows for marketing)",
    ]);
    const json = JSON.parse((await create('--max-delay', '2d', '--json')).out) as { warnings: string[] };
    expect(json.warnings).toEqual([expect.stringContaining('pacer template ttl spring_sale --language en_US --ttl 2d')]);
    // No maximum delay, nothing to warn of.
    expect(JSON.parse((await create('--json')).out)).toMatchObject({ warnings: [] });
  });
});
