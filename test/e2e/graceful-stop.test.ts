import { type Cluster, type Replacement, startCluster } from '@wms/local-cluster/cluster';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Account, signUp } from './support/accounts.ts';
import { useCluster } from './support/http.ts';
import { createChannel } from './support/messages.ts';
import { expectEveryPostOnce, rollingLoad } from './support/rolling-load.ts';
import { createWorkspace } from './support/workspaces.ts';

// Graceful stops (issue 41, point 4): a cluster with two of every role under steady posts and page reads, and each
// process stopped with SIGTERM and started again, one at a time, as a rolling update does. Each must exit 0 within its
// grace, having finished what it had; the load sees every request answered and every post stored once.

let cluster: Cluster;
let owner: Account;
let ws: string;
let conv: string;

beforeAll(async () => {
  cluster = await startCluster({ mode: 'test', logs: 'files', replicas: 2 });
  useCluster(cluster);
  owner = await signUp('graceful');
  ws = (await createWorkspace(owner, 'Graceful stops')).id;
  conv = await createChannel(owner, ws, 'graceful');
}, 180_000);

afterAll(async () => {
  await cluster?.stop();
});

/** Every process the cluster runs but the provider (not ours), each row's second replica first. */
const ROWS = [
  'identity',
  'workspace',
  'workspace-worker',
  'messaging',
  'messaging-worker',
  'asset',
  'asset-worker',
  'realtime',
  'realtime-worker',
  'gateway',
];

describe('graceful stop of every role under load', () => {
  it('stops each process on SIGTERM with exit 0, dropping no request and no post', { timeout: 600_000 }, async () => {
    const load = rollingLoad(owner, ws, conv, 'graceful');
    const replaced: Array<{ name: string; at: number } & Replacement> = [];
    try {
      for (const row of ROWS)
        for (const name of [`${row}-2`, row]) replaced.push({ name, at: Date.now(), ...(await cluster.replace(name)) });
    } finally {
      await load.stop();
    }
    console.log(`graceful-stop: ${JSON.stringify({ replaced, failedTries: load.report.failedTries })}`);
    expect(replaced.filter((r) => r.exitCode !== 0)).toEqual([]);
    // Kit's own limit is 15 s; stopping takes what is in flight, not the limit.
    expect(replaced.filter((r) => r.stoppedMs >= 15_000)).toEqual([]);
    expect(load.report.acknowledged.size).toBeGreaterThan(50);
    await expectEveryPostOnce(owner, ws, conv, load.report);
    // Nothing answered an error: a stopping process finished its requests, and new ones went to its peer. What a retry
    // may have to answer is a connection the stopping gateway closed as the client sent on it (HTTP keep-alive's race:
    // undici's "other side closed"), which nothing was read from.
    expect(load.report.failedTries.filter((f) => f.status !== 0)).toEqual([]);
    expect(load.report.failedTries.filter((f) => !/other side closed|ECONNRESET/.test(f.detail))).toEqual([]);
  });
});
