import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES } from '../src/config/config.js';

const doc = (name: string): string => readFileSync(path.join(import.meta.dirname, '..', name), 'utf8');
const named = (text: string): string[] => [
  ...new Set([...text.matchAll(/`((?:PACER|WHATSAPP)_[A-Z0-9_]+|DATABASE_URL)`/g)].map((m) => m[1] ?? '')),
];

describe('configuration docs', () => {
  it('documents every variable the configuration reads, in the README and docs/configuration.md', () => {
    for (const file of ['README.md', 'docs/configuration.md']) {
      const documented = named(doc(file));
      expect(
        CONFIG_VARIABLES.filter((v) => !documented.includes(v)),
        `${file} lacks these`,
      ).toEqual([]);
    }
  });

  it('documents no variable in docs/configuration.md that the configuration does not read', () => {
    expect(named(doc('docs/configuration.md')).filter((v) => !CONFIG_VARIABLES.includes(v))).toEqual([]);
  });
});
