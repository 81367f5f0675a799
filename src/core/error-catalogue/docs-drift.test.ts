import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE, codeLabel, errorPageFileName, renderErrorDocs } from './index.js';

const docsDir = path.join(import.meta.dirname, '..', '..', '..', 'docs', 'errors');
const rendered = renderErrorDocs(ERROR_CATALOGUE);
const committed = readdirSync(docsDir)
  .filter((name) => name.endsWith('.md'))
  .sort();

describe('docs/errors matches the catalogue (run `npm run docs:errors` after editing it)', () => {
  it('every code has a page and every page belongs to a code', () => {
    const pages = ERROR_CATALOGUE.map(errorPageFileName);
    expect(new Set(pages).size).toBe(pages.length);
    expect(committed).toEqual([...pages, 'README.md'].sort());
  });

  it.each([...rendered.keys()])('%s is up to date', (name) => {
    const onDisk = readFileSync(path.join(docsDir, name), 'utf8');
    expect(onDisk, `docs/errors/${name} is stale; run npm run docs:errors`).toBe(rendered.get(name));
  });

  it('the index links every code once', () => {
    const index = rendered.get('README.md') ?? '';
    for (const entry of ERROR_CATALOGUE) {
      const link = `[${codeLabel(entry)}](${errorPageFileName(entry)})`;
      expect(index.split(link).length - 1, link).toBe(1);
    }
  });
});
