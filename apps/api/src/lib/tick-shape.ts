import { createHook } from 'node:async_hooks';

/**
 * Keeps one of Node's `process.nextTick` queue entries alive for the life of the process, so that V8 keeps the
 * hidden classes ("maps") those entries are built with.
 *
 * Every `process.nextTick` builds `{ [async_id_symbol], [trigger_async_id_symbol], callback, args }`, and Node's
 * own streams call it about nine times per HTTP request. An entry lives only until its tick runs, so at a full
 * garbage collection there is often none alive; V8 then drops the maps, builds new ones at the next call, and
 * after a few such rounds the property stores in `nextTick` give up on their inline caches (megamorphic) and go
 * through the runtime on every call: about 1 µs a call instead of 0.15, some 8 µs of every small API answer
 * (docs/performance.md, "GET /api/config"). One entry kept alive keeps the maps, and the caches stay monomorphic.
 *
 * The async hook sees the entry object as its `resource`; it is enabled for the two calls below only.
 */
const kept: object[] = [];

/** How many tick queue entries are kept (two once keepTickShape() ran: one with arguments, one without). */
export const keptTickEntries = (): number => kept.length;

export function keepTickShape(): void {
  if (kept.length > 0) return;
  const hook = createHook({
    init(_asyncId, type, _triggerAsyncId, resource) {
      if (type === 'TickObject') kept.push(resource);
    },
  });
  hook.enable();
  try {
    // With and without arguments: the entry's `args` field holds `undefined` or an array.
    process.nextTick(() => {});
    process.nextTick((_value: unknown) => {}, 0);
  } finally {
    hook.disable();
  }
}

