import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dropRedisPrefix, waitFor } from '@wms/testkit';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pusherClient, PusherProvider } from '../src/adapters/pusher.ts';
import type { WorkspaceClient } from '../src/adapters/peers.ts';
import { ctxOf, newCaller, type Realtime, startRealtime, type TestCaller } from './harness.ts';
import { connectClient, startSoketi, subscribed, type TestSoketi } from './support.ts';

// Two Soketi nodes sharing one Redis (its Redis adapter and rate limiter, as the chart runs several replicas), clients
// on node A, the realtime service's provider calls (the sweeps) on node B. Node B answers a listing with its own
// channels and what the other nodes answer within the adapter's requests timeout: a node that does not answer (here A,
// frozen with SIGSTOP) is left out of the answer, which nothing marks as partial.

// The machine's Redis, not a cluster: Soketi's adapter here runs against one Redis server.
const redisUrl = new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
// Below the realtime service's 5 s timeout for provider calls, so that A's silence comes back as a partial answer and
// not as a failed call.
const REQUESTS_TIMEOUT_MS = 3000;
const prefix = `test-soketi-${randomBytes(6).toString('hex')}`;
const sharedRedis: Record<string, string> = {
  SOKETI_ADAPTER_DRIVER: 'redis',
  SOKETI_ADAPTER_REDIS_PREFIX: prefix,
  SOKETI_ADAPTER_REDIS_REQUESTS_TIMEOUT: String(REQUESTS_TIMEOUT_MS),
  SOKETI_RATE_LIMITER_DRIVER: 'redis',
  SOKETI_DB_REDIS_HOST: redisUrl.hostname,
  SOKETI_DB_REDIS_PORT: redisUrl.port || '6379',
  SOKETI_DB_REDIS_DB: redisUrl.pathname.slice(1) || '0',
  SOKETI_DB_REDIS_KEY_PREFIX: `${prefix}:`,
  ...(redisUrl.password ? { SOKETI_DB_REDIS_PASSWORD: decodeURIComponent(redisUrl.password) } : {}),
  // A limit, so that the rate limiter counts (in Redis) every read of the HTTP API; far above what this file sends.
  SOKETI_DEFAULT_APP_MAX_READ_REQ_PER_SEC: '100000',
};

let a: TestSoketi;
let b: TestSoketi;
let rt: Realtime;
let redis: Redis;
/** The provider as the realtime service reaches it: node B. */
let provider: PusherProvider;
/** Node A's own API, whose answers always hold A's own channels. */
let providerA: PusherProvider;

const workspace = {
  GetActorsByIds: async ({ ids }: { ids: string[] }) => ({ actors: ids.map((id) => ({ id, display_name: 'x' })) }),
} as unknown as WorkspaceClient;

beforeAll(async () => {
  redis = new Redis(redisUrl.toString(), { maxRetriesPerRequest: 1 });
  a = await startSoketi({ env: sharedRedis });
  b = await startSoketi({ app: a.settings, env: sharedRedis });
  // B asks as many nodes as are subscribed to the adapter's request channel: both, before anything is asked.
  await waitFor('both nodes subscribed to the adapter', async () => {
    const [, count] = (await redis.pubsub('NUMSUB', `${prefix}#redis-adapter#comms#req`)) as [string, number];
    return Number(count) === 2;
  });
  // No worker: this file runs each sweep itself, and no webhook is sent.
  rt = await startRealtime({ provider: b.settings, workspace, env: { PRESENCE_SWEEP_MS: String(3600_000) } });
  provider = new PusherProvider(pusherClient(b.settings));
  providerA = new PusherProvider(pusherClient(a.settings));
}, 60_000);

afterAll(async () => {
  // A node left frozen by a failed test would not stop on SIGTERM.
  for (const node of [a, b]) if (node?.settings) resume(node);
  await rt?.close();
  await a?.destroy();
  await b?.destroy();
  await dropRedisPrefix(redisUrl.toString(), prefix);
  await redis?.quit();
});

/** A pusher-js client of `who` on node A, authorized by the realtime service. */
const clientOnA = (who: TestCaller) =>
  connectClient(a, async (socket, channel) => {
    const res = await rt.client.AuthorizeChannel({ socket_id: socket, channel_name: channel }, ctxOf(who));
    return { auth: res.auth, ...(res.channel_data ? { channel_data: res.channel_data } : {}) };
  });

const onlineIn = async (who: TestCaller) =>
  (await rt.client.ListPresence({}, ctxOf(who))).items.map((p) => p.actor_id).sort();
const missingSince = async (who: TestCaller): Promise<Date | null | undefined> =>
  (await rt.db('presence').where({ actor_id: who.actorId }).first('missing_since'))?.missing_since;
const presenceEvents = async (who: TestCaller) =>
  (
    await rt
      .db('events')
      .where({ workspace_id: who.workspaceId, name: 'presence.updated' })
      .orderBy('id')
      .select<Array<{ data: { presence: { actor_id: string; status: string } } }>>('data')
  )
    .map((e) => e.data.presence)
    .filter((p) => p.actor_id === who.actorId)
    .map((p) => p.status);

function resume(node: TestSoketi): void {
  try {
    process.kill(node.pid, 'SIGCONT');
  } catch {
    // Not running.
  }
}

/** Whether node B lists the actor's channel: a read that changes nothing, to see that A answers B again. */
const listedByB = async (who: TestCaller) =>
  (await provider.occupiedChannels('private-actor-')).includes(`private-actor-${who.actorId}`);

/** Linux's state letter of a process (`T`: stopped by a signal). */
const processState = (pid: number) => /^\d+ \(.*\) (\S)/s.exec(readFileSync(`/proc/${pid}/stat`, 'utf8'))![1];

describe('presence with two Soketi nodes sharing Redis', () => {
  const alice = newCaller();
  const bob = newCaller(alice.workspaceId);
  const clients: Array<ReturnType<typeof connectClient>> = [];
  afterAll(() => clients.forEach((c) => c.disconnect()));

  it("lists, through node B, an actor connected to node A only, and counts B's reads in Redis", async () => {
    const c = clientOnA(alice);
    clients.push(c);
    await subscribed(c, `private-actor-${alice.actorId}`);
    await subscribed(c, `presence-workspace-${alice.workspaceId}`);
    await waitFor('node B to list her channel', () => listedByB(alice));
    expect(await rt.workers.occupancy.sweep()).toBe(1);
    expect(await onlineIn(alice)).toEqual([alice.actorId]);
    expect(await missingSince(alice)).toBeNull();
    // The rate limiter's counters (a second long) are in the shared Redis, under the nodes' key prefix.
    await waitFor('a read counted in Redis', async () => {
      await provider.occupiedChannels('private-actor-');
      return (await redis.keys(`${prefix}:*`)).some((k) => k.includes(`app:${a.settings.appId}`));
    });
  });

  it('keeps an actor online through a sweep made while its node is frozen', { timeout: 60_000 }, async () => {
    process.kill(a.pid, 'SIGSTOP');
    try {
      await waitFor('node A stopped', () => processState(a.pid) === 'T');
      // The whole sweep runs while A is stopped: B answers it without A's channels, after its requests timeout.
      expect(await rt.workers.occupancy.sweep()).toBe(0);
      expect(await onlineIn(alice)).toEqual([alice.actorId]);
      // The sweep did miss her: the answer was partial.
      expect(await missingSince(alice)).toBeInstanceOf(Date);
    } finally {
      process.kill(a.pid, 'SIGCONT');
    }
    await waitFor('node A running', () => processState(a.pid) !== 'T');

    // The canary: a second actor comes online on A, and a sweep through B lists both.
    const c = clientOnA(bob);
    clients.push(c);
    await subscribed(c, `private-actor-${bob.actorId}`);
    // A answers B again (were it still too slow, the next sweep would be the second to miss alice).
    await waitFor('node B to list his channel', () => listedByB(bob));
    expect(await rt.workers.occupancy.sweep()).toBe(1);
    expect(await onlineIn(alice)).toEqual([alice.actorId, bob.actorId].sort());
    expect(await missingSince(alice)).toBeNull();
    expect(await presenceEvents(alice)).toEqual(['online']);
    expect(await presenceEvents(bob)).toEqual(['online']);
  });

  it('takes an actor that disconnected offline on the second sweep that misses it', async () => {
    clients.shift()!.disconnect();
    // Asked of A itself, whose answer always holds its own sockets: she is gone from the provider.
    await waitFor('node A to no longer have her', async () => {
      const [occupied, members] = await Promise.all([
        providerA.isOccupied(`private-actor-${alice.actorId}`),
        providerA.members(`presence-workspace-${alice.workspaceId}`),
      ]);
      return !occupied && !members.includes(alice.actorId);
    });
    expect(await rt.workers.occupancy.sweep()).toBe(0);
    expect(await onlineIn(alice)).toEqual([alice.actorId, bob.actorId].sort());
    expect(await missingSince(alice)).toBeInstanceOf(Date);
    expect(await rt.workers.occupancy.sweep()).toBe(1);
    expect(await onlineIn(alice)).toEqual([bob.actorId]);
    expect(await presenceEvents(alice)).toEqual(['online', 'offline']);
    expect(await presenceEvents(bob)).toEqual(['online']);
  });
});
