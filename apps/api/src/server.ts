/**
 * The server's entry point (`npm start` runs its build, apps/api/dist/server.js). Before anything else is
 * loaded it keeps the shapes of Node's tick queue entries and HTTP responses alive (lib/kept-shapes.ts): loading
 * the server's modules runs full garbage collections, and once those have dropped a shape a few times, every
 * `process.nextTick` (or every response's construction) goes through V8's runtime for the life of the process.
 * Then it starts the server (start.ts).
 */
import { keepShapes } from './lib/kept-shapes';

keepShapes();
await import('./start');
