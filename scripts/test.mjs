// The one gate (conventions habit 13): typecheck, lint, unit and integration tests (the API on PGlite,
// and on PostgreSQL too when DATABASE_URL is set), the landing page's bundle size, then the browser journeys. Ends with one summary line.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const results = path.join(root, 'test-results');
rmSync(results, { recursive: true, force: true });
mkdirSync(results, { recursive: true });

/** @type {[name: string, command: string, args: string[]][]} */
const steps = [
  ['typecheck', 'npm', ['run', 'typecheck']],
  ['lint', 'npm', ['run', 'lint']],
  [
    'unit and integration tests',
    'npx',
    ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${path.join(results, 'vitest.json')}`],
  ],
  // Builds the web app and holds the landing page to its JavaScript budget (issue 14), printing each chunk.
  ['web build and landing bundle size', 'node', ['scripts/check-bundle-size.mjs', '--build']],
  ['browser journeys', 'node', ['scripts/e2e.mjs']],
];

const failures = [];
for (const [name, command, args] of steps) {
  console.log(`\n=== ${name} ===`);
  const run = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, FORCE_COLOR: '0' } });
  if (run.status !== 0) failures.push(name);
}

/** @param {string} file */
const readJson = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined);
const vitest = readJson(path.join(results, 'vitest.json'));
const e2e = readJson(path.join(results, 'e2e-results.json'));
const passed = (vitest?.numPassedTests ?? 0) + (e2e?.stats?.expected ?? 0) + (e2e?.stats?.flaky ?? 0);
const failed = (vitest?.numFailedTests ?? 0) + (e2e?.stats?.unexpected ?? 0);
const skipped = (vitest?.numPendingTests ?? 0) + (vitest?.numTodoTests ?? 0) + (e2e?.stats?.skipped ?? 0);

// The failed tests by name, so that a log cut to its last lines still says which ones.
const failedNames = [
  ...(vitest?.testResults ?? []).flatMap((/** @type {{ name: string; assertionResults?: { status: string; fullName: string }[] }} */ file) =>
    (file.assertionResults ?? [])
      .filter((test) => test.status === 'failed')
      .map((test) => `${path.relative(root, file.name)} › ${test.fullName}`),
  ),
  ...flattenSpecs(e2e?.suites ?? [])
    .filter((spec) => !spec.ok)
    .map((spec) => `${spec.file} › ${spec.title}`),
];
for (const name of failedNames) console.log(`failed: ${name}`);

console.log(`\nunit/integration: ${vitest?.numPassedTests ?? 0} passed, ${vitest?.numFailedTests ?? 0} failed; browser: ${e2e?.stats?.expected ?? 0} passed, ${e2e?.stats?.unexpected ?? 0} failed`);
if (failures.length > 0) console.log(`failed steps: ${failures.join(', ')}`);
console.log(`Tests: ${passed} passed, ${failed + (failures.length > 0 && failed === 0 ? 1 : 0)} failed, ${skipped} skipped`);
process.exit(failures.length > 0 ? 1 : 0);

/**
 * Playwright's JSON report nests specs in suites (one per file, then per describe block).
 * @typedef {{ file: string; title: string; ok: boolean }} Spec
 * @typedef {{ specs?: Spec[]; suites?: Suite[] }} Suite
 * @param {Suite[]} suites
 * @returns {Spec[]}
 */
function flattenSpecs(suites) {
  return suites.flatMap((suite) => [...(suite.specs ?? []), ...flattenSpecs(suite.suites ?? [])]);
}
