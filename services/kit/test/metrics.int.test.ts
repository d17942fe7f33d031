import net from 'node:net';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { createDb } from '../src/db.ts';
import { notFound } from '../src/errors.ts';
import { createAsyncClient } from '../src/grpc-client.ts';
import { bindHandlers, startGrpcServer } from '../src/grpc-server.ts';
import { type MetricsServer, ProcessMetrics, startMetricsServer, startProcessMetrics } from '../src/metrics.ts';
import { createQueue, createWorker, UnrecoverableError } from '../src/queues.ts';
import { dropRedisPrefix, testAdminUrl, testRedisPrefix, testRedis, waitFor } from '@wms/testkit';
import { loadService } from '@wms/protos';

// kit's metrics against real parts: a gRPC server and client, a knex pool on the test Postgres, BullMQ on the test
// Redis (a prefix of its own), each scraped over HTTP as Prometheus would.
const log = pino({ level: 'silent' });
const prefix = testRedisPrefix();
const closers: Array<() => Promise<unknown>> = [];

afterAll(async () => {
  for (const close of closers.reverse()) await close();
  await dropRedisPrefix(testRedis, prefix);
});

async function serve(metrics: ProcessMetrics): Promise<MetricsServer> {
  const server = await startMetricsServer({ metrics, port: 0, host: '127.0.0.1', log });
  closers.push(() => server.close());
  return server;
}

async function scrape(server: MetricsServer): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${server.port}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/plain');
  return res.text();
}

/** The value of the one sample of `name` whose labels include `labels`; undefined when there is none. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = line.match(/^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(match[3]);
  }
  return undefined;
}

describe(ProcessMetrics.name, () => {
  it('serves default metrics with event loop lag at GET /metrics, and 404 elsewhere', async () => {
    const server = await serve(new ProcessMetrics(log));
    const text = await scrape(server);
    expect(sample(text, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    // Families register on first use: a process without gRPC handlers shows none.
    expect(text).not.toContain('wms_grpc_server');
    expect((await fetch(`http://127.0.0.1:${server.port}/other`)).status).toBe(404);
  });

  it('counts and times real gRPC calls by method and status code', async () => {
    const metrics = new ProcessMetrics(log);
    // A call is timed by performance.now(); here only the handlers move it, so each call's time is known exactly.
    let now = 0;
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => now);
    onTestFinished(() => clock.mockRestore());
    const IdentityService = loadService('identity');
    const handlers = {
      GetMe: async () => {
        now += 250;
        return { id: 'u', email: 'a@b.io', name: 'A', created_at: '', updated_at: '' };
      },
      Login: async () => {
        throw notFound('No such thing.');
      },
      Logout: async () => {
        throw new Error('boom');
      },
      Register: () => {
        now += 1500;
        return new Promise<never>(() => {});
      },
    };
    const grpc = await startGrpcServer({
      port: 0,
      host: '127.0.0.1',
      services: [
        {
          definition: IdentityService.service,
          implementation: bindHandlers(IdentityService.service, handlers as never, log, metrics),
        },
      ],
    });
    closers.push(() => grpc.stop(100));
    const client = createAsyncClient(IdentityService, `127.0.0.1:${grpc.port}`);
    closers.push(async () => client.close());
    await client.GetMe({}, { requestId: 'r' });
    await client.GetMe({}, { requestId: 'r' });
    await client.Login({ email: 'a@b.io', password: 'x' }, { requestId: 'r' }).catch(() => {});
    await client.Logout({}, { requestId: 'r' }).catch(() => {});
    // A handler that never answers is counted when its deadline ends the call, not never. Only this call has a short
    // deadline: on a loaded machine an answered call can take longer than 300 ms.
    const impatient = createAsyncClient(IdentityService, `127.0.0.1:${grpc.port}`, { deadlineMs: 300 });
    closers.push(async () => impatient.close());
    await impatient.Register({ email: 'a@b.io', password: 'x', name: 'x' }, { requestId: 'r' }).catch(() => {});

    const server = await serve(metrics);
    const service = 'wms.identity.v1.IdentityService';
    const text = await waitFor('the cancelled call counted', async () => {
      const t = await scrape(server);
      return sample(t, 'wms_grpc_server_handled_total', { method: 'Register' }) !== undefined && t;
    });
    expect(sample(text, 'wms_grpc_server_handled_total', { service, method: 'GetMe', code: 'OK' })).toBe(2);
    expect(sample(text, 'wms_grpc_server_handled_total', { service, method: 'Login', code: 'NOT_FOUND' })).toBe(1);
    expect(sample(text, 'wms_grpc_server_handled_total', { service, method: 'Logout', code: 'INTERNAL' })).toBe(1);
    expect(sample(text, 'wms_grpc_server_handled_total', { service, method: 'Register', code: 'CANCELLED' })).toBe(1);
    expect(sample(text, 'wms_grpc_server_handling_seconds_count', { method: 'GetMe', code: 'OK' })).toBe(2);
    expect(sample(text, 'wms_grpc_server_handling_seconds_bucket', { method: 'GetMe', code: 'OK', le: '+Inf' })).toBe(
      2,
    );
    expect(sample(text, 'wms_grpc_server_handling_seconds_sum', { method: 'GetMe', code: 'OK' })).toBe(0.5);
    // Timed from before its handler ran until the deadline ended it.
    expect(sample(text, 'wms_grpc_server_handling_seconds_sum', { method: 'Register', code: 'CANCELLED' })).toBe(1.5);
    // Health checks are not RPCs of the service and are not counted.
    expect(text).not.toMatch(/method="Check"/);
  });

  it('reports the knex pool: connections in use, idle, waited for and the limit', async () => {
    const db = createDb({ url: testAdminUrl, schema: 'public', log, poolMax: 1 });
    closers.push(() => db.destroy());
    const { metrics, server } = await startProcessMetrics({ port: 0, host: '127.0.0.1', log, db });
    closers.push(() => server.close());
    expect(metrics).toBeInstanceOf(ProcessMetrics);

    let text = await scrape(server);
    expect(sample(text, 'wms_db_pool_connections_in_use')).toBe(0);
    expect(sample(text, 'wms_db_pool_connections_max')).toBe(1);

    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const trx = db.transaction(async (t) => {
      await t.raw('select 1');
      await held;
    });
    await waitFor(
      'the connection lent out',
      async () => sample(await scrape(server), 'wms_db_pool_connections_in_use') === 1,
    );
    // A knex query runs once it is awaited (then).
    const waiting = db.raw('select 1').then(() => undefined);
    text = await waitFor('a query waiting for the connection', async () => {
      const t = await scrape(server);
      return sample(t, 'wms_db_pool_pending_acquires') === 1 && t;
    });
    expect(sample(text, 'wms_db_pool_connections_idle')).toBe(0);
    release();
    await Promise.all([trx, waiting]);
    text = await scrape(server);
    expect(sample(text, 'wms_db_pool_connections_in_use')).toBe(0);
    expect(sample(text, 'wms_db_pool_pending_acquires')).toBe(0);
    expect(sample(text, 'wms_db_pool_connections_idle')).toBe(1);
  });

  it("counts a real worker's job outcomes and reports its queue's depth by state", async () => {
    const metrics = new ProcessMetrics(log);
    const server = await serve(metrics);
    const name = 'metrics-q';
    const queue = createQueue<{ kind: string }>(name, {
      redis: testRedis,
      prefix,
      log,
      defaultJobOptions: { attempts: 2, backoff: { type: 'fixed', delay: 20 } },
    });
    let flaky = 0;
    const worker = createWorker<{ kind: string }, string>(
      name,
      async (job) => {
        if (job.data.kind === 'fatal') throw new UnrecoverableError('never');
        if (job.data.kind === 'flaky' && flaky++ === 0) throw new Error('once');
        return 'ok';
      },
      { redis: testRedis, prefix, log, metrics },
    );
    closers.push(() => queue.close());
    closers.push(() => worker.close());
    await worker.waitUntilReady();

    await queue.add('a', { kind: 'ok' });
    await queue.add('b', { kind: 'fatal' });
    await queue.add('c', { kind: 'flaky' });
    await queue.add('later', { kind: 'ok' }, { delay: 60_000 });
    const text = await waitFor('the outcomes counted', async () => {
      const t = await scrape(server);
      return sample(t, 'wms_queue_job_outcomes_total', { queue: name, job: 'c', outcome: 'completed' }) === 1 && t;
    });
    // By job name: the flaky one retried, then completed.
    expect(sample(text, 'wms_queue_job_outcomes_total', { queue: name, job: 'a', outcome: 'completed' })).toBe(1);
    expect(sample(text, 'wms_queue_job_outcomes_total', { queue: name, job: 'b', outcome: 'failed' })).toBe(1);
    expect(sample(text, 'wms_queue_job_outcomes_total', { queue: name, job: 'c', outcome: 'retried' })).toBe(1);
    expect(
      sample(text, 'wms_queue_job_outcomes_total', { queue: name, job: 'b', outcome: 'completed' }),
    ).toBeUndefined();
    expect(sample(text, 'wms_queue_jobs', { queue: name, state: 'delayed' })).toBe(1);
    expect(sample(text, 'wms_queue_jobs', { queue: name, state: 'failed' })).toBe(1);
    expect(sample(text, 'wms_queue_jobs', { queue: name, state: 'active' })).toBe(0);
    expect(sample(text, 'wms_queue_jobs', { queue: name, state: 'waiting' })).toBe(0);

    await worker.pause();
    await queue.add('d', { kind: 'ok' });
    await queue.add('e', { kind: 'ok' }, { priority: 5 });
    expect(sample(await scrape(server), 'wms_queue_jobs', { queue: name, state: 'waiting' })).toBe(2);

    // A closed worker's queue is no longer reported.
    await worker.close();
    await waitFor(
      'the queue unwatched',
      async () => sample(await scrape(server), 'wms_queue_jobs', { queue: name }) === undefined,
    );
  });

  it("answers a scrape while Redis does not answer a queue's counts, without that queue", async () => {
    // A TCP server that accepts and never replies: Redis hung, not refused.
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    closers.push(async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => silent.close(resolve));
    });
    const port = (silent.address() as net.AddressInfo).port;
    const connection = new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: null });
    connection.on('error', () => {});
    const hung = new Queue('hung', { connection, prefix });
    hung.on('error', () => {});
    closers.push(async () => connection.disconnect());

    const metrics = new ProcessMetrics(log);
    let asked = 0;
    metrics.watchQueue('hung', () => {
      asked += 1;
      return hung.getJobCounts('waiting');
    });
    metrics.watchQueue('fine', async () => ({ waiting: 3 }));
    const server = await serve(metrics);
    // The counts never come: that the scrape is answered at all shows it gave up on them.
    const text = await scrape(server);
    expect(asked).toBe(1);
    expect(sample(text, 'wms_queue_jobs', { queue: 'hung' })).toBeUndefined();
    expect(sample(text, 'wms_queue_jobs', { queue: 'fine', state: 'waiting' })).toBe(3);
    expect(sample(text, 'nodejs_eventloop_lag_seconds')).toBeDefined();
  });
});
