import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The server's graph rules (eslint.config.js, issue 31) fail on what they are there to stop: a planted import cycle
 * (server and web app), lib/ importing a module, a module importing a plugin or a job, and a file outside a module
 * reaching past its index.ts; and they pass the same import written the right way.
 */
const repoRoot = path.resolve(import.meta.dirname, '../../..');
const api = (file: string) => path.join(repoRoot, 'apps/api/src', file);

let eslint: ESLint;
const planted: string[] = [];

beforeAll(() => {
  eslint = new ESLint({ cwd: repoRoot, overrideConfigFile: path.join(repoRoot, 'eslint.config.js') });
});

afterAll(() => {
  for (const dir of planted) rmSync(dir, { recursive: true, force: true });
});

/** The rules that fire on `code` as if it were the file at `file`. */
async function rulesFor(file: string, code: string): Promise<(string | null)[]> {
  const [result] = await eslint.lintText(code, { filePath: file });
  return result!.messages.map((m) => m.ruleId);
}

/** Two files that import each other, in a temporary folder under `parent` (removed after the tests). */
function plantCycle(parent: string, ext: 'ts' | 'tsx') {
  const dir = mkdtempSync(path.join(parent, 'graph-probe-'));
  planted.push(dir);
  writeFileSync(path.join(dir, `a.${ext}`), "import { b } from './b';\n\nexport const a = () => b;\n");
  writeFileSync(path.join(dir, `b.${ext}`), "import { a } from './a';\n\nexport const b = () => a;\n");
  return path.join(dir, `a.${ext}`);
}

describe('the module graph rules', () => {
  it('fail on an import cycle in the server', async () => {
    const file = plantCycle(api('lib'), 'ts');
    const [result] = await eslint.lintFiles([file]);
    expect(result!.messages.map((m) => m.ruleId)).toContain('import-x/no-cycle');
  });

  it('fail on an import cycle in the web app', async () => {
    const file = plantCycle(path.join(repoRoot, 'apps/web/src/lib'), 'tsx');
    const [result] = await eslint.lintFiles([file]);
    expect(result!.messages.map((m) => m.ruleId)).toContain('import-x/no-cycle');
  });

  it('fail when lib/ imports a module, a plugin or a job', async () => {
    for (const target of ['../modules/audit', '../plugins/access', '../jobs/periodic-job']) {
      expect(await rulesFor(api('lib/graph-probe.ts'), `import * as up from '${target}';\n\nexport const probe = up;\n`), target).toEqual([
        'import-x/no-restricted-paths',
      ]);
    }
  });

  it('fail when a module imports a plugin or a job', async () => {
    for (const target of ['../../plugins/access', '../../jobs/periodic-job']) {
      expect(await rulesFor(api('modules/audit/graph-probe.ts'), `import * as up from '${target}';\n\nexport const probe = up;\n`), target).toEqual([
        'import-x/no-restricted-paths',
      ]);
    }
  });

  it("fail when a file outside a module reaches past the module's index.ts", async () => {
    for (const file of ['plugins/graph-probe.ts', 'jobs/graph-probe.ts', 'cli/graph-probe.ts', 'graph-probe.ts']) {
      const modules = path.relative(path.dirname(api(file)), api('modules')).split(path.sep).join('/') || '.';
      const code = `import { recordAudit } from '${modules.startsWith('.') ? modules : `./${modules}`}/audit/audit.service';\n\nexport const probe = recordAudit;\n`;
      expect(await rulesFor(api(file), code), file).toEqual(['terrafund/unit-boundaries']);
    }
  });

  it('pass the same imports made the right way', async () => {
    expect(await rulesFor(api('plugins/graph-probe.ts'), "import { recordAudit } from '../modules/audit';\n\nexport const probe = recordAudit;\n")).toEqual([]);
    expect(await rulesFor(api('modules/audit/graph-probe.ts'), "import { AppError } from '../../lib/app-error';\n\nexport const probe = AppError;\n")).toEqual([]);
    expect(await rulesFor(api('lib/graph-probe.ts'), "import { AppError } from './app-error';\n\nexport const probe = AppError;\n")).toEqual([]);
  });
});
