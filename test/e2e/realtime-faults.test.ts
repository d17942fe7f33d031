import { type Cluster, startCluster } from '@wms/local-cluster/cluster';
import { processEnvironment, waitFor } from '@wms/testkit';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Account, signUp } from './support/accounts.ts';
import { useCluster } from './support/http.ts';
import { createChannel, type MessageBody, postText } from './support/messages.ts';
import { connectRealtime, disconnectAll } from './support/realtime.ts';
import { addMember, createWorkspace, inWorkspace, myActor } from './support/workspaces.ts';

// Realtime under faults, with real processes (issue 13): a cluster of its own, supervised as under `pnpm start`, whose
// provider (Soketi) and realtime server this file freezes with SIGSTOP. A frozen process answers nothing yet keeps its
// sockets, the way a hung or partitioned one does, and resumes exactly where it stopped.

// The occupancy sweep every second instead of every 30 s, so a repair by the sweep takes seconds.
const PRESENCE_SWEEP_MS = '1000';

let cluster: Cluster;
let db: pg.Pool;
let owner: Account;
let member: Account;
let ws: string;
let conv: string;

beforeAll(async () => {
  cluster = await startCluster({ mode: 'test', logs: 'files', restart: true, env: { PRESENCE_SWEEP_MS } });
  useCluster(cluster);
  db = new pg.Pool({ connectionString: cluster.databaseUrl, max: 2 });
  [owner, member] = await Promise.all([signUp('rtf-owner'), signUp('rtf-member')]);
  ws = (await createWorkspace(owner, 'Realtime faults')).id;
  conv = await createChannel(owner, ws, 'faults');
  await addMember(owner, ws, member);
}, 180_000);

afterEach(disconnectAll);

afterAll(async () => {
  await db?.end();
  await cluster?.stop();
});

/** The sum of a Prometheus counter's samples whose labels include all of `labels`. */
async function counter(url: string, name: string, labels: Record<string, string>): Promise<number> {
  const text = await (await fetch(url, { signal: AbortSignal.timeout(5000) })).text();
  let sum = 0;
  for (const line of text.split('\n')) {
    const m = /^(\w+)\{([^}]*)\} (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    if (Object.entries(labels).every(([k, v]) => m[2]!.includes(`${k}="${v}"`))) sum += Number(m[3]);
  }
  return sum;
}

/** Attempts of the realtime worker's event jobs that failed (for good or to be retried). */
const failedDrains = async () =>
  (await counter(cluster.metricsUrls['realtime-worker']!, 'wms_queue_job_outcomes_total', {
    queue: 'realtime-events',
    outcome: 'failed',
  })) +
  (await counter(cluster.metricsUrls['realtime-worker']!, 'wms_queue_job_outcomes_total', {
    queue: 'realtime-events',
    outcome: 'retried',
  }));

/** How often the gateway answered the provider's webhook 503. */
const lostWebhooks = () =>
  counter(`${cluster.gatewayUrl}/metrics`, 'wms_http_request_duration_seconds_count', {
    method: 'POST',
    route: '/realtime/webhooks/pusher',
    status: '503',
  });

const untriggered = async (): Promise<number> =>
  Number(
    (
      await db.query(
        'SELECT count(*) FROM realtime.events WHERE id > (SELECT triggered_through FROM realtime.event_retention)',
      )
    ).rows[0].count,
  );

/** The stored message.created events of these messages: whether each was triggered, in message order. */
async function storedCreations(messageIds: string[]): Promise<Array<{ id: string; triggered: boolean }>> {
  const { rows } = await db.query<{ id: string; triggered: boolean }>(
    `SELECT data->'message'->>'id' AS id, id <= (SELECT triggered_through FROM realtime.event_retention) AS triggered FROM realtime.events
     WHERE name = 'message.created' AND data->'message'->>'id' = ANY($1) ORDER BY id`,
    [messageIds],
  );
  return rows;
}

const online = async (account: Account): Promise<string[]> => {
  const res = await inWorkspace(account, ws, 'GET', '/realtime/presence');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as Array<{ actor_id: string }>).map((p) => p.actor_id);
};

describe('realtime faults', () => {
  it('runs the realtime worker with the sweep interval this file set', () => {
    expect(processEnvironment(cluster.pidOf('realtime-worker')!).get('PRESENCE_SWEEP_MS')).toBe(PRESENCE_SWEEP_MS);
  });

  it(
    'delivers the events posted while the provider is frozen once it runs again, all of them, in post order',
    { timeout: 120_000 },
    async () => {
      const client = await connectRealtime(owner, ws);
      const channel = `private-conversation-${conv}`;
      await client.subscribe(channel);
      // Nothing else waits, so every failed trigger from now on is one of the messages below.
      await waitFor('earlier events to be triggered', async () => (await untriggered()) === 0, 30_000);
      const failedBefore = await failedDrains();

      const soketi = cluster.pidOf('soketi')!;
      process.kill(soketi, 'SIGSTOP');
      const posted: MessageBody[] = [];
      try {
        // The API does not need the provider.
        for (let i = 1; i <= 5; i++)
          posted.push(await postText(owner, ws, conv, `posted while the provider is down ${i}`));
        const ids = posted.map((m) => m.id);
        await waitFor(
          'the events to be stored',
          async () => (await storedCreations(ids)).length === ids.length,
          30_000,
        );
        // The worker tried to trigger them, the provider did not answer, and they wait.
        await waitFor('a trigger to fail', async () => (await failedDrains()) > failedBefore, 60_000, 250);
        expect(await storedCreations(ids)).toEqual(ids.map((id) => ({ id, triggered: false })));
        expect(client.on(channel, 'message.created')).toEqual([]);
      } finally {
        process.kill(soketi, 'SIGCONT');
      }

      const ids = posted.map((m) => m.id);
      // Delivery is at least once (a trigger abandoned while the provider was frozen may still be carried out), so the
      // order is that of each event's first arrival.
      const firstArrivals = () => [
        ...new Map(
          client.on(channel, 'message.created').map((d) => [d.event_id, (d.message as MessageBody).id]),
        ).values(),
      ];
      await waitFor('all five messages at the client', () => firstArrivals().length === ids.length, 60_000);
      expect(firstArrivals()).toEqual(ids);
      expect(client.on(channel, 'message.created').map((d) => d.message)).toEqual(expect.arrayContaining(posted));
      await waitFor(
        'every event marked triggered',
        async () => (await storedCreations(ids)).every((e) => e.triggered),
        30_000,
      );
    },
  );

  it('repairs a lost webhook with the sweep: presence follows the provider', { timeout: 120_000 }, async () => {
    const memberActor = (await myActor(member, ws)).id;
    const watcher = await connectRealtime(owner, ws);
    const workspaceChannel = watcher.config.channels.workspace;
    await watcher.subscribe(workspaceChannel);
    const leaving = await connectRealtime(member, ws);
    await leaving.subscribe(leaving.config.channels.actor);
    await waitFor('the member online', async () => (await online(owner)).includes(memberActor), 30_000);
    await watcher.waitForEvent(
      workspaceChannel,
      'presence.updated',
      (d) => (d.presence as { actor_id: string }).actor_id === memberActor,
    );
    const lostBefore = await lostWebhooks();

    // Frozen, the server takes no webhook: the gateway's AcceptWebhook call meets its deadline and the gateway answers
    // the provider 503, which Soketi never retries. Only the worker, which runs on, can repair presence.
    const server = cluster.pidOf('realtime')!;
    process.kill(server, 'SIGSTOP');
    try {
      await leaving.disconnect();
      await waitFor(
        'the gateway to answer the vacate webhook 503',
        async () => (await lostWebhooks()) > lostBefore,
        60_000,
        250,
      );
      // Repaired while the server that could take the webhook has not run a single instruction: by the sweep.
      const offline = await watcher.waitForEvent(
        workspaceChannel,
        'presence.updated',
        (d) =>
          (d.presence as { actor_id: string; status: string }).actor_id === memberActor &&
          (d.presence as { status: string }).status === 'offline',
        60_000,
      );
      expect(offline.presence).toMatchObject({ actor_id: memberActor, status: 'offline' });
      expect(
        (await db.query('SELECT actor_id FROM realtime.presence WHERE actor_id = $1', [memberActor])).rows,
      ).toEqual([]);
    } finally {
      process.kill(server, 'SIGCONT');
    }
    await waitFor(
      'the member gone from /realtime/presence',
      async () => !(await online(owner)).includes(memberActor),
      30_000,
    );
    // The watcher is subscribed to no channel that makes its owner online: nobody is.
    expect(await online(owner)).toEqual([]);
  });
});
