import autocannon from 'autocannon';
import type pg from 'pg';

/** What one measured run did: successful requests per second and their latency percentiles. */
export interface Measurement {
  name: string;
  seconds: number;
  ok: number;
  /** Non-2xx answers, connection errors and timeouts (HTTP) or failed queries (pg). */
  failed: number;
  failures: string;
  rps: number;
  p50Ms: number;
  p99Ms: number;
}

export interface Load {
  seconds: number;
  connections: number;
}

/** A positive number from the environment variable `name`, or `fallback` when it is unset. */
export function positiveNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!(value > 0)) throw new Error(`${name} must be a positive number, got "${raw}"`);
  return value;
}

/** The closed-loop load of every measured run: `BENCH_SECONDS` (10) at `BENCH_CONNECTIONS` (32). */
export const loadFromEnv = (): Load => ({
  seconds: positiveNumber('BENCH_SECONDS', 10),
  connections: Math.max(1, Math.round(positiveNumber('BENCH_CONNECTIONS', 32))),
});

/** The text of every measured post. */
export const BODY_TEXT = 'The quick brown fox jumps over the lazy dog, then posts a status update about it.';

/** What autocannon sends; the load is given separately. */
export type HttpRequest = Omit<autocannon.Options, 'connections' | 'duration'>;

/** Nearest-rank percentile of ascending samples. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** A run's figures from the latencies of its successful requests (sorted here) and its failures. */
export function summarize(
  name: string,
  seconds: number,
  latenciesMs: number[],
  failed: number,
  failures: string,
): Measurement {
  latenciesMs.sort((a, b) => a - b);
  return {
    name,
    seconds,
    ok: latenciesMs.length,
    failed,
    failures,
    rps: latenciesMs.length / seconds,
    p50Ms: percentile(latenciesMs, 50),
    p99Ms: percentile(latenciesMs, 99),
  };
}

/**
 * Drives the gateway with autocannon. Latencies are taken from each 2xx response's own timer (autocannon's histogram
 * keeps whole milliseconds), so HTTP and pg figures come out of the same percentile code.
 */
export async function measureHttp(name: string, load: Load, request: HttpRequest): Promise<Measurement> {
  const latenciesMs: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ ...request, connections: load.connections, duration: load.seconds }, (err, res) =>
      err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(res),
    );
    instance.on('response', (_client, status, _bytes, responseTimeMs) => {
      if (status >= 200 && status < 300) latenciesMs.push(responseTimeMs);
    });
  });
  const statuses = Object.entries(result.statusCodeStats ?? {}).filter(([code]) => !code.startsWith('2'));
  const failures = [
    ...statuses.map(([code, { count }]) => `${count ?? 0}×${code}`),
    ...(result.errors ? [`${result.errors} errors (${result.timeouts} timeouts)`] : []),
  ];
  return summarize(name, result.duration, latenciesMs, result.non2xx + result.errors, failures.join(', '));
}

/** Counts failures by their message, for a run's `failures` summary. */
export class Failures {
  private readonly counts = new Map<string, number>();

  add(message: string): void {
    this.counts.set(message, (this.counts.get(message) ?? 0) + 1);
  }

  get total(): number {
    return [...this.counts.values()].reduce((a, b) => a + b, 0);
  }

  count(message: string): number {
    return this.counts.get(message) ?? 0;
  }

  toString(): string {
    return [...this.counts].map(([message, count]) => `${count}× ${message}`).join(', ');
  }
}

/** Runs `query` in `load.connections` concurrent loops over the pool until the time is up. */
export async function measurePg(
  name: string,
  load: Load,
  pool: pg.Pool,
  query: () => [string, unknown[]],
): Promise<Measurement> {
  const latenciesMs: number[] = [];
  const failures = new Failures();
  const started = process.hrtime.bigint();
  const end = started + BigInt(Math.round(load.seconds * 1e9));
  const loop = async () => {
    while (process.hrtime.bigint() < end) {
      const [text, values] = query();
      const sent = process.hrtime.bigint();
      try {
        await pool.query(text, values);
        latenciesMs.push(Number(process.hrtime.bigint() - sent) / 1e6);
      } catch (err) {
        failures.add(err instanceof Error ? err.message : String(err));
      }
    }
  };
  await Promise.all(Array.from({ length: load.connections }, loop));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return summarize(name, seconds, latenciesMs, failures.total, failures.toString());
}
