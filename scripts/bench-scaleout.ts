/**
 * `npm run bench:scaleout`: what a second instance behind HAProxy buys (docs/operations.md, "Capacity").
 *
 * Compiles the API, starts the production form of the multi-process tests (PostgreSQL database tf_*, Redis, an
 * S3-compatible bucket, BTCPay's fake, an SMTP sink), signs a member up, then loads one authenticated read
 * (GET /api/projects: a session lookup and a project query) with autocannon, in its own process, three ways:
 *
 *   1. one instance, directly;
 *   2. one instance behind HAProxy (what the proxy costs);
 *   3. two instances behind HAProxy, round robin.
 *
 * For each it prints requests per second, latency p50/p99, errors, the CPU each instance used (cores, from
 * /proc) and so requests per second per core, and the PostgreSQL connections the database saw. Nothing is
 * asserted: the figures go to docs/operations.md with the command and the machine they came from.
 *
 * Options: --connections=N (default 32), --duration=S (default 15), --path=/api/... (default /api/projects).
 * Needs DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test) and haproxy on the PATH.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot, run, startHaproxy, startInstance, type Instance } from '../apps/api/test/processes/harness';
import { signUp, startProductionBackends } from '../apps/api/test/processes/production-env';

process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';
const args = process.argv.slice(2);
const option = (name: string, fallback: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const connections = Number(option('connections', '32'));
const duration = Number(option('duration', '15'));
const target = option('path', '/api/projects');

/** CPU seconds (user + system) a process has used so far. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return ticks / 100;
}

type Result = { label: string; rps: number; p50: number; p99: number; errors: number; non2xx: number; cores: number; perCore: number; pgConnections: number };

async function main() {
  const build = spawnSync(process.execPath, [path.join(repoRoot, 'apps/api/build.mjs')], { stdio: 'inherit' });
  if (build.status !== 0) throw new Error('compiling the API failed');

  const backends = await startProductionBackends('bench');
  const instances: Instance[] = [];
  const proxies: Awaited<ReturnType<typeof startHaproxy>>[] = [];
  const results: Result[] = [];
  try {
    const env = { ...backends.env, LOG_LEVEL: 'error' };
    instances.push(await startInstance('A', env, { timeoutMs: 180_000 }));
    const member = await signUp(backends, instances[0]!.url, instances[0]!.url);

    const load = async (label: string, url: string, measured: Instance[]) => {
      // A short warm-up, so JIT and the pools are in their steady state.
      await run(path.join(repoRoot, 'node_modules/.bin/autocannon'), ['-c', String(connections), '-d', '3', '-H', `authorization=Bearer ${member.token}`, `${url}${target}`], process.env);
      const before = measured.map((i) => cpuSeconds(i.child.pid!));
      const started = Date.now();
      const pgSamples: number[] = [];
      const sampler = setInterval(() => {
        void backends.database
          .query<{ count: number }>('select count(*)::int as count from pg_stat_activity where datname = $1', [backends.database.name])
          .then(([row]) => pgSamples.push(row!.count - 1));
      }, 1000);
      const bench = await run(
        path.join(repoRoot, 'node_modules/.bin/autocannon'),
        ['-j', '-c', String(connections), '-d', String(duration), '-H', `authorization=Bearer ${member.token}`, `${url}${target}`],
        process.env,
        (duration + 60) * 1000,
      );
      clearInterval(sampler);
      const seconds = (Date.now() - started) / 1000;
      const cores = measured.reduce((sum, i, n) => sum + (cpuSeconds(i.child.pid!) - before[n]!), 0) / seconds;
      const json = bench.output.slice(bench.output.indexOf('{'));
      const report = JSON.parse(json.slice(0, json.lastIndexOf('}') + 1)) as {
        requests: { average: number };
        latency: { p50: number; p99: number };
        errors: number;
        non2xx: number;
      };
      const result: Result = {
        label,
        rps: Math.round(report.requests.average),
        p50: report.latency.p50,
        p99: report.latency.p99,
        errors: report.errors,
        non2xx: report.non2xx,
        cores: Number(cores.toFixed(2)),
        perCore: Math.round(report.requests.average / Math.max(cores, 0.01)),
        pgConnections: Math.max(0, ...pgSamples),
      };
      results.push(result);
      console.log(JSON.stringify(result));
    };

    await load('1 instance, direct', instances[0]!.url, instances);
    proxies.push(await startHaproxy([{ name: 'a', port: instances[0]!.port }]));
    await load('1 instance, HAProxy', proxies[0]!.url, instances);
    instances.push(await startInstance('B', env, { timeoutMs: 180_000 }));
    proxies.push(
      await startHaproxy([
        { name: 'a', port: instances[0]!.port },
        { name: 'b', port: instances[1]!.port },
      ]),
    );
    await load('2 instances, HAProxy', proxies[1]!.url, instances);

    const load1 = os.loadavg()[0]!.toFixed(1);
    console.log(`\nGET ${target}, ${connections} connections, ${duration} s each; ${os.cpus().length} cores (${os.cpus()[0]?.model}), load average ${load1}`);
    console.log('| setup | req/s | p50 ms | p99 ms | errors | non-2xx | instance CPU (cores) | req/s per core | PostgreSQL connections |');
    console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
    for (const r of results) {
      console.log(`| ${r.label} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.non2xx} | ${r.cores} | ${r.perCore} | ${r.pgConnections} |`);
    }
  } finally {
    await Promise.allSettled([...proxies.map((p) => p.close()), ...instances.map((i) => i.stop())]);
    for (const i of instances) rmSync(i.dataDir, { recursive: true, force: true });
    await backends.close();
  }
}

main()
  .then(() => process.exit(0))
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
