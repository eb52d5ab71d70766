/**
 * The server's entry point (`npm start` runs its build, apps/api/dist/server.js). Before anything else is
 * loaded it keeps the shape of Node's tick queue entries alive (lib/tick-shape.ts): loading the server's modules
 * runs full garbage collections, and once those have dropped the shape a few times, every `process.nextTick`
 * goes through V8's runtime for the life of the process. Then it starts the server (start.ts).
 */
import { keepTickShape } from './lib/tick-shape';

keepTickShape();
await import('./start');
