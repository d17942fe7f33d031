import { createHmac, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { DomainError } from '@wms/kit/errors';
import { waitFor } from '@wms/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkspaceClient } from '../src/adapters/peers.ts';
import { ctxOf, newCaller, type Realtime, startRealtime, type TestCaller } from './harness.ts';
import { connectClient, startSoketi, startWebhookReceiver, subscribed, type TestSoketi } from './support.ts';

let soketi: TestSoketi;
let rt: Realtime;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

const workspace = {
  GetActorsByIds: async ({ ids }: { ids: string[] }) => ({
    actors: ids.map((id) => ({ id, display_name: `actor ${id.slice(0, 4)}` })),
  }),
} as unknown as WorkspaceClient;

beforeAll(async () => {
  // The receiver stands in for the gateway's webhook route: raw body and headers, handed to AcceptWebhook.
  receiver = await startWebhookReceiver(async (w) => {
    await rt.client.AcceptWebhook(
      { raw_body: w.rawBody, key: w.key, signature: w.signature, content_type: 'application/json' },
      { requestId: randomUUID() },
    );
  });
  soketi = await startSoketi({ webhookUrl: receiver.url });
  // The sweep runs only when a test asks for it.
  rt = await startRealtime({ provider: soketi.settings, workspace, env: { PRESENCE_SWEEP_MS: String(3600_000) } });
});

afterAll(async () => {
  await rt?.close();
  await soketi?.destroy();
  await receiver?.close();
});

const sign = (body: Buffer, secret = soketi.settings.secret) => createHmac('sha256', secret).update(body).digest('hex');
const webhook = (events: unknown[]) => Buffer.from(JSON.stringify({ time_ms: Date.now(), events }));

async function refusal(p: Promise<unknown>): Promise<DomainError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DomainError);
  return err as DomainError;
}

/** A pusher-js client of `who`, authorized by the realtime service. */
const clientOf = (who: TestCaller) =>
  connectClient(soketi, async (socket, channel) => {
    const res = await rt.client.AuthorizeChannel({ socket_id: socket, channel_name: channel }, ctxOf(who));
    return { auth: res.auth, ...(res.channel_data ? { channel_data: res.channel_data } : {}) };
  });

/** `subscribed`, subscribing again (up to three tries in all) when the answer was 503 "try again shortly". */
async function subscribedAgain(client: ReturnType<typeof connectClient>, channel: string): Promise<unknown> {
  for (let tries = 1; ; tries++) {
    try {
      return await subscribed(client, channel);
    } catch (err) {
      if (tries === 3 || !(err instanceof Error) || !err.message.includes('try again shortly')) throw err;
      client.unsubscribe(channel);
      await sleep(200);
    }
  }
}

const onlineIn = async (who: TestCaller) => (await rt.client.ListPresence({}, ctxOf(who))).items;
const presenceEvents = (workspaceId: string) =>
  rt
    .db('events')
    .where({ workspace_id: workspaceId, name: 'presence.updated' })
    .orderBy('id')
    .select('channel', 'data');

describe('AcceptWebhook', () => {
  it('refuses a wrong key, a wrong signature and a tampered body with invalid_signature', async () => {
    const body = webhook([{ name: 'channel_occupied', channel: `private-actor-${randomUUID()}` }]);
    const ctx = { requestId: 'r' };
    for (const [raw, key, signature] of [
      [body, 'other-key', sign(body)],
      [body, soketi.settings.key, sign(body, 'other-secret')],
      [Buffer.concat([body, Buffer.from(' ')]), soketi.settings.key, sign(body)],
      [body, soketi.settings.key, ''],
    ] as const) {
      expect(
        await refusal(
          rt.client.AcceptWebhook({ raw_body: raw, key, signature, content_type: 'application/json' }, ctx),
        ),
      ).toMatchObject({
        kind: 'unauthenticated',
        code: 'invalid_signature',
      });
    }
  });

  it('refuses a signed body that is not a webhook', async () => {
    const body = Buffer.from('["not", "a", "webhook"]');
    expect(
      await refusal(
        rt.client.AcceptWebhook(
          { raw_body: body, key: soketi.settings.key, signature: sign(body) },
          { requestId: 'r' },
        ),
      ),
    ).toMatchObject({
      code: 'invalid_input',
    });
  });

  it('queues one check per webhook, however often it is delivered, and none for channels it does not track', async () => {
    const body = webhook([{ name: 'channel_occupied', channel: `private-actor-${randomUUID()}` }]);
    const signature = sign(body);
    for (let i = 0; i < 3; i++)
      await rt.client.AcceptWebhook({ raw_body: body, key: soketi.settings.key, signature }, { requestId: 'r' });
    const jobs = await rt.producers.occupancy.getJobs([
      'waiting',
      'active',
      'completed',
      'delayed',
      'failed',
      'prioritized',
    ]);
    expect(jobs.filter((j) => j.id === `webhook-${signature}`).map((j) => j.data)).toEqual([
      { channels: [JSON.parse(body.toString()).events[0].channel] },
    ]);

    const ignored = webhook([
      { name: 'channel_occupied', channel: '#server-to-user-x' },
      { name: 'client_event', channel: `private-actor-${randomUUID()}` },
    ]);
    await rt.client.AcceptWebhook(
      { raw_body: ignored, key: soketi.settings.key, signature: sign(ignored) },
      { requestId: 'r' },
    );
    expect(await rt.producers.occupancy.getJob(`webhook-${sign(ignored)}`)).toBeUndefined();
  });
});

describe('presence from Soketi (webhooks as hints, the provider as the truth)', () => {
  beforeAll(() => rt.startWorker());
  afterAll(() => rt.stopWorker());

  it('shows an actor online while its actor channel is occupied or it is a presence member, and tells the workspace', async () => {
    const alice = newCaller();
    const bob = newCaller(alice.workspaceId);
    const observer = newCaller(alice.workspaceId);
    const watching = clientOf(observer);
    const seen: Array<{ actor_id: string; status: string }> = [];
    const a = clientOf(alice);
    const b = clientOf(bob);
    try {
      (await subscribed(watching, `private-workspace-${alice.workspaceId}`)).bind(
        'presence.updated',
        (d: { presence: { actor_id: string; status: string } }) =>
          seen.push({ actor_id: d.presence.actor_id, status: d.presence.status }),
      );
      await subscribed(a, `private-actor-${alice.actorId}`);
      await waitFor('alice online', async () => (await onlineIn(observer)).some((p) => p.actor_id === alice.actorId));
      await subscribed(b, `presence-workspace-${alice.workspaceId}`);
      await waitFor('bob online', async () => (await onlineIn(observer)).length === 2);
      const online = await onlineIn(observer);
      expect(online.map((p) => [p.actor_id, p.status])).toEqual([
        [alice.actorId, 'online'],
        [bob.actorId, 'online'],
      ]);
      expect(online.every((p) => !Number.isNaN(Date.parse(p.since)))).toBe(true);

      a.disconnect();
      await waitFor('alice offline', async () => !(await onlineIn(observer)).some((p) => p.actor_id === alice.actorId));
      b.disconnect();
      await waitFor('bob offline', async () => (await onlineIn(observer)).length === 0);

      const expected = [
        { actor_id: alice.actorId, status: 'online' },
        { actor_id: bob.actorId, status: 'online' },
        { actor_id: alice.actorId, status: 'offline' },
        { actor_id: bob.actorId, status: 'offline' },
      ];
      const stored = await presenceEvents(alice.workspaceId);
      expect(stored.map((e) => e.channel)).toEqual(Array(4).fill(`private-workspace-${alice.workspaceId}`));
      expect(stored.map((e) => ({ actor_id: e.data.presence.actor_id, status: e.data.presence.status }))).toEqual(
        expected,
      );
      expect(stored.every((e) => typeof e.data.event_id === 'string')).toBe(true);
      await waitFor('presence.updated at the workspace channel', () => seen.length >= 4, 10_000);
      expect(seen).toEqual(expected);
    } finally {
      for (const c of [a, b, watching]) c.disconnect();
    }
  });

  it('repairs a lost webhook with the sweep', async () => {
    const carol = newCaller();
    const c = clientOf(carol);
    receiver.dropping = true;
    try {
      const before = receiver.received;
      await subscribed(c, `private-actor-${carol.actorId}`);
      await waitFor('the webhook to be sent (and lost)', () => receiver.received > before);
      expect(await onlineIn(carol)).toEqual([]);
      expect(await rt.workers.occupancy.sweep()).toBe(1);
      expect((await onlineIn(carol)).map((p) => p.actor_id)).toEqual([carol.actorId]);

      const sent = receiver.received;
      c.disconnect();
      await waitFor('the vacate webhook to be sent (and lost)', () => receiver.received > sent);
      // The first sweep that misses her only marks her missing (a provider of several nodes may have answered in
      // part); the next one that misses her too takes her offline.
      expect(await rt.workers.occupancy.sweep()).toBe(0);
      expect((await onlineIn(carol)).map((p) => p.actor_id)).toEqual([carol.actorId]);
      expect(await rt.workers.occupancy.sweep()).toBe(1);
      expect(await onlineIn(carol)).toEqual([]);
    } finally {
      receiver.dropping = false;
      c.disconnect();
    }
  });

  it("lists a workspace of 1,000 online actors, far beyond the presence channel's 100 members", async () => {
    const first = newCaller();
    const members = [first, ...Array.from({ length: 999 }, () => newCaller(first.workspaceId))];
    const clients = members.map(clientOf);
    try {
      // A hundred subscriptions at a time. The claim is the listing of 1,000. Each authorization records the actor's
      // workspace through one pool of 10 connections, beside the webhooks the subscriptions bring, in this process
      // beside the 1,000 clients; on a loaded machine some wait longer than the pool's 5 s acquire timeout and answer
      // 503 "try again shortly", as designed, and the client tries again as it is told.
      for (let i = 0; i < clients.length; i += 100) {
        await Promise.all(
          clients.slice(i, i + 100).map((c, j) => subscribedAgain(c, `private-actor-${members[i + j]!.actorId}`)),
        );
      }
      await waitFor('1,000 actors online', async () => (await onlineIn(first)).length === 1000, 90_000, 500);
      // The sweep agrees with what the webhooks made.
      expect(await rt.workers.occupancy.sweep()).toBe(0);
    } finally {
      for (const c of clients) c.disconnect();
    }
    await waitFor('all offline again', async () => (await onlineIn(first)).length === 0, 90_000, 500);
  }, 240_000);
});
