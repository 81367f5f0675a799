import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultDemoPlan } from '../src/main/demo/demo-plan.js';
import { demoSimulator, LAB_START, runLab } from '../src/main/demo/run-lab.js';
import { runWorlds } from '../src/main/demo/run-worlds.js';
import { pickStrategies } from '../src/main/demo/strategies.js';

let dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(path.join(tmpdir(), 'pacer-lab-determinism-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

describe('the lab', () => {
  it('gives the same table, figure for figure, for the same seed, and another for another seed', async () => {
    const strategies = pickStrategies('all');
    const run = async (seed: number) => {
      const lab = await runLab({ plan: { ...defaultDemoPlan(200), seed }, strategies, outDir: tempDir(), out: () => undefined });
      return { rows: lab.rows, stories: lab.stories };
    };
    const first = await run(11);
    const again = await run(11);
    expect(again).toEqual(first);
    const other = await run(12);
    expect(other.rows).not.toEqual(first.rows);
  }, 600_000);

  it("stops with the failing world's name when a world fails", async () => {
    const notADir = path.join(tempDir(), 'not-a-folder');
    writeFileSync(notADir, '');
    const plan = defaultDemoPlan(100);
    await expect(
      runWorlds(pickStrategies('pacer'), plan, demoSimulator(plan), LAB_START, {
        outDir: notADir,
        logErrors: false,
        progress: () => undefined,
      }),
    ).rejects.toThrow(/the pacer world failed: /);
  });
});
