import { Histogram, Registry, type RegistryContentType } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { REQUEST_DURATION_BUCKETS } from '../plugins/metrics';
import { RequestDurationHistogram } from './request-histogram';

const name = 'http_request_duration_seconds';
const help = 'Time to answer an HTTP request, by method, route pattern and status.';

/** The same observations into this histogram and into prom-client's, each in a registry of its own. */
function both(contentType: RegistryContentType = Registry.PROMETHEUS_CONTENT_TYPE) {
  const ours = new Registry<RegistryContentType>();
  const theirs = new Registry<RegistryContentType>();
  ours.setContentType(contentType);
  theirs.setContentType(contentType);
  const histogram = new RequestDurationHistogram(name, help, REQUEST_DURATION_BUCKETS, [ours]);
  const reference = new Histogram({ name, help, labelNames: ['method', 'route', 'status'], buckets: REQUEST_DURATION_BUCKETS, registers: [theirs] });
  const observe = (method: string, route: string, status: number, seconds: number) => {
    histogram.observe(method, route, status, seconds);
    reference.observe({ method, route, status: String(status) }, seconds);
  };
  return { ours, theirs, histogram, observe };
}

describe('the request duration histogram', () => {
  it.each([Registry.PROMETHEUS_CONTENT_TYPE, Registry.OPENMETRICS_CONTENT_TYPE])('prints, byte for byte, what prom-client’s Histogram prints for the same requests (%s)', async (contentType) => {
    const { ours, theirs, observe } = both(contentType);
    expect(await ours.metrics()).toBe(await theirs.metrics());
    const routes = ['/api/config', '/api/transactions', 'unmatched', '/api/users/:id', '/api/path "with" \\ quotes\n'];
    let seed = 7;
    const random = () => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
    for (let i = 0; i < 2_000; i += 1) {
      const status = [200, 201, 304, 400, 401, 404, 429, 500, 503][Math.floor(random() * 9)]!;
      observe(['GET', 'POST', 'HEAD', 'PATCH'][Math.floor(random() * 4)]!, routes[Math.floor(random() * routes.length)]!, status, random() ** 4 * 14);
    }
    for (const edge of [0, 0.005, 0.0050001, 10, 10.5, 1e-9]) observe('GET', '/api/config', 200, edge);
    expect(await ours.metrics()).toBe(await theirs.metrics());
    expect(await ours.getMetricsAsJSON()).toEqual(await theirs.getMetricsAsJSON());
  });

  it('starts again from nothing when the registry is reset', async () => {
    const { ours, theirs, observe } = both();
    observe('GET', '/api/config', 200, 0.001);
    ours.resetMetrics();
    theirs.resetMetrics();
    observe('POST', '/api/x', 201, 0.2);
    expect(await ours.metrics()).toBe(await theirs.metrics());
    expect(await ours.metrics()).not.toContain('/api/config');
  });
});
