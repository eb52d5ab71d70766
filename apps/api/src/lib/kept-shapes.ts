import { createHook } from 'node:async_hooks';
import { ServerResponse, type IncomingMessage } from 'node:http';

/**
 * Keeps alive, for the life of the process, one of each short-lived object of Node's own that every request
 * builds many of, so that V8 keeps the hidden classes ("maps") they are built with.
 *
 * V8 holds the map transitions an object goes through (one per property it gains) weakly. When a full garbage
 * collection finds no object of such a kind alive (at start, while the modules load; later, whenever the server
 * is idle), it drops those maps; the next object builds new ones that the inline caches of Node's code have not
 * seen, and after a few such rounds the property stores give up on their caches (megamorphic) and go through
 * V8's runtime on every call, for the rest of the process (docs/performance.md, "GET /api/config"). One object
 * of the kind kept alive keeps its maps, and the caches stay monomorphic.
 */
const kept: object[] = [];

/**
 * Node's `process.nextTick` queue entries: `{ [async_id_symbol], [trigger_async_id_symbol], callback, args }`,
 * built about nine times per HTTP request by Node's streams. Megamorphic, each call cost about 1 µs instead of 0.15.
 * Two entries are kept, one with arguments and one without (the `args` field holds `undefined` or an array). The
 * async hook sees an entry as its `resource`; it is enabled for the two calls below only.
 */
function keepTickEntries(): void {
  const hook = createHook({
    init(_asyncId, type, _triggerAsyncId, resource) {
      if (type === 'TickObject') kept.push(resource);
    },
  });
  hook.enable();
  try {
    process.nextTick(() => {});
    process.nextTick((_value: unknown) => {}, 0);
  } finally {
    hook.disable();
  }
}

/**
 * Node's `ServerResponse`, one per request: its constructor stores some forty properties, seven of them under
 * symbols, and `writeHead` adds `statusMessage` and `statusCode`. With those transitions dropped, the symbol-keyed
 * stores went through the runtime (`KeyedStoreIC_Slow`) and `writeHead` turned the response into a dictionary,
 * about 5% of a small answer's CPU. One response, built through the same constructor and `writeHead` as the
 * server's (never attached to a socket, so never sent), keeps that chain of maps. The request it names only
 * needs what the constructor reads.
 */
function keepServerResponse(): void {
  const request = { method: 'GET', httpVersionMajor: 1, httpVersionMinor: 1, headers: {} } as IncomingMessage;
  const response = new ServerResponse(request);
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
  kept.push(response);
}

/** How many objects are kept: three once keepShapes() ran (two tick queue entries and a response). */
export const keptShapes = (): number => kept.length;

/**
 * Keeps the shapes above; call it first thing in the server's entry point (server.ts), before its modules load:
 * loading them runs full collections, which would drop the tick entries' maps before any of them is used.
 */
export function keepShapes(): void {
  if (kept.length > 0) return;
  keepTickEntries();
  keepServerResponse();
}
