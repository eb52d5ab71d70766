import { chmodSync, mkdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';

/**
 * The embedded database lives inside the process that opened it (PGlite: one process per data directory), so a backup
 * of a running instance has to come from that process. It answers on a Unix socket in DATA_DIR/run (a directory only
 * its owner can enter: the file system is the access control): `npm run backup` connects, sends `backup`, and receives
 * a copy of the data directory taken while no statement runs and no transaction is open (docs/operations.md, Backups).
 */
export const backupSocketPath = (dataDir: string) => path.join(dataDir, 'run', 'backup.sock');

/** What the server answers on the socket: `ok <bytes>\n` then the bytes, or `error <message>\n`. */
const REQUEST = 'backup\n';

/**
 * A copy of the data directory (PGlite's own `dumpDataDir`, a gzipped tar) taken inside a transaction of its own:
 * PGlite runs one transaction (or statement) at a time, so none of the application's is half-way through. A
 * checkpoint first writes every committed change to the data files, so the copy opens without replaying much WAL
 * (its own open, empty transaction is rolled back when the copy is opened).
 */
export async function dumpPglite(pglite: PGlite): Promise<Buffer> {
  const blob = await pglite.transaction(async (tx) => {
    await tx.exec('checkpoint');
    return pglite.dumpDataDir('gzip');
  });
  return Buffer.from(await blob.arrayBuffer());
}

/**
 * Listens on the backup socket for as long as `pglite` is open; `close()` stops and removes it. A socket file left by
 * a process that was killed is replaced; one that another process still answers on is left alone (two processes on one
 * data directory would be the real problem, and that one serves the backups).
 */
export async function serveBackups(pglite: PGlite, socketPath: string, onError: (error: unknown) => void): Promise<{ close(): Promise<void> }> {
  mkdirSync(path.dirname(socketPath), { recursive: true, mode: 0o700 });
  chmodSync(path.dirname(socketPath), 0o700);
  if (await answers(socketPath)) return { close: async () => {} };
  rmSync(socketPath, { force: true });
  const server = net.createServer((socket) => {
    let request = '';
    socket.setEncoding('utf8');
    socket.on('error', () => {});
    socket.on('data', (chunk: string) => {
      request += chunk;
      if (!request.includes('\n')) return;
      if (request !== REQUEST) return void socket.end('error unknown request\n');
      dumpPglite(pglite).then(
        (bytes) => {
          socket.write(`ok ${bytes.length}\n`);
          socket.end(bytes);
        },
        (error: unknown) => {
          onError(error);
          socket.end(`error ${error instanceof Error ? error.message : String(error)}\n`);
        },
      );
    });
  });
  server.on('error', onError);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  chmodSync(socketPath, 0o600);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        rmSync(socketPath, { force: true });
      }),
  };
}

/** Whether a process answers on the socket (a running server holding the data directory). */
export function answers(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(socketPath);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Asks the process holding the data directory for a copy (see serveBackups). Undefined when no process answers. */
export function requestBackup(socketPath: string): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    const chunks: Buffer[] = [];
    let connected = false;
    socket.once('connect', () => {
      connected = true;
      socket.write(REQUEST);
    });
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.once('error', (error: NodeJS.ErrnoException) => {
      if (!connected && (error.code === 'ENOENT' || error.code === 'ECONNREFUSED')) resolve(undefined);
      else reject(error);
    });
    socket.once('end', () => {
      const all = Buffer.concat(chunks);
      const newline = all.indexOf(0x0a);
      const header = all.subarray(0, newline).toString('utf8');
      if (header.startsWith('error ')) return reject(new Error(`the running server could not make the backup: ${header.slice(6)}`));
      const length = /^ok (\d+)$/.exec(header)?.[1];
      const body = all.subarray(newline + 1);
      if (length === undefined || body.length !== Number(length)) return reject(new Error('the running server sent an incomplete backup'));
      resolve(body);
    });
  });
}
