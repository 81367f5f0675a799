import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SIMULATOR_CONFIG, resolveSimulatorConfig } from '../src/adapters/simulator/index.js';

const DOC = readFileSync(path.resolve(import.meta.dirname, '../docs/simulator.md'), 'utf8');

/** Config keys one level into each group (`cap.windowMs`), the level the documentation describes. */
function documentedKeys(): string[] {
  return Object.entries(DEFAULT_SIMULATOR_CONFIG).flatMap(([key, value]) =>
    typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.keys(value).map((k) => `${key}.${k}`) : [key],
  );
}

describe('simulator configuration', () => {
  it('documents every parameter in docs/simulator.md', () => {
    const missing = documentedKeys().filter((key) => !DOC.includes(`\`${key}\``));
    expect(missing).toEqual([]);
  });

  it('merges objects with the defaults and replaces arrays and scalars', () => {
    const config = resolveSimulatorConfig({
      seed: 9,
      cap: { windowMs: 1_000 },
      templates: [{ name: 'a', language: 'en', category: 'UTILITY', relevance: 1 }],
    });
    expect(config.seed).toBe(9);
    expect(config.cap.windowMs).toBe(1_000);
    expect(config.cap.maxPerWindow).toBe(DEFAULT_SIMULATOR_CONFIG.cap.maxPerWindow);
    expect(config.templates.map((t) => t.name)).toEqual(['a']);
  });

  it('names the field that is wrong', () => {
    expect(() => resolveSimulatorConfig({ population: { experimentRate: 2 } })).toThrow(
      /population\.experimentRate must be between 0 and 1/,
    );
    expect(() => resolveSimulatorConfig({ seed: 1.5 })).toThrow(/seed must be an integer/);
    expect(() => resolveSimulatorConfig({ templates: [{ name: 'x', language: 'en', category: 'MARKETING', relevance: 3 }] })).toThrow(
      /templates\[0\]\.relevance/,
    );
    expect(() => resolveSimulatorConfig({ callbackUrl: 'ftp://x' })).toThrow(/callbackUrl/);
  });
});
