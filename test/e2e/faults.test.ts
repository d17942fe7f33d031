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
  cluster = await startCluster({ mode: 'test', logs: 'files', postgresUrl: postgres.url, redisUrl: redis.url, restart: true });
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
    'messaging write': () => inWorkspace(owner, ws, 'POST', `/conversations/${conv}/messages`, { body: { body_text: `load ${n++}` } }),
  };
  const samples: Sample[] = [];
  let running = true;
  const loops = Object.entries(probes).map(async ([probe, call]) => {
    while (running) {
      const start = Date.now();
      const res = await call().catch(() => ({ status: 0, body: undefined }) as unknown as ApiResponse);
      samples.push({ probe, start, end: Date.now(), status: res.status, code: (res.body as { error?: { code: string } } | undefined)?.error?.code });
      await new Promise((r) => setTimeout(r, 50));
    }
  });
  return {
    samples,
    since: (from: number, probe?: string) => samples.filter((s) => s.start >= from && (!probe || s.probe === probe)),
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

const ok = (s: Sample) => s.status >= 200 && s.status < 300;
const summary = (samples: Sample[]) => samples.map((s) => `${s.probe} ${s.status}${s.code ? ` ${s.code}` : ''} after ${s.end - s.start} ms`).join('\n');

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
  for (const probe of ['identity', 'workspace', 'messaging read', 'messaging write']) {
    const after = load.since(from + withinMs, probe);
    expect(after.length, `${probe} was probed after recovery`).toBeGreaterThan(0);
    const failed = after.filter((s) => !ok(s));
    expect(failed, `${probe} ${withinMs} ms after recovery:\n${summary(failed)}`).toEqual([]);
  }
}

describe('dependency faults under steady load', () => {
  it('a killed service: its routes answer 503 unavailable, the others keep answering, and it serves again within 3 s of its restart', { timeout: 120_000 }, async () => {
    const load = steadyLoad();
    await new Promise((r) => setTimeout(r, 500));
    const before = pids();
    const killedAt = Date.now();
    process.kill(before.messaging!, 'SIGKILL');
    await waitFor('messaging to be restarted', () => cluster.pidOf('messaging') !== undefined && cluster.pidOf('messaging') !== before.messaging, 30_000);
    const readyAt = await readyAgain();
    await waitFor('3 s of requests after the restart', () => Date.now() > readyAt + 3500, 10_000);
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
  });

  it('Postgres stopped and started: 503 and not ready while it is down, all routes back within 5 s, no process restarted', { timeout: 120_000 }, async () => {
    const load = steadyLoad();
    await new Promise((r) => setTimeout(r, 500));
    const before = pids();
    const stoppedAt = Date.now();
    await postgres.stop();
    await waitFor('requests to fail while Postgres is down', () => load.since(stoppedAt).some((s) => s.status === 503), 15_000);
    expect((await api('GET', '/healthz')).status).toBe(200);
    await waitFor('/readyz to report the outage', async () => (await api('GET', '/readyz')).status === 503, 15_000);
    await postgres.start();
    const upAt = Date.now();
    await waitFor('5 s of requests after Postgres returned', () => Date.now() > upAt + 6000, 10_000);
    await load.stop();

    expectOnlyUnavailable(load.since(stoppedAt));
    expectRecoveredWithin(load, upAt, 5000);
    expect((await api('GET', '/readyz')).status).toBe(200);
    expect(pids()).toEqual(before);
  });

  it('Redis stopped and started: 503 while it is down, all routes back within 5 s, no process restarted, and a queued avatar job is not lost', { timeout: 120_000 }, async () => {
    const actor = await myActor(owner, ws);
    const photo = await image('png', 640, 480);
    const bull = new Queue('avatar-resize', { connection: { host: '127.0.0.1', port: redis.port, maxRetriesPerRequest: null }, prefix: `${cluster.redisPrefix}:bull` });
    bull.on('error', () => {});
    const load = steadyLoad();
    try {
      await new Promise((r) => setTimeout(r, 500));
      const before = pids();
      // The worker is frozen so that the upload's job is still queued when Redis goes away, and is run only after.
      process.kill(before['workspace-worker']!, 'SIGSTOP');
      const upload = inWorkspace(owner, ws, 'PUT', `/workspace/actors/${actor.id}/avatar`, multipart(photo, 'file', 'me.png')).catch((err: unknown) => err);
      let jobId: string | undefined;
      await waitFor('the avatar job to be queued', async () => (jobId = (await bull.getWaiting())[0]?.id) !== undefined, 10_000);

      const stoppedAt = Date.now();
      await redis.stop();
      await waitFor('requests to fail while Redis is down', () => load.since(stoppedAt).some((s) => s.status === 503), 15_000);
      await redis.start();
      const upAt = Date.now();
      process.kill(before['workspace-worker']!, 'SIGCONT');

      // Not lost: the job queued before the restart is run after it.
      await waitFor('the avatar job to complete', async () => (await bull.getJobState(jobId!)) === 'completed', 30_000);
      // The upload itself answers 200 with the resized avatar, or 503 if all that took longer than its deadline.
      const answered = (await upload) as ApiResponse;
      expect([200, 503], JSON.stringify(answered.body)).toContain(answered.status);
      if (answered.status === 200) {
        const avatarId = (answered.body as { avatar_id: string }).avatar_id;
        expect(avatarId).toBe(jobId);
        const download = await inWorkspace(owner, ws, 'GET', `/workspace/actors/${actor.id}/avatar/${avatarId}`);
        expect(download.status).toBe(200);
        const webp = Buffer.from(await (await fetch((download.body as { url: string }).url)).arrayBuffer());
        expect(await sharp(webp).metadata()).toMatchObject({ format: 'webp', width: 256, height: 256 });
      }

      await waitFor('5 s of requests after Redis returned', () => Date.now() > upAt + 6000, 10_000);
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
  });
});
