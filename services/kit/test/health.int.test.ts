import * as grpc from '@grpc/grpc-js';
import { loadHealthProto, loadService } from '@wms/protos';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Knex } from '../src/db.ts';
import { createHealthClient } from '../src/grpc-client.ts';
import { type RunningGrpcServer, startGrpcServer, startHealthServer } from '../src/grpc-server.ts';
import { HealthService, postgresCheck, redisCheck } from '../src/health.ts';
import { createQueue, createWorker, producerConnection, workerConnection } from '../src/queues.ts';
import { createRedis, type Redis, redisAt, redisReady } from '../src/redis.ts';
import { startTestPostgres, startTestRedis, type TestDependency, waitFor } from '@wms/testkit';

// The dependency monitor against a Postgres and a Redis of this file's own, stopped, killed and started again; the
// status is read as a client would, through a real grpc.health.v1 Check.
type Line = { level: number; msg: string; dependency?: string; reason?: string; health?: string };
const lines: Line[] = [];
const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Line) });
const transitions = () => lines.filter((l) => l.dependency !== undefined);

let pg: TestDependency;
let redis: TestDependency;
const closers: Array<() => Promise<unknown> | void> = [];

beforeAll(async () => {
  [pg, redis] = await Promise.all([startTestPostgres(), startTestRedis()]);
});

afterAll(async () => {
  for (const close of closers.reverse()) await close();
  await Promise.all([pg?.destroy(), redis?.destroy()]);
});

const statusOf = async (server: RunningGrpcServer) => {
  const client = createHealthClient(`127.0.0.1:${server.port}`);
  try {
    return await client.status(2000);
  } finally {
    client.close();
  }
};
const becomes = (server: RunningGrpcServer, status: string, what: string) =>
  waitFor(`health ${status} ${what}`, async () => (await statusOf(server)) === status, 20_000);

describe('dependency monitor', () => {
  let db: Knex;
  let client: Redis;
  let server: RunningGrpcServer;

  beforeAll(async () => {
    db = createDb({ url: pg.url, schema: 'public', log });
    client = createRedis(redisAt(redis.url), 'health-test', log);
    await redisReady(client);
    server = await startGrpcServer({
      port: 0,
      host: '127.0.0.1',
      services: [],
      dependencies: { checks: [postgresCheck(db), redisCheck(client)], log, intervalMs: 200 },
    });
    closers.push(
      () => server.stop(100),
      () => client.disconnect(),
      () => db.destroy(),
    );
  });

  it('is SERVING while Postgres and Redis answer', async () => {
    expect(await statusOf(server)).toBe('SERVING');
    expect(transitions()).toEqual([]);
  });

  it('is NOT_SERVING while Postgres is stopped and SERVING again when it is back, with one log line each way', async () => {
    lines.length = 0;
    await db.raw('select 1'); // an idle pooled connection that the stop will break
    await pg.stop();
    await becomes(server, 'NOT_SERVING', 'after Postgres stopped');
    expect(server.monitor?.failing().get('postgres')).toBeTruthy();
    await pg.start();
    await becomes(server, 'SERVING', 'after Postgres restarted');
    expect(transitions()).toEqual([
      expect.objectContaining({
        level: 40,
        dependency: 'postgres',
        health: 'NOT_SERVING',
        reason: expect.stringMatching(/\S/),
      }),
      expect.objectContaining({
        level: 30,
        dependency: 'postgres',
        health: 'SERVING',
        msg: 'postgres available again; health SERVING',
      }),
    ]);
  });

  it('follows a Postgres that crashes (SIGKILL) and recovers', async () => {
    lines.length = 0;
    await pg.kill();
    await becomes(server, 'NOT_SERVING', 'after Postgres was killed');
    await pg.start();
    await becomes(server, 'SERVING', 'after Postgres recovered');
    expect(transitions().map((l) => [l.dependency, l.health])).toEqual([
      ['postgres', 'NOT_SERVING'],
      ['postgres', 'SERVING'],
    ]);
  });

  it('is NOT_SERVING while Redis is down and SERVING again when it is back', async () => {
    lines.length = 0;
    await redis.stop();
    await becomes(server, 'NOT_SERVING', 'after Redis stopped');
    await redis.start();
    await becomes(server, 'SERVING', 'after Redis restarted');
    const [down, up] = transitions();
    expect(transitions()).toHaveLength(2);
    expect(down).toMatchObject({ level: 40, dependency: 'redis', health: 'NOT_SERVING' });
    expect(down?.reason).toMatch(/\S/);
    expect(up).toMatchObject({ level: 30, dependency: 'redis', health: 'SERVING' });
  });

  it('stays NOT_SERVING until every dependency is back', async () => {
    lines.length = 0;
    await Promise.all([pg.stop(), redis.kill()]);
    await becomes(server, 'NOT_SERVING', 'with both down');
    await waitFor('both failures logged', () => transitions().length === 2);
    await redis.start();
    await waitFor('redis back in the log', () =>
      transitions().some((l) => l.dependency === 'redis' && l.health === 'NOT_SERVING' && l.level === 30),
    );
    expect(await statusOf(server)).toBe('NOT_SERVING');
    await pg.start();
    await becomes(server, 'SERVING', 'with both back');
  });
});

describe('health status', () => {
  it('cannot be set back to SERVING once shutdown began', async () => {
    const health = new HealthService();
    health.set('NOT_SERVING');
    health.set('SERVING');
    expect(health.current).toBe('SERVING');
    health.shutdown();
    health.set('SERVING');
    expect(health.current).toBe('NOT_SERVING');
  });

  it('fails a dependency that hangs, with one probe in flight however long it hangs', async () => {
    let probes = 0;
    let rounds = 0;
    const hanging = { name: 'hangs', check: () => (probes++, new Promise<never>(() => {})) };
    const counter = { name: 'counter', check: async () => rounds++ };
    const server = await startGrpcServer({
      port: 0,
      host: '127.0.0.1',
      services: [],
      dependencies: { checks: [hanging, counter], log, intervalMs: 20, timeoutMs: 50 },
    });
    try {
      expect(await statusOf(server)).toBe('NOT_SERVING');
      expect(server.monitor?.failing().get('hangs')).toBe('no answer within 50 ms');
      await waitFor('five more rounds', () => rounds >= 6, 5000, 10);
      expect(probes).toBe(1);
      expect(await statusOf(server)).toBe('NOT_SERVING');
    } finally {
      await server.stop(100);
    }
    expect(server.health.current).toBe('NOT_SERVING');
  });
});

describe('a worker health server', () => {
  it('answers for a BullMQ worker, follows its Redis, and the worker runs jobs again after Redis returns', async () => {
    const prefix = 'health-worker';
    const db = createDb({ url: pg.url, schema: 'public', log });
    const consumer = workerConnection(redisAt(redis.url), log);
    const producer = producerConnection(redisAt(redis.url), log);
    const done: string[] = [];
    const worker = createWorker<{ id: string }, void>('echo', async (job) => void done.push(job.data.id), {
      prefix,
      log,
      connection: consumer,
    });
    const queue = createQueue<{ id: string }>('echo', { prefix, log, connection: producer });
    await Promise.all([worker.waitUntilReady(), queue.waitUntilReady()]);
    const server = await startHealthServer({
      port: 0,
      host: '127.0.0.1',
      dependencies: { checks: [postgresCheck(db), redisCheck(consumer)], log, intervalMs: 200 },
    });
    try {
      expect(await statusOf(server)).toBe('SERVING');
      await queue.add('one', { id: 'before' });
      await waitFor('the job before the outage', () => done.includes('before'));

      await redis.stop();
      await becomes(server, 'NOT_SERVING', 'with the worker Redis down');
      await redis.start();
      await becomes(server, 'SERVING', 'with the worker Redis back');
      await waitFor('the producer to reconnect', () => producer.status === 'ready');
      await queue.add('two', { id: 'after' });
      await waitFor('the job after the outage', () => done.includes('after'), 30_000);
    } finally {
      await server.stop(100);
      await worker.close();
      await queue.close();
      await Promise.all([consumer.quit().catch(() => {}), producer.quit().catch(() => {}), db.destroy()]);
    }
  });
});

describe('health service names', () => {
  const { Health } = loadHealthProto().grpc.health.v1;
  const IdentityService = loadService('identity');
  const check = (port: number, service: string) =>
    new Promise<string>((resolve) => {
      const client = new Health(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
      client.Check({ service }, { deadline: Date.now() + 2000 }, (err, res) => {
        client.close();
        resolve(err ? grpc.status[err.code] : String(res?.status));
      });
    });
  const firstWatched = (port: number, service: string) =>
    new Promise<string>((resolve, reject) => {
      const client = new Health(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
      const call = client.Watch({ service });
      call.once('data', (res: { status?: unknown }) => {
        resolve(String(res.status));
        call.cancel();
        client.close();
      });
      call.once('error', (err: grpc.ServiceError) => {
        if (err.code !== grpc.status.CANCELLED) reject(err);
      });
    });

  it('answers for "" and each registered service by full name, NOT_FOUND for any other name', async () => {
    let up = true;
    const dependency = {
      name: 'switch',
      check: async () => (up ? undefined : Promise.reject(new Error('switched off'))),
    };
    const server = await startGrpcServer({
      port: 0,
      host: '127.0.0.1',
      services: [{ definition: IdentityService.service, implementation: {} }],
      dependencies: { checks: [dependency], log, intervalMs: 20 },
    });
    try {
      expect(server.health.services).toEqual(['', 'wms.identity.v1.IdentityService']);
      expect(await check(server.port, '')).toBe('SERVING');
      expect(await check(server.port, 'wms.identity.v1.IdentityService')).toBe('SERVING');
      for (const unknown of ['wms.messaging.v1.MessagingService', 'IdentityService', 'nonsense'])
        expect(await check(server.port, unknown)).toBe('NOT_FOUND');
      expect(await firstWatched(server.port, 'wms.identity.v1.IdentityService')).toBe('SERVING');
      expect(await firstWatched(server.port, 'nonsense')).toBe('SERVICE_UNKNOWN');

      up = false;
      await waitFor(
        'NOT_SERVING by name',
        async () => (await check(server.port, 'wms.identity.v1.IdentityService')) === 'NOT_SERVING',
      );
      expect(await check(server.port, '')).toBe('NOT_SERVING');
      expect(await check(server.port, 'nonsense')).toBe('NOT_FOUND');
      // Liveness is the process, not its dependencies: a probe of it restarts nothing during an outage.
      expect(await check(server.port, 'liveness')).toBe('SERVING');
      up = true;
      await waitFor(
        'SERVING by name again',
        async () => (await check(server.port, 'wms.identity.v1.IdentityService')) === 'SERVING',
      );
    } finally {
      await server.stop(100);
    }
  });

  it('of a worker health server is only the overall status', async () => {
    const server = await startHealthServer({ port: 0, host: '127.0.0.1', dependencies: { checks: [], log } });
    try {
      expect(await check(server.port, '')).toBe('SERVING');
      expect(await check(server.port, 'wms.asset.v1.AssetService')).toBe('NOT_FOUND');
      expect(await check(server.port, 'liveness')).toBe('SERVING');
    } finally {
      await server.stop(100);
    }
  });
});
