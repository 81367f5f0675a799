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
    // Drawn by weight: about three Americans to one Brazilian.
    expect(mixed['US']! / 400).toBeGreaterThan(0.65);
    expect(mixed['US']! / 400).toBeLessThan(0.85);
  });

  it("the demo, with no file, keeps the simulator's whole mix", () => {
    const plan = labPlan(7, null, null);
    const config = resolveSimulatorConfig(demoSimulator({ ...plan, audience: 2_000 }));
    const countries = new Set(generatePopulation(config, LAB_START).users.map((u) => u.country));
    expect(countries.size).toBeGreaterThan(8);
  });
});
