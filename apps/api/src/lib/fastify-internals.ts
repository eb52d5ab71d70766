/**
 * A symbol Fastify keys its own state with on a request or reply (fastify/lib/symbols.js), found by its
 * description; null when Fastify no longer keeps that state there, and the caller falls back to the public API.
 * For the few reads on every request where the public API builds or copies (plugins/security.ts, plugins/metrics.ts).
 */
export const fastifySymbol = (target: object, description: string): symbol | null =>
  Object.getOwnPropertySymbols(target).find((symbol) => symbol.description === description) ?? null;
