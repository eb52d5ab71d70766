import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the fake provider received it. */
export type ReceivedRequest = { method: string; path: string; headers: IncomingHttpHeaders; body: string };

/** What the fake answers: a status and a JSON body (or raw text), or `hang` to never answer. */
export type FakeAnswer = { status: number; json?: unknown; text?: string } | 'hang';

/**
 * A stand-in for a provider's API on 127.0.0.1, for adapter tests: records every request and answers
 * with what the test's handler returns.
 */
export async function startFakeServer(handler: (request: ReceivedRequest) => FakeAnswer) {
  const requests: ReceivedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(request);
      const answer = handler(request);
      if (answer === 'hang') return;
      const text = answer.json === undefined ? (answer.text ?? '') : JSON.stringify(answer.json);
      res.writeHead(answer.status, { 'content-type': answer.json === undefined ? 'text/plain' : 'application/json' });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** An address where nothing listens: a port that was just freed. */
export async function unusedUrl(): Promise<string> {
  const server = await startFakeServer(() => ({ status: 200, json: {} }));
  await server.close();
  return server.url;
}
