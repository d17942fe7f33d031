import { DomainError, notFound } from '@wms/kit/errors';
import { createAsyncClient, createHealthClient } from '@wms/kit/grpc-client';
import { bindHandlers, type RunningGrpcServer, startGrpcServer } from '@wms/kit/grpc-server';
import { createLogger } from '@wms/kit/logger';
import { loadService } from '@wms/protos';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// A real gRPC server and client from kit, serving the identity contract with handlers made for each case.
const log = createLogger('grpc-test', 'silent');
const IdentityService = loadService('identity');
let server: RunningGrpcServer;
let seen: { requestId?: string; userId?: string; clientIp?: string } = {};

const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as Error,
  );

beforeAll(async () => {
  const handlers = {
    GetMe: async (_req: unknown, ctx: { requestId: string; userId?: string; clientIp?: string }) => {
      seen = ctx;
      return { id: ctx.userId ?? '', email: 'a@b.io', name: 'A', created_at: '', updated_at: '' };
    },
    Login: async () => {
      throw notFound('No such thing.');
    },
    Logout: async () => {
      throw new Error('postgres://secret@db is down');
    },
    Register: () => new Promise<never>(() => {}),
  };
  server = await startGrpcServer({
    port: 0,
    host: '127.0.0.1',
    services: [
      {
        definition: IdentityService.service,
        implementation: bindHandlers(IdentityService.service, handlers as never, log),
      },
    ],
  });
});
afterAll(() => server?.stop(100));

describe('kit gRPC client and server', () => {
  it('carries the caller context as metadata and answers health checks', async () => {
    const client = createAsyncClient(IdentityService, `127.0.0.1:${server.port}`);
    const me = await client.GetMe({}, { requestId: 'req-1', userId: 'u-1', clientIp: '10.0.0.9' });
    expect(me.id).toBe('u-1');
    expect(seen).toMatchObject({ requestId: 'req-1', userId: 'u-1', clientIp: '10.0.0.9' });
    const health = createHealthClient(`127.0.0.1:${server.port}`);
    expect(await health.check()).toBe(true);
    health.close();
    client.close();
  });

  it('returns domain errors with their code, and hides unexpected failures', async () => {
    const client = createAsyncClient(IdentityService, `127.0.0.1:${server.port}`);
    expect(await failure(client.Login({ email: 'a@b.io', password: 'x' }, { requestId: 'r' }))).toMatchObject({
      kind: 'not_found',
      code: 'not_found',
    });
    const internal = await failure(client.Logout({}, { requestId: 'r' }));
    expect(internal).not.toBeInstanceOf(DomainError);
    expect(internal?.message).not.toContain('secret');
    client.close();
  });

  it('turns a service that is down or too slow into unavailable (503 at the gateway)', async () => {
    const slow = createAsyncClient(IdentityService, `127.0.0.1:${server.port}`, { deadlineMs: 200 });
    expect(
      await failure(slow.Register({ email: 'a@b.io', password: 'x', name: 'x' }, { requestId: 'r' })),
    ).toMatchObject({ kind: 'unavailable', code: 'unavailable' });
    slow.close();
    const down = createAsyncClient(IdentityService, '127.0.0.1:1', { deadlineMs: 1000 });
    expect(await failure(down.GetMe({}, { requestId: 'r' }))).toMatchObject({
      kind: 'unavailable',
      code: 'unavailable',
    });
    down.close();
    const health = createHealthClient('127.0.0.1:1');
    expect(await health.check(300)).toBe(false);
    health.close();
  });
});

describe('kit gRPC over several replicas', () => {
  /** A replica serving GetMe, counting the calls it answered. */
  async function replica(options: { maxConnectionAgeMs?: number; slowMs?: number } = {}) {
    const counted = { calls: 0 };
    const handlers = {
      GetMe: async () => {
        counted.calls++;
        if (options.slowMs) await new Promise((r) => setTimeout(r, options.slowMs));
        return { id: 'u', email: 'a@b.io', name: 'A', created_at: '', updated_at: '' };
      },
    };
    const running = await startGrpcServer({
      port: 0,
      host: '127.0.0.1',
      services: [
        {
          definition: IdentityService.service,
          implementation: bindHandlers(IdentityService.service, handlers as never, log),
        },
      ],
      ...(options.maxConnectionAgeMs ? { maxConnectionAgeMs: options.maxConnectionAgeMs } : {}),
    });
    return { running, counted };
  }

  it("spreads one client's calls over every replica of its address list (round_robin)", async () => {
    const replicas = await Promise.all([replica(), replica()]);
    const client = createAsyncClient(
      IdentityService,
      `ipv4:${replicas.map((r) => `127.0.0.1:${r.running.port}`).join(',')}`,
    );
    try {
      for (let i = 0; i < 20; i++) await client.GetMe({}, { requestId: 'warm' });
      for (const r of replicas) r.counted.calls = 0;
      await Promise.all(Array.from({ length: 200 }, () => client.GetMe({}, { requestId: 'r' })));
      for (const r of replicas) expect(r.counted.calls).toBeGreaterThanOrEqual(70);
      expect(replicas[0].counted.calls + replicas[1].counted.calls).toBe(200);
    } finally {
      client.close();
      await Promise.all(replicas.map((r) => r.running.stop(100)));
    }
  });

  it('loses no call when servers age their connections out (GOAWAY) under steady load', async () => {
    const replicas = await Promise.all([
      replica({ maxConnectionAgeMs: 300, slowMs: 5 }),
      replica({ maxConnectionAgeMs: 300, slowMs: 5 }),
    ]);
    const client = createAsyncClient(
      IdentityService,
      `ipv4:${replicas.map((r) => `127.0.0.1:${r.running.port}`).join(',')}`,
    );
    const failures: string[] = [];
    let done = 0;
    try {
      const until = Date.now() + 3000;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (Date.now() < until) {
            await client.GetMe({}, { requestId: 'r' }).then(
              () => done++,
              (err: Error) => failures.push(err.message),
            );
          }
        }),
      );
      expect(failures).toEqual([]);
      // Both replicas kept answering across the reconnections (ten connection ages and more in the three seconds).
      for (const r of replicas) expect(r.counted.calls).toBeGreaterThan(done * 0.3);
    } finally {
      client.close();
      await Promise.all(replicas.map((r) => r.running.stop(100)));
    }
  });

  it('moves the calls to the other replica when one stops (draining its calls in flight)', async () => {
    const replicas = await Promise.all([replica({ slowMs: 5 }), replica({ slowMs: 5 })]);
    const client = createAsyncClient(
      IdentityService,
      `ipv4:${replicas.map((r) => `127.0.0.1:${r.running.port}`).join(',')}`,
    );
    const failures: string[] = [];
    let before = 0;
    let after = 0;
    let stopping: Promise<void> | undefined;
    try {
      // Counted, not timed: one replica stops once 100 calls were answered; the loops go on until 100 more were.
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (after < 100) {
            await client.GetMe({}, { requestId: 'r' }).then(
              () => (stopping ? after++ : before++),
              (err: Error) => failures.push(err.message),
            );
            if (!stopping && before >= 100) stopping = replicas[0].running.stop(1000);
          }
        }),
      );
      await stopping;
      expect(failures).toEqual([]);
    } finally {
      client.close();
      await Promise.all(replicas.map((r) => r.running.stop(100)));
    }
  });
});
