import type { Registry, RegistryContentType } from 'prom-client';

type Series = { labels: { method: string; route: string; status: string }; counts: Float64Array; sum: number; count: number };

/** One value of a histogram as prom-client's registry prints it (what `Histogram.getForPromString()` gives). */
type Value = {
  labels: Record<string, string | number>;
  sharedLabels: Record<string, string>;
  value: number;
  metricName: string;
  exemplar?: null;
};

/**
 * A Prometheus histogram of request durations by method, route pattern and status, printed exactly as prom-client's
 * `Histogram` with the same name, help, labels and buckets prints it (request-histogram.test.ts compares the two),
 * and registered in a prom-client registry beside the other metrics.
 *
 * It is recorded on every request. prom-client's `observe()` takes a labels object, checks each label name, builds
 * a key string from the values and allocates a closure: about a microsecond of a small answer
 * (docs/performance.md, "GET /api/config"). Here a request's series is found by three map look-ups on values that
 * are already strings and numbers, and the bucket is counted in place.
 */
export class RequestDurationHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly series = new Map<string, Map<string, Map<number, Series>>>();
  /** Every series, in the order it was first seen (prom-client's order). */
  private readonly all: Series[] = [];

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly upperBounds: readonly number[],
    registers: Registry<RegistryContentType>[],
  ) {
    for (const registry of registers) registry.registerMetric(this as never);
  }

  observe(method: string, route: string, status: number, seconds: number): void {
    let byMethod = this.series.get(route);
    if (!byMethod) this.series.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map()));
    let series = byStatus.get(status);
    if (!series) {
      series = { labels: { method, route, status: String(status) }, counts: new Float64Array(this.upperBounds.length), sum: 0, count: 0 };
      byStatus.set(status, series);
      this.all.push(series);
    }
    const bounds = this.upperBounds;
    for (let i = 0; i < bounds.length; i += 1) {
      if (seconds <= bounds[i]!) {
        series.counts[i]! += 1;
        break;
      }
    }
    series.sum += seconds;
    series.count += 1;
  }

  /** What prom-client's registry prints: for each series, the cumulative buckets, +Inf, the sum and the count. */
  getForPromString() {
    const values: Value[] = [];
    const bucket = `${this.name}_bucket`;
    for (const { labels, counts, sum, count } of this.all) {
      let cumulative = 0;
      this.upperBounds.forEach((le, i) => {
        cumulative += counts[i]!;
        values.push({ labels: { le }, sharedLabels: labels, value: cumulative, metricName: bucket, exemplar: null });
      });
      values.push(
        { labels: { le: '+Inf' }, sharedLabels: labels, value: count, metricName: bucket, exemplar: null },
        { labels: {}, sharedLabels: labels, value: sum, metricName: `${this.name}_sum` },
        { labels: {}, sharedLabels: labels, value: count, metricName: `${this.name}_count` },
      );
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  /** The same values with each series' labels beside `le` (prom-client's `get()`, for `getMetricsAsJSON`). */
  get() {
    const metric = this.getForPromString();
    return { ...metric, values: metric.values.map(({ sharedLabels, labels, ...value }) => ({ ...value, labels: { ...labels, ...sharedLabels } })) };
  }

  reset(): void {
    this.series.clear();
    this.all.length = 0;
  }
}
