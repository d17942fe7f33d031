import {
  type JobsOptions,
  type Processor,
  Queue,
  QueueEvents,
  UnrecoverableError,
  Worker,
  type WorkerOptions,
} from 'bullmq';
import type { RedisOptions } from 'ioredis';
import type { Logger } from 'pino';
import { type ProcessMetrics, QUEUE_STATES } from './metrics.ts';
import { connectRedis, isCluster, logConnectionErrors, type Redis, type RedisTarget } from './redis.ts';

export { UnrecoverableError } from 'bullmq';
export type { Job, JobsOptions, Processor, Queue, QueueEvents, Worker } from 'bullmq';

/** Where a queue object gets Redis: a target (BullMQ then owns and closes its connection) or a client we close. */
export type QueueRedis = { redis: RedisTarget; connection?: never } | { connection: Redis; redis?: never };

/** Options every queue object takes: its Redis and the deployment's `REDIS_PREFIX`. */
export type QueueBaseOptions = QueueRedis & {
  /** The deployment's `REDIS_PREFIX`; BullMQ keys then live under `<prefix>:bull:<queue>:*`. */
  prefix: string;
  /** Where connection errors are logged; without it they are swallowed rather than crashing the process. */
  log?: Logger;
};

/** Defaults for every job: a few attempts with exponential backoff, completed jobs removed, failed jobs kept. */
export const DEFAULT_JOB_OPTIONS = Object.freeze({
  attempts: 3,
  backoff: { type: 'exponential', delay: 1000 },
  // A few completed jobs stay so `waitUntilFinished` still finds a job that finished before it looked.
  removeOnComplete: 100,
  removeOnFail: 1000,
} satisfies JobsOptions);

/**
 * The BullMQ `prefix` option for a deployment's `REDIS_PREFIX`. On a Redis Cluster its last part is a hash tag, as
 * BullMQ requires (its scripts touch many keys of a queue), which puts every queue in one slot; on one Redis the keys
 * keep the names they always had, so an upgrade finds the jobs queued before it.
 */
export const bullPrefix = (redisPrefix: string, cluster = false): string =>
  cluster ? `${redisPrefix}:{bull}` : `${redisPrefix}:bull`;

/**
 * ioredis options for BullMQ: workers (and queue events) block, so they need `maxRetriesPerRequest: null`;
 * producers run on the request path and fail fast instead of queueing commands while Redis is down.
 */
export function queueConnectionOptions(role: 'worker' | 'producer'): RedisOptions {
  if (role === 'worker') return { maxRetriesPerRequest: null, connectionName: 'wms-bull-worker' };
  return {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    commandTimeout: 5000,
    connectionName: 'wms-bull-producer',
    retryStrategy: (times) => Math.min(times * 200, 2000),
  };
}

function connect(target: RedisTarget, role: 'worker' | 'producer', log: Logger | undefined): Redis {
  const redis = connectRedis(target, queueConnectionOptions(role));
  logConnectionErrors(redis, log, { role }, 'queue redis connection error');
  return redis;
}

/** A Redis client for BullMQ workers and queue events (`maxRetriesPerRequest: null`); an idle error never crashes. */
export const workerConnection = (target: RedisTarget, log?: Logger): Redis => connect(target, 'worker', log);

/** A Redis client for producers (no offline queue, fails fast); an idle error never crashes. */
export const producerConnection = (target: RedisTarget, log?: Logger): Redis => connect(target, 'producer', log);

/** A queue object's connection and prefix: the client given, or one of its own that BullMQ closes with it. */
function connectionFor(opts: QueueBaseOptions, role: 'worker' | 'producer') {
  const connection = opts.connection ?? connectRedis(opts.redis, queueConnectionOptions(role));
  return { connection, prefix: bullPrefix(opts.prefix, isCluster(connection)) };
}

/** Codes and messages of a Redis connection that is down or dropped (BullMQ retries those by itself). */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const isConnectionError = (err: Error) =>
  CONNECTION_CODES.has((err as { code?: string }).code ?? '') ||
  /Connection is closed|ECONNREFUSED|Stream isn't writeable/.test(err.message);

/**
 * Logs a queue object's errors. Connection errors, which BullMQ's own connections repeat on every reconnect attempt
 * while Redis is down, are logged at warn at most once a minute (debug otherwise); every other error at error.
 */
const logErrors = (queue: string, what: string, log: Logger | undefined) => {
  let lastConnectionWarning = 0;
  return (err: Error) => {
    if (!log) return;
    if (!isConnectionError(err)) return void log.error({ err, queue }, `${what} error`);
    const now = Date.now();
    if (now - lastConnectionWarning < 60_000)
      return void log.debug({ err: err.message, queue }, `${what} connection error`);
    lastConnectionWarning = now;
    log.warn({ err: err.message, queue }, `${what} connection error`);
  };
};

/** A producer's queue with the default job options; `connection`, when given, should be a `producerConnection`. */
export function createQueue<T, R = unknown>(
  name: string,
  opts: QueueBaseOptions & { defaultJobOptions?: JobsOptions },
): Queue<T, R, string> {
  const queue = new Queue<T, R, string>(name, {
    ...connectionFor(opts, 'producer'),
    defaultJobOptions: { ...DEFAULT_JOB_OPTIONS, ...opts.defaultJobOptions },
  });
  queue.on('error', logErrors(name, 'queue', opts.log));
  return queue;
}

/**
 * A worker that logs every failure and error with the queue name and job id, never the payload; with `metrics`, it
 * counts job outcomes and reports the queue's depth by state on each scrape (until it closes).
 * `connection`, when given, must be a `workerConnection` (BullMQ refuses one that retries per request).
 */
export function createWorker<T, R>(
  name: string,
  processor: Processor<T, R, string>,
  opts: QueueBaseOptions & {
    log: Logger;
    concurrency?: number;
    metrics?: ProcessMetrics;
    worker?: Omit<WorkerOptions, 'connection' | 'prefix' | 'concurrency'>;
  },
): Worker<T, R, string> {
  const { log } = opts;
  const worker = new Worker<T, R, string>(name, processor, {
    // After a lost Redis connection, fetch again within a second of its return, not BullMQ's default 15 s.
    runRetryDelay: 1000,
    ...opts.worker,
    ...connectionFor(opts, 'worker'),
    concurrency: opts.concurrency ?? 1,
  });
  worker.on('failed', (job, err) => {
    const attempts = job?.opts.attempts ?? 1;
    const final = !job || err instanceof UnrecoverableError || job.attemptsMade >= attempts;
    const fields = {
      queue: name,
      job_id: job?.id,
      job_name: job?.name,
      attempts_made: job?.attemptsMade,
      attempts,
      err,
    };
    if (final) log.error(fields, 'job failed');
    else log.warn(fields, 'job failed; will retry');
    opts.metrics?.countJob(name, job?.name ?? '', final ? 'failed' : 'retried');
  });
  worker.on('error', logErrors(name, 'worker', log));
  if (opts.metrics) {
    const metrics = opts.metrics;
    worker.on('completed', (job) => metrics.countJob(name, job.name, 'completed'));
    // Counting only reads; it shares the worker's connection when it was given one.
    const counter = new Queue(name, connectionFor(opts, 'worker'));
    counter.on('error', logErrors(name, 'queue counter', log));
    const unwatch = metrics.watchQueue(name, async () => {
      const counts = await counter.getJobCounts(...QUEUE_STATES, 'prioritized');
      // Jobs of a paused queue and jobs with a priority wait too (BullMQ keeps them in lists of their own).
      return { ...counts, waiting: (counts.waiting ?? 0) + (counts.paused ?? 0) + (counts.prioritized ?? 0) };
    });
    worker.once('closed', () => {
      unwatch();
      void counter.close().catch(() => {});
    });
  }
  return worker;
}

/**
 * Completion events of a queue, for producers that wait on a job: `await job.waitUntilFinished(events, ttlMs)`.
 * Await `events.waitUntilReady()` once at boot. `connection`, when given, must be a `workerConnection` (it blocks).
 * They are those after its first read of the queue's event stream, which can come after a job added at once has
 * finished (seen on a Redis Cluster); `fromStart` reads the stream from its start instead, for a queue of one's own.
 */
export function createQueueEvents(name: string, opts: QueueBaseOptions & { fromStart?: boolean }): QueueEvents {
  const events = new QueueEvents(name, {
    ...connectionFor(opts, 'worker'),
    ...(opts.fromStart ? { lastEventId: '0' } : {}),
  });
  events.on('error', logErrors(name, 'queue events', opts.log));
  return events;
}

/**
 * A queue whose one job runs every `everyMs` (a BullMQ job scheduler, one across all replicas), with its worker: the
 * shape of a periodic sweep. `close` stops the worker, then the queue and both connections.
 */
export async function startScheduledWorker<R>(
  name: string,
  opts: {
    job: string;
    everyMs: number;
    processor: Processor<unknown, R, string>;
    redis: RedisTarget;
    prefix: string;
    log: Logger;
    metrics?: ProcessMetrics;
  },
): Promise<{ close(): Promise<void>; connection: Redis }> {
  const base = { prefix: opts.prefix, log: opts.log };
  const producer = producerConnection(opts.redis, opts.log);
  const consumer = workerConnection(opts.redis, opts.log);
  const queue = createQueue(name, { ...base, connection: producer });
  await queue.upsertJobScheduler(opts.job, { every: opts.everyMs }, { name: opts.job });
  const worker = createWorker(name, opts.processor, { ...base, connection: consumer, metrics: opts.metrics });
  return {
    /** The worker's own connection (`maxRetriesPerRequest: null`), e.g. for a health check. */
    connection: consumer,
    async close() {
      await worker.close();
      await queue.close();
      await Promise.all([producer.quit(), consumer.quit()]);
    },
  };
}
