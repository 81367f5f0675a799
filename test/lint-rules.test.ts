// The architecture's lint rules fire: the layer table, cycles of values and of types, and the temporary exceptions.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repo = path.join(import.meta.dirname, '..');
type Exception = { file: string; import: string };
type Architecture = (options: { root: string; temporary?: { layers?: Exception[]; typeCycles?: Exception[] } }) => Linter.Config[];

// A small tree with one file per case; each file's name says what it does.
const fixture: Record<string, string> = {
  'src/core/time.ts': 'export const HOUR = 3_600_000;\n',
  'src/core/reads-disk.ts': "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n",
  'src/ports/clock.ts': "import type { HOUR } from '../core/time.js';\nexport type Clock = { now(): typeof HOUR };\n",
  'src/app/legal.ts':
    "import { HOUR } from '../core/time.js';\nimport type { Clock } from '../ports/clock.js';\nimport { z } from 'zod';\nexport const f = (c: Clock) => [c.now() + HOUR, z];\n",
  'src/app/uses-adapter.ts': "import { EXIT } from '../adapters/cli/exit-codes.js';\nexport const code = EXIT;\n",
  'src/app/other-forms.ts':
    "export type Exit = typeof import('../adapters/cli/exit-codes.js').EXIT;\nexport const load = () => import('../adapters/cli/exit-codes.js');\nexport * from '../adapters/cli/exit-codes.js';\n",
  'src/app/excused.ts': "import { EXIT } from '../adapters/cli/exit-codes.js';\nexport const code = EXIT;\n",
  'src/app/cycle-a.ts': "import { b } from './cycle-b.js';\nexport const a = () => b;\n",
  'src/app/cycle-b.ts': "import { a } from './cycle-a.js';\nexport const b = () => a;\n",
  'src/ports/types-a.ts': "import type { B } from './types-b.js';\nexport type A = { b: B };\n",
  'src/ports/types-b.ts': "import type { A } from './types-a.js';\nexport type B = { a?: A };\n",
  'src/adapters/cli/exit-codes.ts': 'export const EXIT = 1;\n',
  'src/adapters/presenters/page.ts': "export const page = 'p';\n",
  'src/adapters/http/routes.ts':
    "import { page } from '../presenters/page.js';\nimport { EXIT } from '../cli/exit-codes.js';\nimport { HOUR } from '../../core/time.js';\nexport const r = [page, EXIT, HOUR];\n",
  'src/adapters/http/api/own-folder.ts': "import { r } from '../routes.js';\nexport const o = r;\n",
  'src/config/config.ts': "import { HOUR } from '../core/time.js';\nimport { f } from '../app/legal.js';\nexport const c = [HOUR, f];\n",
  'src/main/wire.ts':
    "import { r } from '../adapters/http/routes.js';\nimport { EXIT } from '../adapters/cli/exit-codes.js';\nexport const w = [r, EXIT];\n",
  'src/app/legal.test.ts': "import { EXIT } from '../adapters/cli/exit-codes.js';\nexport const t = EXIT;\n",
};

let root: string;
let architecture: Architecture;
let problems: { file: string; line: number; ruleId: string | null; message: string }[];
const of = (file: string) => problems.filter((p) => p.file === file);

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'pacer-lint-'));
  for (const [file, text] of Object.entries(fixture)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  ({ architecture } = (await import(pathToFileURL(path.join(repo, 'eslint', 'architecture.js')).href)) as {
    architecture: Architecture;
  });
  const temporary = {
    layers: [
      { file: 'src/app/excused.ts', import: '../adapters/cli/exit-codes.js' },
      { file: 'src/app/legal.ts', import: '../core/time.js' },
    ],
  };
  const eslint = new ESLint({
    cwd: root,
    overrideConfigFile: true,
    overrideConfig: [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser } }, ...architecture({ root, temporary })],
  });
  const results = await eslint.lintFiles(['src']);
  problems = results.flatMap((r) =>
    r.messages.map((m) => ({
      file: path.relative(root, r.filePath).split(path.sep).join('/'),
      line: m.line,
      ruleId: m.ruleId,
      message: m.message,
    })),
  );
}, 60_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('layer table', () => {
  it('reports app importing an adapter, naming the layer, the import and what is allowed', () => {
    expect(of('src/app/uses-adapter.ts')).toEqual([
      {
        file: 'src/app/uses-adapter.ts',
        line: 1,
        ruleId: 'pacer/layers',
        message:
          "Layer app may import only app, core, ports and packages; '../adapters/cli/exit-codes.js' is in adapters/cli (table: eslint/layer-rule.js).",
      },
    ]);
  });

  it('reports type imports, dynamic imports and re-exports too', () => {
    expect(of('src/app/other-forms.ts').map((p) => [p.line, p.ruleId])).toEqual([
      [1, 'pacer/layers'],
      [2, 'pacer/layers'],
      [3, 'pacer/layers'],
    ]);
  });

  it("reports an adapter importing another adapter's folder, but not the shared presenters, core or its own folder", () => {
    expect(of('src/adapters/http/routes.ts').map((p) => [p.line, p.ruleId, p.message])).toEqual([
      [
        2,
        'pacer/layers',
        "Layer adapters/http may import only adapters/http, core, ports, app, adapters/presenters and packages; '../cli/exit-codes.js' is in adapters/cli (table: eslint/layer-rule.js).",
      ],
    ]);
    expect(of('src/adapters/http/api/own-folder.ts')).toEqual([]);
  });

  it('keeps core free of packages and Node modules', () => {
    expect(of('src/core/reads-disk.ts').map((p) => [p.ruleId, p.message])).toEqual([
      [
        'pacer/layers',
        "Layer core may import only core (no package or Node module); 'node:fs' is a package or Node module (table: eslint/layer-rule.js).",
      ],
    ]);
  });

  it('reports config importing app, and lets main import anything', () => {
    expect(of('src/config/config.ts').map((p) => [p.line, p.message])).toEqual([
      [2, "Layer config may import only config, core and packages; '../app/legal.js' is in app (table: eslint/layer-rule.js)."],
    ]);
    expect(of('src/main/wire.ts')).toEqual([]);
  });

  it('passes legal imports and exempts tests', () => {
    expect(of('src/ports/clock.ts')).toEqual([]);
    expect(of('src/app/legal.test.ts')).toEqual([]);
  });

  it('excuses an exact temporary exception, and reports one that no longer matches', () => {
    expect(of('src/app/excused.ts')).toEqual([]);
    expect(of('src/app/legal.ts').map((p) => [p.ruleId, p.message])).toEqual([
      [
        'pacer/layers',
        "The temporary exception for '../core/time.js' in src/app/legal.ts is no longer needed: delete it from eslint.config.js.",
      ],
    ]);
  });

  it('refuses an exception for a file that no longer exists', () => {
    const gone = { file: 'src/app/moved-away.ts', import: '../adapters/cli/exit-codes.js' };
    expect(() => architecture({ root, temporary: { typeCycles: [gone] } })).toThrow(/no longer exist.*src\/app\/moved-away\.ts/);
  });
});

describe('import cycles', () => {
  it('reports a two-file cycle of values on both files', () => {
    expect(of('src/app/cycle-a.ts').map((p) => [p.line, p.ruleId, p.message])).toEqual([
      [1, 'import-x/no-cycle', 'Dependency cycle detected'],
    ]);
    expect(of('src/app/cycle-b.ts').map((p) => [p.line, p.ruleId])).toEqual([[1, 'import-x/no-cycle']]);
  });

  it('reports a two-file cycle of type-only imports, which import-x/no-cycle skips', () => {
    expect(of('src/ports/types-a.ts')).toEqual([
      {
        file: 'src/ports/types-a.ts',
        line: 1,
        ruleId: 'pacer/no-type-cycle',
        message: "Import cycle through type-only import './types-b.js': types-b.ts imports this file back.",
      },
    ]);
    expect(of('src/ports/types-b.ts').map((p) => p.ruleId)).toEqual(['pacer/no-type-cycle']);
  });

  it('reports nothing else in the tree', () => {
    const expected = [
      'src/app/uses-adapter.ts',
      'src/app/other-forms.ts',
      'src/app/other-forms.ts',
      'src/app/other-forms.ts',
      'src/adapters/http/routes.ts',
      'src/core/reads-disk.ts',
      'src/config/config.ts',
      'src/app/legal.ts',
      'src/app/cycle-a.ts',
      'src/app/cycle-b.ts',
      'src/ports/types-a.ts',
      'src/ports/types-b.ts',
    ];
    expect(problems.map((p) => p.file).sort()).toEqual(expected.sort());
  });
});

describe("the repository's eslint.config.js", () => {
  it('runs these rules on src/ with the repository as the root, and not the layer rule on tests', async () => {
    const eslint = new ESLint({ cwd: repo });
    const rules = (await eslint.calculateConfigForFile('src/app/dispatcher.ts')).rules as Record<string, [number, { root?: string }?]>;
    expect(rules['pacer/layers']?.[0]).toBe(2);
    expect(rules['pacer/layers']?.[1]?.root).toBe(repo);
    expect(rules['import-x/no-cycle']?.[0]).toBe(2);
    expect(rules['pacer/no-type-cycle']?.[0]).toBe(2);
    const testRules = (await eslint.calculateConfigForFile('src/app/diagnose.test.ts')).rules as Record<string, unknown>;
    expect(testRules['pacer/layers']).toBeUndefined();
  });

  it('reports an app → adapter import written into a real app file', async () => {
    const eslint = new ESLint({
      cwd: repo,
      // Typed linting is not what this checks, and it would load the whole program.
      overrideConfig: {
        files: ['src/**/*.ts'],
        languageOptions: { parserOptions: { projectService: false } },
        rules: { '@typescript-eslint/switch-exhaustiveness-check': 'off' },
      },
    });
    const code = "import { EXIT_USAGE } from '../adapters/cli/exit-codes.js';\nexport const code = EXIT_USAGE;\n";
    const [result] = await eslint.lintText(code, { filePath: path.join(repo, 'src/app/dispatcher.ts') });
    expect(result?.messages.map((m) => [m.ruleId, m.message])).toEqual([
      [
        'pacer/layers',
        "Layer app may import only app, core, ports and packages; '../adapters/cli/exit-codes.js' is in adapters/cli (table: eslint/layer-rule.js).",
      ],
    ]);
    const [legal] = await eslint.lintText("import { HOUR } from '../core/time.js';\nexport const h = HOUR;\n", {
      filePath: path.join(repo, 'src/app/dispatcher.ts'),
    });
    expect(legal?.messages).toEqual([]);
  });
});
