import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { keepShapes, keptShapes } from './kept-shapes';

describe('keepShapes', () => {
  it('keeps two tick queue entries and one response, once however often it is called', () => {
    keepShapes();
    keepShapes();
    expect(keptShapes()).toBe(3);
  });

  it('ticks queued afterwards still run, with their arguments and in order', async () => {
    keepShapes();
    const ran: number[] = [];
    await new Promise<void>((resolve) => {
      process.nextTick(() => ran.push(1));
      process.nextTick((value: number) => ran.push(value), 2);
      process.nextTick(() => resolve());
    });
    expect(ran).toEqual([1, 2]);
  });

  it('an HTTP server built afterwards answers as before: status, reason, headers and body', async () => {
    keepShapes();
    const server = http.createServer((_request, response) => {
      response.writeHead(201, { 'content-type': 'text/plain', 'x-kept': 'yes' });
      response.end('made');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const answer = await fetch(`http://127.0.0.1:${port}/`);
      expect([answer.status, answer.statusText]).toEqual([201, 'Created']);
      expect(answer.headers.get('x-kept')).toBe('yes');
      expect(await answer.text()).toBe('made');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
