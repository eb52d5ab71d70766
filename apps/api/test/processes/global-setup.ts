import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { haproxyInstalled, repoRoot } from './harness';

/**
 * The multi-process tests run the compiled server, as `npm run serve` and the Docker image do: compile it once
 * per run (`npm run build -w @terrafund/api`, a few seconds; the web app is not needed by these tests).
 */
export default function setup() {
  const build = spawnSync(process.execPath, [path.join(repoRoot, 'apps/api/build.mjs')], { cwd: repoRoot, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`compiling the API failed:\n${build.stdout}\n${build.stderr}`);
  if (!process.env.DATABASE_URL) {
    console.log(
      '[processes] DATABASE_URL is not set: the PostgreSQL tests (two instances behind HAProxy, readiness while the database is away) are skipped; ' +
        'run with DATABASE_URL=postgres://postgres@127.0.0.1:5432/test (as .ci/run does) to include them.',
    );
  }
  if (!haproxyInstalled) {
    console.log('[processes] haproxy is not installed: the two-instance tests are skipped; `apt-get install -y haproxy` (as .ci/run does).');
  }
}
