// scratch (deleted before finishing)
import { connectPostgres } from '../apps/api/src/db/client';
import { runPayouts } from '../apps/api/src/jobs/payouts';
const h = connectPostgres(`postgres://postgres@127.0.0.1:5432/${process.argv[2] ?? 'tf_bench_scratch'}`, 2);
const t0 = performance.now();
const r = await runPayouts(h.db, { clock: { now: () => new Date(process.argv[3] ?? '2026-11-20T00:00:00Z') } });
console.log(r, performance.now() - t0);
const t1 = performance.now();
console.log(await runPayouts(h.db, { clock: { now: () => new Date(process.argv[3] ?? '2026-11-20T00:00:00Z') } }), performance.now() - t1);
await h.close();
