import { Queue } from 'bullmq';
import sharp from 'sharp';
import { launcherLog, type TestDependency, startTestPostgres, startTestRedis, waitFor } from '@wms/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, startCluster } from '@wms/local-cluster/cluster';
import { components } from '@wms/local-cluster/components';
import { type Account, signUp } from './support/accounts.ts';
import { type ApiResponse, api, useCluster } from './support/http.ts';
import { image, multipart } from './support/images.ts';
import { createChannel } from './support/messages.ts';
import { createWorkspace, inWorkspace, myActor } from './support/workspaces.ts';

// Dependency faults under steady load, with real processes: a cluster of its own, supervised as under `pnpm start`,
// on a Postgres and a Redis (durable, as a deployment that keeps its queues) that this file starts, stops and kills.
// Contract §8: whatever is down answers 503 `unavailable` within the gateway's deadline, never a 500 or a hang; what
// does not need it keeps answering; recovery takes seconds and no process has to be restarted by hand.

const DEADLINE_MS = 10_000;

let postgres: TestDependency;
let redis: TestDependency;
let cluster: Cluster;
let owner: Account;
let ws: string;
let conv: string;

beforeAll(async () => {
  [postgres, redis] = await Promise.all([startTestPostgres(), startTestRedis({ durable: true })]);
  cluster = await startCluster({
    mode: 'test',
    logs: 'files',
    postgresUrl: postgres.url,
    redisUrl: redis.url,
    restart: true,
  });
  useCluster(cluster);
  owner = await signUp('faults');
  ws = (await createWorkspace(owner)).id;
  conv = await createChannel(owner, ws);
}, 180_000);

afterAll(async () => {
  await cluster?.stop();
  await Promise.all([postgres?.destroy(), redis?.destroy()]);
});

interface Sample {
  probe: string;
  start: number;
  end: number;
  status: number;
  code: string | undefined;
}

/** Requests in a loop on a few routes, each needing other parts of the cluster, recording every answer. */
function steadyLoad() {
  let n = 0;
  const probes: Record<string, () => Promise<ApiResponse>> = {
    identity: () => api('GET', '/users/me', { token: owner.token }),
    workspace: () => inWorkspace(owner, ws, 'GET', '/workspace/actors/me'),
    'messaging read': () => inWorkspace(owner, ws, 'GET', `/conversations/${conv}/messages?limit=5`),
    'messaging write': () =>
      inWorkspace(owner, ws, 'POST', `/conversations/${conv}/messages`, { body: { body_text: `load ${n++}` } }),
  };
  const names = Object.keys(probes);
  const samples: Sample[] = [];
  let running = true;
  const loops = Object.entries(probes).map(async ([probe, call]) => {
    while (running) {
      const start = Date.now();
      const res = await call().catch(() => ({ status: 0, body: undefined }) as unknown as ApiResponse);
      samples.push({
        probe,
        start,
        end: Date.now(),
        status: res.status,
        code: (res.body as { error?: { code: string } } | undefined)?.error?.code,
      });
      // Pacing, not waiting for anything: a 503 comes back at once, and back to back the probes would flood two cores.
      await new Promise((r) => setTimeout(r, 50));
    }
  });
  const since = (from: number, probe?: string) =>
    samples.filter((s) => s.start >= from && (!probe || s.probe === probe));
  return {
    names,
    since,
    /** Until every probe has succeeded: the baseline before a fault. */
    answering: () =>
      waitFor('every probe to succeed', () => names.every((p) => samples.some((s) => s.probe === p && ok(s))), 15_000),
    /** Until every probe has been answered for a request started at `from` or later. */
    probedSince: (from: number) =>
      waitFor(
        `every probe to be answered for a request from ${new Date(from).toISOString()}`,
        () => names.every((p) => since(from, p).length > 0),
        15_000,
      ),
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

const ok = (s: Sample) => s.status >= 200 && s.status < 300;
const summary = (samples: Sample[]) =>
  samples.map((s) => `${s.probe} ${s.status}${s.code ? ` ${s.code}` : ''} after ${s.end - s.start} ms`).join('\n');

/** Every answer in the window was a success or 503 `unavailable`, each within the deadline. */
function expectOnlyUnavailable(samples: Sample[]) {
  const wrong = samples.filter((s) => !ok(s) && !(s.status === 503 && s.code === 'unavailable'));
  expect(wrong, summary(wrong)).toEqual([]);
  const slow = samples.filter((s) => s.end - s.start > DEADLINE_MS + 1000);
  expect(slow, summary(slow)).toEqual([]);
}

const pids = () => Object.fromEntries(components.map((c) => [c.name, cluster.pidOf(c.name)]));

async function readyAgain(): Promise<number> {
  await waitFor('/readyz to answer 200', async () => (await api('GET', '/readyz')).status === 200, 60_000, 100);
  return Date.now();
}

/** The moment of the first success of each probe started after `from`, and that every later answer succeeded. */
function expectRecoveredWithin(load: ReturnType<typeof steadyLoad>, from: number, withinMs: number) {
  for (const probe of load.names) {
    const after = load.since(from + withinMs, probe);
    expect(after.length, `${probe} was probed after recovery`).toBeGreaterThan(0);
    const failed = after.filter((s) => !ok(s));
    expect(failed, `${probe} ${withinMs} ms after recovery:\n${summary(failed)}`).toEqual([]);
  }
}

describe('dependency faults under steady load', () => {
  it(
    'a killed service: its routes answer 503 unavailable, the others keep answering, and it serves again within 3 s of its restart',
    { timeout: 120_000 },
    async () => {
      const load = steadyLoad();
      await load.answering();
      const before = pids();
      const killedAt = Date.now();
      process.kill(before.messaging!, 'SIGKILL');
      await waitFor(
        'messaging to be restarted',
        () => cluster.pidOf('messaging') !== undefined && cluster.pidOf('messaging') !== before.messaging,
        30_000,
      );
      const readyAt = await readyAgain();
      await load.probedSince(readyAt + 3000);
      await load.stop();

      const during = load.since(killedAt);
      expectOnlyUnavailable(during);
      // The routes that do not need messaging never noticed.
      for (const probe of ['identity', 'workspace']) {
        const failed = load.since(killedAt, probe).filter((s) => !ok(s));
        expect(failed, summary(failed)).toEqual([]);
      }
      expect(during.filter((s) => s.probe.startsWith('messaging') && s.status === 503).length).toBeGreaterThan(0);
      expectRecoveredWithin(load, readyAt, 3000);
      // The launcher says why it restarted it.
      expect(await launcherLog(cluster.logDir)).toMatch(/messaging exited \(signal SIGKILL\); restarting in \d+ ms/);
      const { messaging: _, ...others } = before;
      const { messaging: relaunched, ...othersAfter } = pids();
      expect(relaunched).not.toBe(before.messaging);
      expect(othersAfter).toEqual(others);
    },
  );

  it(
    'Postgres stopped and started: 503 and not ready while it is down, all routes back within 5 s, no process restarted',
    { timeout: 120_000 },
    async () => {
      const load = steadyLoad();
      await load.answering();
      const before = pids();
      const stoppedAt = Date.now();
      await postgres.stop();
      await waitFor(
        'requests to fail while Postgres is down',
        () => load.since(stoppedAt).some((s) => s.status === 503),
        15_000,
      );
      expect((await api('GET', '/healthz')).status).toBe(200);
      await waitFor('/readyz to report the outage', async () => (await api('GET', '/readyz')).status === 503, 15_000);
      await postgres.start();
      const upAt = Date.now();
      await load.probedSince(upAt + 5000);
      await load.stop();

      expectOnlyUnavailable(load.since(stoppedAt));
      expectRecoveredWithin(load, upAt, 5000);
      expect((await api('GET', '/readyz')).status).toBe(200);
      expect(pids()).toEqual(before);
    },
  );

  it(
    'Redis stopped and started: 503 while it is down, all routes back within 5 s, no process restarted, and a queued avatar job is not lost even when its upload timed out',
    { timeout: 120_000 },
    async () => {
      const actor = await myActor(owner, ws);
      const photo = await image('png', 640, 480);
      const bull = new Queue('avatar-resize', {
        connection: { host: '127.0.0.1', port: redis.port, maxRetriesPerRequest: null },
        prefix: `${cluster.redisPrefix}:bull`,
      });
      bull.on('error', () => {});
      const load = steadyLoad();
      try {
        await load.answering();
        const before = pids();
        // The worker is frozen so that the upload's job is still queued when Redis goes away, and until the gateway has
        // given up on the upload (its deadline), so that the upload's answer is always that 503.
        process.kill(before['workspace-worker']!, 'SIGSTOP');
        const upload = inWorkspace(
          owner,
          ws,
          'PUT',
          `/workspace/actors/${actor.id}/avatar`,
          multipart(photo, 'file', 'me.png'),
        ).then((res) => ({ res }));
        // Awaited after the outage: a failure is reported there, not as an unhandled rejection before.
        upload.catch(() => {});
        let jobId: string | undefined;
        await waitFor(
          'the avatar job to be queued',
          async () => (jobId = (await bull.getWaiting())[0]?.id) !== undefined,
          10_000,
        );

        const stoppedAt = Date.now();
        await redis.stop();
        await waitFor(
          'requests to fail while Redis is down',
          () => load.since(stoppedAt).some((s) => s.status === 503),
          15_000,
        );
        await redis.start();
        const upAt = Date.now();

        const answered = await upload;
        // Answered at all, the gateway's deadline ended it: the worker that would finish the upload resumes only now.
        expect([answered.res.status, (answered.res.body as { error?: { code: string } }).error?.code]).toEqual([
          503,
          'unavailable',
        ]);
        process.kill(before['workspace-worker']!, 'SIGCONT');
        // Not lost: the job queued before the restart is run after it, and the workspace service, which waits for it
        // longer than the gateway waits for the service, still makes it the actor's avatar.
        await waitFor(
          'the avatar job to complete',
          async () => (await bull.getJobState(jobId!)) === 'completed',
          30_000,
        );
        const download = await waitFor('the avatar to be set', async () => {
          const res = await inWorkspace(owner, ws, 'GET', `/workspace/actors/${actor.id}/avatar/${jobId}`);
          return res.status === 200 && res;
        });
        const webp = Buffer.from(await (await fetch((download.body as { url: string }).url)).arrayBuffer());
        expect(await sharp(webp).metadata()).toMatchObject({ format: 'webp', width: 256, height: 256 });

        await load.probedSince(upAt + 5000);
        await load.stop();
        expectOnlyUnavailable(load.since(stoppedAt));
        expectRecoveredWithin(load, upAt, 5000);
        expect(pids()).toEqual(before);
      } finally {
        const worker = cluster.pidOf('workspace-worker');
        if (worker) process.kill(worker, 'SIGCONT');
        await load.stop();
        await bull.close();
      }
    },
  );
});
