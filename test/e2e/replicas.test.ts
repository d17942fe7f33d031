import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { waitFor } from '@wms/testkit';
import { Queue } from 'bullmq';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, startCluster } from '@wms/local-cluster/cluster';
import { type Account, signUp } from './support/accounts.ts';
import { useCluster } from './support/http.ts';
import { createChannel, type MessageBody, postText } from './support/messages.ts';
import { connectRealtime, disconnectAll } from './support/realtime.ts';
import { createWorkspace, inWorkspace } from './support/workspaces.ts';

// A cluster of its own with two processes of every gRPC server and worker role (issue 24): peers get both replicas'
// addresses and spread their calls; the two workers' outbox relays take turns and their sweeps run once a period; a
// replica killed under load costs at most the calls in flight on it, and the launcher starts it again.

/** Short sweep periods, so several periods pass within a test. */
const SWEEP_MS = '1000';

let cluster: Cluster;
let owner: Account;
let ws: string;
let conv: string;

beforeAll(async () => {
  cluster = await startCluster({
    mode: 'test',
    logs: 'files',
    replicas: 2,
    restart: true,
    env: { CLEANUP_SWEEP_MS: SWEEP_MS, PRESENCE_SWEEP_MS: SWEEP_MS },
  });
  useCluster(cluster);
  owner = await signUp('replicas');
  ws = (await createWorkspace(owner)).id;
  conv = await createChannel(owner, ws);
}, 240_000);

afterEach(disconnectAll);
afterAll(async () => {
  await cluster?.stop();
});

/** The sum of a counter's series in a process's metrics whose labels include `labels`. */
async function counter(name: string, metric: string, labels: Record<string, string> = {}): Promise<number> {
  const text = await (await fetch(cluster.metricsUrls[name]!, { signal: AbortSignal.timeout(10_000) })).text();
  let sum = 0;
  for (const line of text.split('\n')) {
    const m = /^(\w+)(?:\{([^}]*)\})? (\S+)$/.exec(line);
    if (m?.[1] === metric && Object.entries(labels).every(([k, v]) => (m[2] ?? '').includes(`${k}="${v}"`)))
      sum += Number(m[3]);
  }
  return sum;
}

/** Requests a gateway process has answered (its own /metrics, on the port the launcher gave it). */
async function answered(name: string): Promise<number> {
  const environ = readFileSync(`/proc/${cluster.pidOf(name)}/environ`, 'utf8').split('\0');
  const port = environ.find((v) => v.startsWith('PORT='))!.slice('PORT='.length);
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('wms_http_request_duration_seconds_count'))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

/** The gRPC calls a server process has answered so far (its `wms_grpc_server_handled_total`). */
const handled = (name: string) => counter(name, 'wms_grpc_server_handled_total');

describe('a cluster with two replicas of every role', () => {
  it('runs two of each server and worker', () => {
    for (const name of [
      'identity',
      'workspace',
      'messaging',
      'asset',
      'realtime',
      'messaging-worker',
      'workspace-worker',
      'gateway',
    ]) {
      expect(cluster.pidOf(name), name).toEqual(expect.any(Number));
      expect(cluster.pidOf(`${name}-2`), `${name}-2`).toEqual(expect.any(Number));
    }
  });

  it("spreads the gateway's calls over both messaging replicas", async () => {
    const before = await Promise.all(['messaging', 'messaging-2'].map(handled));
    for (let i = 0; i < 50; i++) await postText(owner, ws, conv, `spread ${i}`);
    await Promise.all(
      Array.from({ length: 50 }, () => inWorkspace(owner, ws, 'GET', `/conversations/${conv}/messages?limit=10`)),
    );
    const after = await Promise.all(['messaging', 'messaging-2'].map(handled));
    const calls = after.map((n, i) => n - before[i]!);
    const total = calls[0]! + calls[1]!;
    expect(total).toBeGreaterThanOrEqual(100);
    for (const share of calls) {
      expect(share / total).toBeGreaterThanOrEqual(0.35);
      expect(share / total).toBeLessThanOrEqual(0.65);
    }
  });

  it('hands connections to both gateways through the local balancer', async () => {
    const before = await Promise.all(['gateway', 'gateway-2'].map(answered));
    // A connection each (no keep-alive), as many clients would open.
    for (let i = 0; i < 20; i++) {
      const res = await fetch(`${cluster.gatewayUrl}/healthz`, { headers: { connection: 'close' } });
      expect(res.status).toBe(200);
    }
    const after = await Promise.all(['gateway', 'gateway-2'].map(answered));
    for (let i = 0; i < 2; i++) expect(after[i]! - before[i]!).toBeGreaterThanOrEqual(5);
  });

  it('hands no connection to a gateway that is down, and hands them to it again once it is back', async () => {
    const stopped = cluster.pidOf('gateway-2')!;
    process.kill(stopped, 'SIGTERM');
    await waitFor('gateway-2 to exit', () => cluster.pidOf('gateway-2') !== stopped, 30_000, 20);
    // Down or restarting (the launcher starts it again): every new connection goes to the other.
    for (let i = 0; i < 20; i++) {
      const res = await fetch(`${cluster.gatewayUrl}/healthz`, { headers: { connection: 'close' } });
      expect(res.status).toBe(200);
    }
    const back = await waitFor(
      'gateway-2 to be started again',
      () => {
        const pid = cluster.pidOf('gateway-2');
        return pid !== undefined && pid !== stopped ? pid : undefined;
      },
      30_000,
      50,
    );
    // Once it serves again it is handed connections again: of four new ones, two reach it.
    const statuses: number[] = [];
    await waitFor(
      'gateway-2 to be handed connections',
      async () => {
        const before = await answered('gateway-2');
        for (let i = 0; i < 4; i++)
          statuses.push((await fetch(`${cluster.gatewayUrl}/healthz`, { headers: { connection: 'close' } })).status);
        return (await answered('gateway-2')) >= before + 2;
      },
      30_000,
      100,
    );
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect(cluster.pidOf('gateway-2')).toBe(back);
  });

  it('delivers each event once and in order with two outbox relays', async () => {
    const client = await connectRealtime(owner, ws);
    const channel = `private-conversation-${conv}`;
    await client.subscribe(channel);
    const posted: string[] = [];
    for (let i = 0; i < 40; i++) posted.push((await postText(owner, ws, conv, `in order ${i}`)).id);
    const canary = (await postText(owner, ws, conv, 'canary')).id;
    await client.waitForEvent(channel, 'message.created', (d) => (d.message as MessageBody).id === canary, 20_000);
    const received = client.on(channel, 'message.created').map((d) => (d.message as MessageBody).id);
    expect(received).toEqual([...posted, canary]);
  });

  it('runs each sweep once a period across both workers: one job scheduler each, whose periods the runs match', async () => {
    const bull = new URL(cluster.redisUrl);
    const queues = new Map<string, Queue>();
    const queueOf = (name: string) => {
      if (!queues.has(name))
        queues.set(
          name,
          new Queue(name, {
            connection: { host: bull.hostname, port: Number(bull.port || 6379) },
            prefix: `${cluster.redisPrefix}:bull`,
          }),
        );
      return queues.get(name)!;
    };
    const sweeps = [
      { service: 'messaging', queue: 'messaging-cleanup', job: 'sweep', every: Number(SWEEP_MS) },
      { service: 'asset', queue: 'asset-cleanup', job: 'sweep-unattached', every: Number(SWEEP_MS) },
      { service: 'realtime', queue: 'realtime-events', job: 'sweep', every: 2000 },
      { service: 'realtime', queue: 'realtime-occupancy', job: 'sweep', every: Number(SWEEP_MS) },
    ];
    try {
      // One scheduler per sweep, whichever replica started first (the events expiry, every 10 minutes, too).
      const schedulers = async (queue: string) =>
        (await queueOf(queue).getJobSchedulers()).map((s) => `${s.key}/${s.every}`).sort();
      expect(await schedulers('messaging-cleanup')).toEqual([`sweep/${SWEEP_MS}`]);
      expect(await schedulers('asset-cleanup')).toEqual([`sweep-unattached/${SWEEP_MS}`]);
      expect(await schedulers('realtime-events')).toEqual(['expire/600000', 'sweep/2000']);
      expect(await schedulers('realtime-occupancy')).toEqual([`sweep/${SWEEP_MS}`]);

      /** Periods the scheduler has started (its iteration count), and the runs both workers counted (their metrics). */
      const periods = async (s: (typeof sweeps)[number]) =>
        (await queueOf(s.queue).getJobScheduler(s.job))!.iterationCount!;
      const runs = async (s: (typeof sweeps)[number]) => {
        const labels = { queue: s.queue, job: s.job, outcome: 'completed' };
        return (
          (await counter(`${s.service}-worker`, 'wms_queue_job_outcomes_total', labels)) +
          (await counter(`${s.service}-worker-2`, 'wms_queue_job_outcomes_total', labels))
        );
      };
      const start = await Promise.all(sweeps.map(async (s) => ({ periods: await periods(s), runs: await runs(s) })));
      // Five periods of each pass (counted by the scheduler, not timed); then the runs both workers made meanwhile
      // equal the periods, give or take the one run in flight at each end: not two a period.
      for (const [i, s] of sweeps.entries())
        await waitFor(
          `five periods of ${s.queue}`,
          async () => (await periods(s)) >= start[i]!.periods + 5,
          60_000,
          100,
        );
      for (const [i, s] of sweeps.entries()) {
        const runsMade = (await runs(s)) - start[i]!.runs;
        const periodsPassed = (await periods(s)) - start[i]!.periods;
        expect(
          Math.abs(runsMade - periodsPassed),
          `${s.queue}: ${runsMade} runs in ${periodsPassed} periods`,
        ).toBeLessThanOrEqual(2);
      }
    } finally {
      await Promise.all([...queues.values()].map((q) => q.close()));
    }
  });

  it('loses at most the calls in flight when a messaging replica is killed under load, and the launcher starts it again', async () => {
    const killed = cluster.pidOf('messaging-2')!;
    const statuses: number[] = [];
    let answeredAfterKill = 0;
    let killedAt: number | undefined;
    // Eight loops of reads; one replica is killed once 100 have been answered, and the loops go on until 100 more have
    // been answered after it (counted, not timed).
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (answeredAfterKill < 100) {
          const res = await inWorkspace(
            owner,
            ws,
            'GET',
            `/conversations/${conv}/messages?limit=10&x=${randomBytes(2).toString('hex')}`,
          );
          statuses.push(res.status);
          if (killedAt !== undefined && res.status === 200) answeredAfterKill++;
          if (killedAt === undefined && statuses.length >= 100) {
            killedAt = statuses.length;
            process.kill(killed, 'SIGKILL');
          }
        }
      }),
    );
    const failed = statuses.filter((s) => s !== 200);
    expect(
      failed.every((s) => s === 503),
      JSON.stringify(failed),
    ).toBe(true);
    // At most the eight in flight when it died.
    expect(failed.length).toBeLessThanOrEqual(8);
    await waitFor(
      'messaging-2 to be started again',
      () => {
        const pid = cluster.pidOf('messaging-2');
        return pid !== undefined && pid !== killed ? pid : undefined;
      },
      30_000,
      50,
    );
  });
});
