import { type Cluster, type Replacement, startCluster } from '@wms/local-cluster/cluster';
import { logLinesWith, waitFor } from '@wms/testkit';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Account, signUp } from '../e2e/support/accounts.ts';
import { useCluster } from '../e2e/support/http.ts';
import { createChannel, postText } from '../e2e/support/messages.ts';
import { type CaughtUpEvent, catchUp, connectRealtime, disconnectAll, eventsHead } from '../e2e/support/realtime.ts';
import { expectEveryPostOnce, rollingLoad } from '../e2e/support/rolling-load.ts';
import { createWorkspace } from '../e2e/support/workspaces.ts';
import { repoRoot } from './previous-release.ts';

// A rolling upgrade from the previous release (docs/operations.md#upgrades), as the chart runs one: a cluster of the
// previous release's code, two of every role, serving steady posts and page reads (retried, as a client would); this
// release's migrations run (the hook Jobs); then every process replaced one at a time by this release's (SIGTERM, the
// new one started, its readiness awaited). Nothing may be lost or made twice, and every message's event must be there
// for a client catching up across the switch.

let cluster: Cluster;
let owner: Account;
let ws: string;
let conv: string;

beforeAll(async () => {
  cluster = await startCluster({ mode: 'test', logs: 'files', replicas: 2, repoRoot: inject('previousRelease') });
  useCluster(cluster);
  owner = await signUp('upgrade');
  ws = (await createWorkspace(owner, 'Upgrade')).id;
  conv = await createChannel(owner, ws, 'upgrade');
}, 180_000);

afterAll(async () => {
  await disconnectAll();
  await cluster?.stop();
});

/**
 * How long each new process is left before the next old one stops (the chart's `minReadySeconds`). The previous
 * release's gRPC clients fail a call at once while none of a peer's replicas is connected, and reconnect to a
 * restarted address only after their backoff (up to 1.2 s): without the pause, stopping messaging's second replica just
 * after its first came back answered requests of the previous release's gateways 503. (This release's clients try such
 * a call again for 1.5 s: test/e2e/graceful-stop.test.ts needs no pause.)
 */
const MIN_READY_MS = 2000;

/** The rows in the order their Deployments would finish rolling: the data's owners first, the gateway last. */
const ROWS = [
  'realtime',
  'realtime-worker',
  'identity',
  'workspace',
  'workspace-worker',
  'messaging',
  'messaging-worker',
  'asset',
  'asset-worker',
  'gateway',
];

const messageIdOf = (e: CaughtUpEvent) => (e.data.message as { id: string }).id;

describe('rolling upgrade from the previous release', () => {
  it(
    'loses and repeats nothing under load, and every event reaches a client across the switch',
    { timeout: 900_000 },
    async () => {
      const cursor = await eventsHead(owner, ws);

      const load = rollingLoad(owner, ws, conv, 'upgrade');
      const replaced: Array<{ name: string } & Replacement> = [];
      let migratedMs: number;
      try {
        const migrating = Date.now();
        await cluster.migrate({ repoRoot });
        migratedMs = Date.now() - migrating;
        for (const row of ROWS)
          for (const name of [`${row}-2`, row])
            replaced.push({ name, ...(await cluster.replace(name, { repoRoot, minReadyMs: MIN_READY_MS })) });
      } finally {
        await load.stop();
      }
      console.log(
        `upgrade: ${JSON.stringify({ migratedMs, replaced, acknowledged: load.report.acknowledged.size, pages: load.report.pages, failedTries: load.report.failedTries })}`,
      );
      // An error answered: what the services logged of its request, to find its cause from a failed run's output.
      const errors = load.report.failedTries.filter((f) => f.status !== 0);
      const requestIds = errors.flatMap((f) => /"request_id":"([^"]+)"/.exec(f.detail)?.[1] ?? []);
      for (const line of await logLinesWith(cluster.logDir, requestIds)) console.log(line);
      expect(replaced.filter((r) => r.exitCode !== 0)).toEqual([]);
      expect(load.report.acknowledged.size).toBeGreaterThan(100);
      await expectEveryPostOnce(owner, ws, conv, load.report);
      // What a retry answered is a connection a stopping gateway closed as the client sent on it, never an error.
      expect(errors).toEqual([]);

      // This release delivers live: a client made now receives what is posted now.
      const live = await connectRealtime(owner, ws);
      const channel = `private-conversation-${conv}`;
      await live.subscribe(channel);
      const after = await postText(owner, ws, conv, 'after the upgrade');
      await live.waitForEvent(channel, 'message.created', (d) => (d.message as { id: string }).id === after.id, 30_000);

      // And a client that was away all along catches up on every message, each once, whichever release stored it.
      const ids = [...load.report.acknowledged.values(), after.id];
      const created = await waitFor(
        'every message.created stored',
        async () => {
          const events = (await catchUp(owner, ws, cursor)).filter((e) => e.event === 'message.created');
          const seen = new Set(events.map(messageIdOf));
          return ids.every((id) => seen.has(id)) && events;
        },
        60_000,
        500,
      );
      const counts = new Map<string, number>();
      for (const e of created) counts.set(messageIdOf(e), (counts.get(messageIdOf(e)) ?? 0) + 1);
      expect([...counts].filter(([, n]) => n > 1)).toEqual([]);
    },
  );
});
