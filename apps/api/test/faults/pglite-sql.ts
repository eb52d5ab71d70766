/**
 * `tsx pglite-sql.ts DATA_DIR SQL`: runs SQL on the embedded database of a stopped instance and prints the rows as
 * JSON. The fault tests use it to shape and read an embedded instance's data while no server holds it (PGlite allows
 * one process per data directory).
 */
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

const [dataDir, query] = process.argv.slice(2);
if (!dataDir || !query) throw new Error('usage: tsx pglite-sql.ts DATA_DIR SQL');
const pglite = new PGlite({ dataDir: path.join(dataDir, 'pglite'), extensions: { pg_trgm } });
try {
  const results = await pglite.exec(query);
  console.log(JSON.stringify(results.at(-1)?.rows ?? []));
} finally {
  await pglite.close();
}
