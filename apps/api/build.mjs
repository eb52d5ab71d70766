// Compiles the API to plain JavaScript for `npm run serve` and the Docker image: one ES module bundle per
// entry point in apps/api/dist, with the workspace's own TypeScript packages (@terrafund/contracts) inlined
// and every npm package left external, so PGlite's wasm/data files and sharp's and argon2's native modules
// are loaded from node_modules exactly as under tsx.
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';

const apiRoot = import.meta.dirname;
const outdir = path.join(apiRoot, 'dist');

/** The server and the command-line tools; each becomes dist/<name>.js. */
const entryPoints = {
  server: 'src/server.ts',
  'create-admin': 'src/cli/create-admin.ts',
  'ledger-check': 'src/cli/ledger-check.ts',
  payouts: 'src/cli/payouts.ts',
  backup: 'src/cli/backup.ts',
  restore: 'src/cli/restore.ts',
};

/**
 * Source files find their data (migrations, sample pictures, the built web app) relative to their own folder
 * with `import.meta.dirname`. In a bundle that would be dist/, so each file's `import.meta.dirname` is
 * rewritten to dist/ plus the way back to the file's source folder: paths keep resolving to the same place.
 */
const sourceDirname = {
  name: 'source-dirname',
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /\.ts$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (!source.includes('import.meta.dirname')) return undefined;
      const back = path.relative(outdir, path.dirname(args.path)).split(path.sep).join('/');
      return {
        contents: source.replaceAll('import.meta.dirname', `(import.meta.dirname + ${JSON.stringify(`/${back}`)})`),
        loader: 'ts',
      };
    });
  },
};

/** npm packages stay in node_modules; only this repository's workspace packages are compiled in. */
const externalPackages = {
  name: 'external-packages',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@terrafund/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

await rm(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: apiRoot,
  entryPoints,
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  // Shared code goes to chunks beside the entry points, and a dynamic import stays lazy (the AWS SDK).
  splitting: true,
  // Beside the entry points: a chunk's import.meta.dirname must be dist/, as sourceDirname assumes.
  chunkNames: '[name]-[hash]',
  target: 'node20',
  sourcemap: 'linked',
  sourcesContent: false,
  legalComments: 'none',
  logLevel: 'warning',
  plugins: [externalPackages, sourceDirname],
});
console.log(`api compiled to ${path.relative(process.cwd(), outdir) || outdir}`);
