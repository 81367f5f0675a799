import { describe, expect, it } from 'vitest';
import { HOUR } from '../../core/time.js';
import { marketingInWindow, marketingVerdict } from './cap-model.js';
import type { SimulatorConfigInput } from './config.js';
import { resolveSimulatorConfig } from './resolve-config.js';
import { generatePopulation, type SimUser } from './population.js';

const START = Date.UTC(2026, 0, 5, 9);

function setup(input: SimulatorConfigInput = {}) {
  const config = resolveSimulatorConfig({ seed: 3, population: { size: 400, experimentRate: 0, stoppedRate: 0 }, ...input });
  return { config, users: generatePopulation(config, START).users };
}

const capped = (u: SimUser) => ['IN', 'BR', 'ID', 'MX'].includes(u.country);

describe('per-user marketing cap', () => {
  it('gives users who read little a tighter cap', () => {
    const { users } = setup();
    const low = users.filter((u) => u.readPropensity < 0.2);
    const high = users.filter((u) => u.readPropensity > 0.8);
    expect(Math.max(...low.map((u) => u.capLimit))).toBeLessThan(Math.min(...high.map((u) => u.capLimit)));
  });

  it('fills with other businesses’ marketing, so some users are at their cap before we send anything', () => {
    const { config, users } = setup();
    const inCapped = users.filter(capped);
    const full = inCapped.filter((u) => marketingInWindow(u, START, config) >= u.capLimit);
    expect(full.length).toBeGreaterThan(inCapped.length * 0.15);
    expect(full.length).toBeLessThan(inCapped.length * 0.7);
  });

  it('fails a retry inside the 24 h penalty and restarts it; after a full quiet day the cap is checked afresh', () => {
    const { config, users } = setup({ cap: { minPerWindow: 0, maxPerWindow: 0 } });
    const user = users.find(capped)!;
    expect(marketingVerdict(user, START, config)).toEqual({ kind: 'fail', code: 131049, why: 'cap' });
    expect(marketingVerdict(user, START + 23 * HOUR, config)).toEqual({ kind: 'fail', code: 131049, why: 'retry_inside_penalty' });
    // The retry at 23 h pushed the penalty to 47 h.
    expect(marketingVerdict(user, START + 46 * HOUR, config)).toMatchObject({ why: 'retry_inside_penalty' });
    expect(marketingVerdict(user, START + 70 * HOUR + 1, config)).toMatchObject({ why: 'cap' });
  });

  it('lets a waiting sender through once the inbox has room', () => {
    const { config, users } = setup({
      cap: { minPerWindow: 1, maxPerWindow: 1 },
      population: { size: 400, experimentRate: 0, stoppedRate: 0, otherMarketingPerDay: { min: 0.01, max: 0.01 } },
    });
    const user = users.find(capped)!;
    expect(marketingVerdict(user, START, config)).toEqual({ kind: 'deliver', counted: true });
    expect(marketingVerdict(user, START + HOUR, config)).toMatchObject({ code: 131049, why: 'cap' });
    expect(marketingVerdict(user, START + 26 * HOUR, config)).toEqual({ kind: 'deliver', counted: true });
  });

  it('does not cap or count marketing inside an open customer-service window', () => {
    const { config, users } = setup({ cap: { minPerWindow: 0, maxPerWindow: 0 } });
    const user = users.find(capped)!;
    user.state.windowOpenUntil = START + HOUR;
    expect(marketingVerdict(user, START, config)).toEqual({ kind: 'deliver', counted: false });
    expect(user.state.marketingLog).toHaveLength(0);
  });

  it('has no cap in uncapped regions, pauses US marketing, and keeps stop and experiment first', () => {
    const { config, users } = setup({ cap: { minPerWindow: 0, maxPerWindow: 0 } });
    const gb = users.find((u) => u.country === 'GB')!;
    expect(marketingVerdict(gb, START, config)).toEqual({ kind: 'deliver', counted: false });
    const us = users.find((u) => u.country === 'US')!;
    expect(marketingVerdict(us, START, config)).toMatchObject({ code: 131049, why: 'us_pause' });
    us.state.stoppedMarketing = true;
    expect(marketingVerdict(us, START, config)).toEqual({ kind: 'fail', code: 131050 });
    const exp = users.find(capped)!;
    exp.experiment = true;
    expect(marketingVerdict(exp, START, config)).toEqual({ kind: 'fail', code: 130472 });
    exp.state.windowOpenUntil = START + HOUR;
    expect(marketingVerdict(exp, START, config)).toEqual({ kind: 'deliver', counted: false });
  });
});
