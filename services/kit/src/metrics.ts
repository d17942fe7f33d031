import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** The job states whose counts a queue reports on each scrape. */
export const QUEUE_STATES = ['waiting', 'active', 'delayed', 'failed'] as const;
export type QueueState = (typeof QUEUE_STATES)[number];

/** What became of one attempt of a job: done, failed for good, or failed with attempts left. */
export type JobOutcome = 'completed' | 'failed' | 'retried';

/** How long a scrape waits for one queue's counts: a Redis that does not answer must not hang the scrape. */
export const QUEUE_COUNT_TIMEOUT_MS = 1000;

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];

/**
 * What a statement the pool sent was: transaction control (each is a round trip of its own), the dependency
 * monitor's probe (health.ts, every second), or anything else a store ran.
 */
export const STATEMENT_KINDS = ['begin', 'commit', 'rollback', 'savepoint', 'health', 'query'] as const;
export type StatementKind = (typeof STATEMENT_KINDS)[number];

/** The statement `postgresCheck` (health.ts) runs; counted apart so a scrape's difference shows the requests' own. */
export const HEALTH_PROBE_SQL = 'select 1';

/** The kind of one statement by its leading keyword, as knex writes transaction control (`BEGIN;`, `RELEASE SAVEPOINT trx2;`). */
export function statementKind(sql: string): StatementKind {
  if (sql === HEALTH_PROBE_SQL) return 'health';
  switch (/^\s*([A-Za-z]+)/.exec(sql)?.[1]?.toUpperCase()) {
    case 'BEGIN':
      return 'begin';
    case 'COMMIT':
      return 'commit';
    case 'ROLLBACK':
      return 'rollback';
    case 'SAVEPOINT':
    case 'RELEASE':
      return 'savepoint';
    default:
      return 'query';
  }
}

/** The part of knex's tarn pool the gauges read. */
interface PoolView {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
  max: number;
}

/**
 * Node's default metrics into `registry`. The event loop's lag is sampled every 100 ms instead of prom-client's 10:
 * its timer would wake every process, idle or not, a hundred times a second, which with a dozen or more processes on a
 * few cores (replicas) costs every busy one its share of the CPU and its caches.
 */
export function collectNodeMetrics(registry: Registry): void {
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 100 });
}

/**
 * The Prometheus metrics of one process: Node's default metrics (event loop lag, heap, GC, CPU) and the `wms_*`
 * families kit's pieces record into: gRPC server calls (`bindHandlers`), the knex pool and the statements it ran
 * (`watchPool`), queue depth and job outcomes (`createWorker`). A family is registered on first use, so a worker
 * shows no gRPC call families. Labels are bounded: service, method, code, queue, state, outcome, kind; never an id
 * nor SQL text.
 */
export class ProcessMetrics {
  readonly registry = new Registry();
  private grpcHandled?: Counter<'service' | 'method' | 'code'>;
  private grpcLatency?: Histogram<'service' | 'method' | 'code'>;
  private jobOutcomes?: Counter<'queue' | 'job' | 'outcome'>;
  private queueDepth?: Gauge<'queue' | 'state'>;
  private readonly queues = new Map<string, () => Promise<Partial<Record<string, number>>>>();
  private poolWatched = false;

  constructor(private readonly log?: Logger) {
    collectNodeMetrics(this.registry);
  }

  /** Records one finished gRPC server call; `code` is the status name (`OK`, `NOT_FOUND`). */
  observeGrpcCall(service: string, method: string, code: string, seconds: number): void {
    this.grpcHandled ??= new Counter({
      name: 'wms_grpc_server_handled_total',
      help: 'gRPC server calls completed, by service, method and status code',
      labelNames: ['service', 'method', 'code'] as const,
      registers: [this.registry],
    });
    this.grpcLatency ??= new Histogram({
      name: 'wms_grpc_server_handling_seconds',
      help: 'Time from a gRPC call reaching its handler to its answer, by service, method and status code',
      labelNames: ['service', 'method', 'code'] as const,
      buckets: LATENCY_BUCKETS,
      registers: [this.registry],
    });
    const labels = { service, method, code };
    this.grpcHandled.inc(labels);
    this.grpcLatency.observe(labels, seconds);
  }

  /**
   * Gauges of a knex pool (connections in use, idle, waited for, and the maximum), read on each scrape, and a
   * counter of the statements it sent by kind: knex emits `query` for each one it sends, BEGIN, COMMIT, ROLLBACK
   * and savepoints included, and each is one round trip.
   */
  watchPool(knex: Knex): void {
    if (this.poolWatched) throw new Error('a process watches one database pool');
    this.poolWatched = true;
    const statements = new Counter({
      name: 'wms_db_statements_total',
      help: 'Statements the database pool sent (each one round trip), by kind: begin, commit, rollback, savepoint, health (the dependency probe), query (the rest)',
      labelNames: ['kind'] as const,
      registers: [this.registry],
    });
    // Every kind shows from the start (at 0), so a rate or a difference needs no special case for a first statement.
    for (const kind of STATEMENT_KINDS) statements.inc({ kind }, 0);
    knex.on('query', (query: { sql: string }) => statements.inc({ kind: statementKind(query.sql) }));
    const poolOf = () => (knex.client as { pool?: PoolView }).pool;
    const gauge = (name: string, help: string, pick: (pool: PoolView) => number) =>
      new Gauge({
        name,
        help,
        registers: [this.registry],
        collect() {
          const pool = poolOf();
          // A destroyed pool (shutdown) reads as empty.
          this.set(pool ? pick(pool) : 0);
        },
      });
    gauge('wms_db_pool_connections_in_use', 'Database connections lent out by the pool', (p) => p.numUsed());
    gauge('wms_db_pool_connections_idle', 'Open database connections idle in the pool', (p) => p.numFree());
    gauge('wms_db_pool_pending_acquires', 'Queries waiting for a database connection', (p) => p.numPendingAcquires());
    gauge('wms_db_pool_connections_max', 'The pool size limit', (p) => p.max);
  }

  /**
   * Reports a queue's job counts by state on each scrape, each bounded by `QUEUE_COUNT_TIMEOUT_MS` (a queue whose
   * counts fail or come late has no samples in that scrape). Returns the function that stops reporting it.
   */
  watchQueue(queue: string, counts: () => Promise<Partial<Record<string, number>>>): () => void {
    const { queues, log } = this;
    this.queueDepth ??= new Gauge({
      name: 'wms_queue_jobs',
      help: 'Jobs in a BullMQ queue by state (waiting, active, delayed, failed), read from Redis on each scrape',
      labelNames: ['queue', 'state'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        await Promise.all(
          [...queues].map(async ([name, read]) => {
            try {
              const found = await withTimeout(read(), QUEUE_COUNT_TIMEOUT_MS);
              for (const state of QUEUE_STATES) this.set({ queue: name, state }, found[state] ?? 0);
            } catch (err) {
              log?.debug(
                { queue: name, err: err instanceof Error ? err.message : String(err) },
                'queue counts unavailable for metrics',
              );
            }
          }),
        );
      },
    });
    this.queues.set(queue, counts);
    return () => {
      if (this.queues.get(queue) === counts) this.queues.delete(queue);
    };
  }

  /** Counts one attempt of a job by its queue, its name (the code's, so a handful a queue) and its outcome. */
  countJob(queue: string, job: string, outcome: JobOutcome): void {
    this.jobOutcomes ??= new Counter({
      name: 'wms_queue_job_outcomes_total',
      help: 'Job attempts finished by a worker, by queue, job name and outcome (completed; failed for good; retried: failed with attempts left)',
      labelNames: ['queue', 'job', 'outcome'] as const,
      registers: [this.registry],
    });
    this.jobOutcomes.inc({ queue, job, outcome });
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/**
 * Serves `GET /metrics` (Prometheus text format) on `host:port`, a process's `METRICS_PORT`; port 0 picks a free
 * port. Any other path is 404.
 */
export async function startMetricsServer({
  metrics,
  port,
  host,
  log,
}: {
  metrics: ProcessMetrics;
  port: number;
  host: string;
  log: Logger;
}): Promise<MetricsServer> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    metrics.registry.metrics().then(
      (body) =>
        res
          .writeHead(200, { 'content-type': metrics.registry.contentType })
          .end(req.method === 'HEAD' ? undefined : body),
      (err: unknown) => {
        log.error({ err }, 'metrics collection failed');
        res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics collection failed\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (err) => log.error({ err }, 'metrics server error'));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * The metrics of a server or worker role, the same in every process: a `ProcessMetrics` watching the process's
 * knex pool, served on its `METRICS_PORT` at `GRPC_HOST`. Pass `metrics` on to `bindHandlers` and `createWorker`.
 */
export async function startProcessMetrics(options: {
  port: number;
  host: string;
  log: Logger;
  db?: Knex;
}): Promise<{ metrics: ProcessMetrics; server: MetricsServer }> {
  const metrics = new ProcessMetrics(options.log);
  if (options.db) metrics.watchPool(options.db);
  const server = await startMetricsServer({ metrics, port: options.port, host: options.host, log: options.log });
  return { metrics, server };
}
