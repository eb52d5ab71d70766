import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';

/**
 * The real server (or a CLI) in a process of its own, started the way `npm start` starts it: tsx on the
 * TypeScript source, with only the environment a test gives (never the test runner's own NODE_ENV or
 * DATABASE_URL), so what it does is what an operator would see.
 */
export const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');
const TSX = path.join(REPO_ROOT, 'node_modules/.bin/tsx');

export type Process = {
  /** stdout and stderr so far, interleaved as they arrived. */
  output(): string;
  stdout(): string;
  stderr(): string;
  /** The exit code once the process ends. */
  exited: Promise<number | null>;
  /** Resolves when the output matches `pattern`; rejects when the process exits first or time runs out. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<number | null>;
};

export function runTsx(script: string, env: Record<string, string | undefined>): Process {
  const child = spawn(TSX, [script], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: process.env.TMPDIR, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let all = '';
  let out = '';
  let err = '';
  const listeners = new Set<() => void>();
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    all += chunk.toString();
    for (const listener of listeners) listener();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString();
    all += chunk.toString();
    for (const listener of listeners) listener();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let ended = false;
  void exited.then(() => {
    ended = true;
    for (const listener of listeners) listener();
  });

  return {
    output: () => all,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitFor(pattern, timeoutMs = 90_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => done(new Error(`timed out waiting for ${pattern}; output:\n${all}`)), timeoutMs);
        const check = () => {
          if (pattern.test(all)) done();
          else if (ended) done(new Error(`exited (${child.exitCode}) before ${pattern}; output:\n${all}`));
        };
        function done(error?: Error) {
          clearTimeout(timer);
          listeners.delete(check);
          if (error) reject(error);
          else resolve();
        }
        listeners.add(check);
        check();
      });
    },
    async stop() {
      if (!ended) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** The API server: `tsx apps/api/src/server.ts`. */
export const startServer = (env: Record<string, string | undefined>) => runTsx('apps/api/src/server.ts', env);

/** A port nobody listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
