import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultDemoPlan } from '../src/main/demo/demo-plan.js';
import { runLab } from '../src/main/demo/run-lab.js';
import { pickStrategies } from '../src/main/demo/strategies.js';
import { ensureChromium } from './ensure-chromium.js';

const ARTIFACTS = path.resolve(import.meta.dirname, '..', 'test-artifacts');
const dir = mkdtempSync(path.join(tmpdir(), 'pacer-lab-report-'));
let browser: Browser | null = null;
afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the lab's report in Chromium", () => {
  it('shows the table with a column per strategy, a chart per row that matters, the stories and the assumptions', async () => {
    const strategies = pickStrategies('pacer,resend-at-once-drop-after-2,bounce-blacklist');
    const lab = await runLab({ plan: defaultDemoPlan(300), strategies, outDir: dir, out: () => undefined });
    const executablePath = ensureChromium();
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await chromium.launch({ executablePath, headless: true, args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] });
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    await page.goto(pathToFileURL(lab.report).href);
    await page.screenshot({ path: path.join(ARTIFACTS, 'lab-report.png'), fullPage: true });

    const heads = await page.locator('#comparison thead th').allTextContents();
    expect(heads.slice(1)).toEqual(['pacer', 'resend-at-once-drop-after-2', 'bounce-blacklist']);
    const labels = await page.locator('#comparison tbody th').allTextContents();
    expect(labels).toEqual(lab.rows.map((r) => r.label));
    expect(await page.locator('#comparison tbody td').count()).toBe(lab.rows.length * 3);
    // Each row's winners are marked, as the terminal table marks them.
    expect(await page.locator('#comparison td.win').count()).toBeGreaterThan(0);

    const charted = lab.rows.filter((r) => r.chart === true).map((r) => r.label);
    const captions = await page.locator('figure.row-chart figcaption').allTextContents();
    expect(captions).toEqual(charted);
    for (const label of charted) {
      const bars = page.locator('figure.row-chart', { hasText: label }).locator('svg rect');
      expect(await bars.count()).toBe(3);
      const box = await page.locator('figure.row-chart', { hasText: label }).locator('svg').boundingBox();
      expect(box?.width ?? 0).toBeGreaterThan(300);
    }
    // The two daily charts: a bar per strategy per day.
    expect(await page.locator('figure:not(.row-chart) svg').first().locator('rect').count()).toBe(3 * 7);

    const stories = await page.locator('#stories li').allTextContents();
    expect(stories).toHaveLength(3);
    for (const s of stories) expect(s).toMatch(/^(pacer|resend-at-once-drop-after-2|bounce-blacklist): .*day \d+ at \d\d:\d\d (local|UTC)/);

    const from = await page.locator('#assumptions tbody td:last-child').allTextContents();
    expect(from.some((f) => f.startsWith('Meta'))).toBe(true);
    expect(from.some((f) => f.startsWith('ours'))).toBe(true);
    expect(await page.locator('#prices tbody tr').count()).toBeGreaterThan(5);
  }, 240_000);
});
