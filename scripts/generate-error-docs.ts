/**
 * Writes docs/errors/<code>.md and docs/errors/README.md from the error catalogue, and removes
 * pages for codes that left it. `npm run docs:errors`; a unit test fails when the committed
 * files drift from what this would write.
 */
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ERROR_CATALOGUE, renderErrorDocs } from '../src/core/error-catalogue/index.js';

const outDir = path.join(import.meta.dirname, '..', 'docs', 'errors');

async function main(): Promise<void> {
  const files = renderErrorDocs(ERROR_CATALOGUE);
  await mkdir(outDir, { recursive: true });
  const stale = (await readdir(outDir)).filter((name) => name.endsWith('.md') && !files.has(name));
  await Promise.all(stale.map((name) => rm(path.join(outDir, name))));
  await Promise.all([...files].map(([name, content]) => writeFile(path.join(outDir, name), content, 'utf8')));
  console.log(`docs/errors: wrote ${files.size} files, removed ${stale.length} stale`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
