import type { Cluster } from 'ioredis';
import { connectRedis, isCluster, redisAt, redisReady } from '../src/redis.ts';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createQueue,
  createQueueEvents,
  bullPrefix,
  createWorker,
  DEFAULT_JOB_OPTIONS,
  type Processor,
  type Queue,
  type QueueEvents,
  producerConnection,
  startScheduledWorker,
  UnrecoverableError,
  type Worker,
  workerConnection,
} from '../src/queues.ts';
import { dropRedisPrefix, testRedisPrefix, testRedis } from '@wms/testkit';

interface Payload {
  id: string;
  secret?: string;
}

const prefix = testRedisPrefix();
const lines: Record<string, unknown>[] = [];
const log = pino(
  { level: 'debug' },
  { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
);
const closers: Array<() => Promise<unknown>> = [];
let seq = 0;

/** A queue of its own per test, with a worker running `processor` and the producer's events, all closed afterwards. */
async function harness<R>(processor: Processor<Payload, R, string>, fastRetries = false) {
  const name = `q${++seq}`;
  const queue: Queue<Payload, R, string> = createQueue<Payload, R>(name, {
    redis: testRedis,
    prefix,
    log,
    ...(fastRetries ? { defaultJobOptions: { backoff: { type: 'fixed', delay: 20 } } } : {}),
  });
  // From the stream's start: the queue is the test's own, and a job may finish before the first read of the stream.
  const events: QueueEvents = createQueueEvents(name, { redis: testRedis, prefix, log, fromStart: true });
  const worker: Worker<Payload, R, string> = createWorker<Payload, R>(name, processor, {
    redis: testRedis,
    prefix,
    log,
    concurrency: 2,
  });
  closers.push(
    () => worker.close(),
    () => events.close(),
    () => queue.close(),
  );
  await Promise.all([queue.waitUntilReady(), events.waitUntilReady(), worker.waitUntilReady()]);
  return { name, queue, events, worker };
}

beforeAll(() => {
  lines.length = 0;
});

afterAll(async () => {
  for (const close of closers.reverse()) await close();
  await dropRedisPrefix(testRedis, prefix);
});

describe('queues', () => {
  it('runs a job on the worker and hands its result to the waiting producer', async () => {
    const { queue, events } = await harness(async (job) => ({ echoed: job.data.id, attempt: job.attemptsMade }));
    const job = await queue.add('echo', { id: 'a1' });
    await expect(job.waitUntilFinished(events, 10_000)).resolves.toEqual({ echoed: 'a1', attempt: 0 });
  });

  it('gives every job the default options', async () => {
    const { queue } = await harness(async () => 'ok');
    const job = await queue.add('defaults', { id: 'd1' });
    expect(job.opts).toMatchObject({
      attempts: 3,
      backoff: { type: 'exponential', delay: 1000 },
      removeOnComplete: DEFAULT_JOB_OPTIONS.removeOnComplete,
      removeOnFail: 1000,
    });
  });

  it('keeps BullMQ keys under <REDIS_PREFIX>:bull (on a Redis Cluster, <REDIS_PREFIX>:{bull}: one slot)', async () => {
    const { name, queue } = await harness(async () => 'ok');
    await queue.add('k', { id: 'k1' });
    const redis = connectRedis(testRedis, {});
    try {
      await redisReady(redis);
      const nodes = isCluster(redis) ? (redis as unknown as Cluster).nodes('master') : [redis];
      const keys = async (pattern: string) => (await Promise.all(nodes.map((n) => n.keys(pattern)))).flat();
      const bull = bullPrefix(prefix, isCluster(redis));
      expect(bull).toBe(isCluster(redis) ? `${prefix}:{bull}` : `${prefix}:bull`);
      expect((await keys(`${bull}:${name}:*`)).length).toBeGreaterThan(0);
      expect(await keys(`bull:${name}:*`)).toEqual([]);
    } finally {
      redis.disconnect();
    }
  });

  it('fails a job that throws UnrecoverableError at once, without retries', async () => {
    let calls = 0;
    const { name, queue } = await harness(async () => {
      calls += 1;
      throw new UnrecoverableError('cannot ever work');
    });
    const job = await queue.add('doomed', { id: 'u1', secret: 'do-not-log-me' });
    // Its state, not a QueueEvents made just now: on a Redis Cluster its first read of the stream can come after a job
    // that fails at once has failed.
    await expect.poll(async () => (await queue.getJob(job.id!))?.getState(), { timeout: 10_000 }).toBe('failed');
    const failed = await queue.getJob(job.id!);
    expect(failed?.failedReason).toBe('cannot ever work');
    expect(failed?.attemptsMade).toBe(1);
    expect(await failed?.getState()).toBe('failed');
    expect(calls).toBe(1);

    await expect
      .poll(() => lines.find((l) => l.queue === name && l.msg === 'job failed'), { timeout: 10_000 })
      .toBeTruthy();
    const line = lines.find((l) => l.queue === name && l.msg === 'job failed')!;
    expect(line).toMatchObject({ job_id: job.id, level: 50 });
    expect(JSON.stringify(lines)).not.toContain('do-not-log-me');
  });

  it('retries an ordinary error up to the number of attempts', async () => {
    let calls = 0;
    const { name, queue, events } = await harness(async (job) => {
      calls += 1;
      throw new Error(`flaky ${job.attemptsMade}`);
    }, true);
    const job = await queue.add('flaky', { id: 'r1' });
    await expect(job.waitUntilFinished(events, 10_000)).rejects.toThrow('flaky 2');
    const failed = await queue.getJob(job.id!);
    expect(failed?.attemptsMade).toBe(3);
    expect(calls).toBe(3);
    await expect
      .poll(() => lines.filter((l) => l.queue === name).map((l) => l.msg), { timeout: 10_000 })
      .toEqual(['job failed; will retry', 'job failed; will retry', 'job failed']);
  });

  it('succeeds on a retry after an ordinary error', async () => {
    const { queue, events } = await harness(async (job) => {
      if (job.attemptsMade < 1) throw new Error('first try fails');
      return job.attemptsMade;
    }, true);
    const job = await queue.add('second-time', { id: 's1' });
    await expect(job.waitUntilFinished(events, 10_000)).resolves.toBe(1);
  });

  it('works with shared producer and worker connections, which the caller closes', async () => {
    const producer = producerConnection(testRedis, log);
    const consumer = workerConnection(testRedis, log);
    const name = `q${++seq}`;
    const queue = createQueue<Payload, string>(name, { connection: producer, prefix, log });
    const worker = createWorker<Payload, string>(name, async (job) => `done ${job.data.id}`, {
      connection: consumer,
      prefix,
      log,
    });
    try {
      const job = await queue.add('shared', { id: 'c1' });
      // Polled rather than awaited through QueueEvents: a QueueEvents created just before the job may start reading its
      // stream after the job already finished (BullMQ reads from "now"), which made this test flaky under load.
      await expect.poll(async () => (await queue.getJob(job.id!))?.returnvalue, { timeout: 10_000 }).toBe('done c1');
    } finally {
      await worker.close();
      await queue.close();
      await Promise.all([producer.quit(), consumer.quit()]);
    }
  });

  it('refuses a producer command at once when Redis is unreachable, instead of holding it until Redis returns', async () => {
    const producer = producerConnection(redisAt('redis://127.0.0.1:1'), log);
    try {
      // No offline queue: the command is refused while the client is still connecting, not queued for a reconnect.
      await expect(producer.ping()).rejects.toThrow("Stream isn't writeable and enableOfflineQueue options is false");
      // The refused connection is an error event that is logged, not one that reaches the process unhandled.
      await expect
        .poll(() => lines.find((l) => l.msg === 'queue redis connection error' && l.role === 'producer'), {
          timeout: 10_000,
        })
        .toMatchObject({ err: expect.stringContaining('ECONNREFUSED') });
    } finally {
      producer.disconnect();
    }
  });

  it('runs a scheduled job repeatedly, with one scheduler however many replicas start, until closed', async () => {
    const name = `q${++seq}`;
    let runs = 0;
    const start = () =>
      startScheduledWorker(name, {
        job: 'sweep',
        everyMs: 100,
        processor: async () => ++runs,
        redis: testRedis,
        prefix,
        log,
      });
    const replicas = await Promise.all([start(), start()]);
    const queue = createQueue(name, { redis: testRedis, prefix, log });
    closers.push(() => queue.close());
    await expect.poll(() => runs, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    expect(await queue.getJobSchedulers()).toEqual([expect.objectContaining({ key: 'sweep', every: 100 })]);
    await Promise.all(replicas.map((r) => r.close()));
    const stopped = runs;
    // The scheduler outlives its replicas: a worker started now takes the next runs, which a replica still working would share.
    let later = 0;
    const next = createWorker(name, async () => ++later, { redis: testRedis, prefix, log });
    closers.push(() => next.close());
    await expect.poll(() => later, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    expect(runs).toBe(stopped);
  });
});
