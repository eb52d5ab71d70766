import { randomInt } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The HTTP core of the stateful provider fakes (BTCPay Greenfield, NOWPayments payouts): records requests,
 * answers through the fake's handler, and lets a test inject the failures real networks have: an answer lost
 * after the request was applied, a 5xx or 429 instead of the work, a request that never gets an answer, a slow one.
 */
export type FakeRequest = {
  method: string;
  /** The path without the query. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
};

export type FakeReply = { status: number; json?: unknown; text?: string };

export type Fault =
  /** The request is applied, then the connection is dropped before the answer (the client sees a network error). */
  | { kind: 'lose-answer' }
  /** Answered with this status and body; nothing is applied. */
  | { kind: 'status'; status: number; json?: unknown; text?: string }
  /** Never answered, nothing applied: the client's timeout fires. */
  | { kind: 'hang' }
  /** Applied, answered after `ms`. */
  | { kind: 'delay'; ms: number };

/** Which requests a fault hits: a method and a path (exact string, or a pattern for ids). */
export type FaultMatch = { method?: string; path?: string | RegExp };

type PendingFault = { match: FaultMatch; fault: Fault; times: number };

const matches = (match: FaultMatch, request: FakeRequest) =>
  (match.method === undefined || match.method === request.method) &&
  (match.path === undefined || (typeof match.path === 'string' ? match.path === request.path : match.path.test(request.path)));

export async function startProviderFake(handle: (request: FakeRequest) => FakeReply | Promise<FakeReply>) {
  const requests: FakeRequest[] = [];
  const faults: PendingFault[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const request: FakeRequest = {
        method: req.method ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(request);
      const pending = faults.find((f) => f.times > 0 && matches(f.match, request));
      if (pending) pending.times -= 1;
      const fault = pending?.fault;
      if (fault?.kind === 'hang') return;
      if (fault?.kind === 'status') {
        reply(res, fault);
        return;
      }
      void (async () => {
        let answer: FakeReply;
        try {
          answer = await handle(request);
        } catch (error) {
          answer = { status: 500, text: error instanceof Error ? error.message : String(error) };
        }
        if (fault?.kind === 'lose-answer') {
          res.socket?.destroy();
          return;
        }
        if (fault?.kind === 'delay') await new Promise((resolve) => setTimeout(resolve, fault.ms));
        if (!res.destroyed) reply(res, answer);
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    /** The next `times` requests that match get `fault` (the first matching fault wins). */
    fail(match: FaultMatch, fault: Fault, times = 1) {
      faults.push({ match, fault, times });
    },
    /** Forgets pending faults and recorded requests. */
    reset() {
      faults.length = 0;
      requests.length = 0;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function reply(res: ServerResponse, answer: FakeReply) {
  const text = answer.json === undefined ? (answer.text ?? '') : JSON.stringify(answer.json);
  res.writeHead(answer.status, { 'content-type': answer.json === undefined ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8' });
  res.end(text);
}

/** A notification as the provider POSTs it: the exact bytes and the headers. */
export type FakeDelivery = { body: Buffer; headers: Record<string, string> };
export type DeliveryRecord = { url: string; delivery: FakeDelivery; status?: number; error?: string };

/** Posts a delivery and records what came back; never throws (a provider does not crash on a bad webhook). */
async function postDelivery(url: string, delivery: FakeDelivery): Promise<DeliveryRecord> {
  try {
    const response = await fetch(url, { method: 'POST', headers: delivery.headers, body: delivery.body, signal: AbortSignal.timeout(10_000) });
    await response.arrayBuffer();
    return { url, delivery, status: response.status };
  } catch (error) {
    return { url, delivery, error: error instanceof Error ? error.message : String(error) };
  }
}

/** The notifications a fake sends: each posted in the background and recorded with the answer it got. */
export function deliveryLog() {
  const deliveries: DeliveryRecord[] = [];
  const inFlight = new Set<Promise<unknown>>();
  return {
    deliveries,
    send(url: string, delivery: FakeDelivery): Promise<DeliveryRecord> {
      const sending = postDelivery(url, delivery).then((record) => {
        deliveries.push(record);
        return record;
      });
      inFlight.add(sending);
      void sending.finally(() => inFlight.delete(sending));
      return sending;
    },
    /** Resolves when every delivery sent so far has been answered. */
    async settled() {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
  };
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
/** Random ids that look like BTCPay's (base58, 28 characters). */
export const base58Id = (length = 28) => Array.from({ length }, () => BASE58[randomInt(BASE58.length)]).join('');

/** Reads a JSON body; undefined when it is not JSON. */
export function jsonBody(request: FakeRequest): unknown {
  try {
    return request.body === '' ? undefined : JSON.parse(request.body);
  } catch {
    return undefined;
  }
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A clock the fakes read; tests pass the app's fixed clock so JWT expiry and TOTP steps move with it. */
export type FakeClock = { now(): Date };
export const realClock: FakeClock = { now: () => new Date() };
