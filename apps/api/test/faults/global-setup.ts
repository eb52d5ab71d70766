import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from '../processes/harness';
import { faultsSkipReason, postgresBin } from './backends';

/**
 * The fault tests run the compiled server, as `npm run serve` does: compile it once per run. When PostgreSQL's server
 * programs or redis-server are missing, every fault test is skipped and this says why.
 */
export function setup() {
  if (faultsSkipReason) {
    console.log(`[faults] skipped: ${faultsSkipReason}. They start a PostgreSQL cluster of their own (initdb, pg_ctl) and a redis-server.`);
    return;
  }
  console.log(`[faults] PostgreSQL programs from ${postgresBin}${process.getuid?.() === 0 ? ', run as the postgres user' : ''}`);
  const build = spawnSync(process.execPath, [path.join(repoRoot, 'apps/api/build.mjs')], { cwd: repoRoot, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`compiling the API failed:\n${build.stdout}\n${build.stderr}`);
}
