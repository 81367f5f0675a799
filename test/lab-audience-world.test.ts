import { describe, expect, it } from 'vitest';
import { resolveSimulatorConfig } from '../src/adapters/simulator/index.js';
import { generatePopulation } from '../src/adapters/simulator/population.js';
import { labPlan } from '../src/main/commands/lab.js';
import { demoSimulator, LAB_START } from '../src/main/demo/run-lab.js';
import type { LabAudience } from '../src/main/demo/lab-audience.js';

const audience = (countries: LabAudience['countries']): LabAudience => ({
  size: Object.values(countries).reduce((a, b) => a + b, 0),
  countries,
  otherCountries: 0,
  marketingOptIn: 0.5,
  utilityOptIn: 1,
});

function simulatedCountries(a: LabAudience): Record<string, number> {
  const plan = labPlan(7, null, a);
  const config = resolveSimulatorConfig(demoSimulator(plan, a.countries));
  const out: Record<string, number> = {};
  for (const u of generatePopulation(config, LAB_START).users) out[u.country] = (out[u.country] ?? 0) + 1;
  return out;
}

describe("the lab's simulated audience", () => {
  it("lives only in the file's countries: none of the simulator's default mix is added", () => {
    expect(Object.keys(simulatedCountries(audience({ GB: 77 })))).toEqual(['GB']);
    const mixed = simulatedCountries(audience({ US: 300, BR: 100 }));
    expect(Object.keys(mixed).sort()).toEqual(['BR', 'US']);
  });

  it("copies the file's country counts exactly, not drawn at random, however small the file", () => {
    expect(simulatedCountries(audience({ US: 300, BR: 100 }))).toEqual({ US: 300, BR: 100 });
    // The 50/50 file that a random draw made 63/37.
    expect(simulatedCountries(audience({ US: 50, GB: 50 }))).toEqual({ US: 50, GB: 50 });
    expect(simulatedCountries(audience({ IN: 3, MX: 1, DE: 1 }))).toEqual({ IN: 3, MX: 1, DE: 1 });
  });

  it("keeps the file's shares when the simulated size differs from the weights' total (largest remainders)", () => {
    const plan = { ...labPlan(7, null, audience({ GB: 2, IN: 1 })), audience: 10 };
    const config = resolveSimulatorConfig(demoSimulator(plan, { GB: 2, IN: 1 }));
    const users = generatePopulation(config, LAB_START).users;
    // 10 × 2/3 = 6.67 and 10 × 1/3 = 3.33: 7 and 3.
    expect(users.filter((u) => u.country === 'GB')).toHaveLength(7);
    expect(users.filter((u) => u.country === 'IN')).toHaveLength(3);
    // In a seeded order, not one country after the other.
    expect(users.slice(0, 7).every((u) => u.country === 'GB')).toBe(false);
  });

  it("the demo, with no file, keeps the simulator's whole mix", () => {
    const plan = labPlan(7, null, null);
    const config = resolveSimulatorConfig(demoSimulator({ ...plan, audience: 2_000 }));
    const countries = new Set(generatePopulation(config, LAB_START).users.map((u) => u.country));
    expect(countries.size).toBeGreaterThan(8);
  });
});
