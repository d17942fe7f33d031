import { randomUUID } from 'node:crypto';
import { transactor } from '@wms/kit/db';
import { DomainError } from '@wms/kit/errors';
import { waitFor } from '@wms/testkit';
import Pusher from 'pusher';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ProviderError, PusherProvider, pusherClient } from '../src/adapters/pusher.ts';
import { DeliveryService } from '../src/delivery.service.ts';
import { MAX_DATA_BYTES, type NewEvent } from '../src/domain/events.ts';
import { EventStore } from '../src/store/event.store.ts';
import { ctxOf, log, newCaller, type Realtime, startRealtime } from './harness.ts';
import { connectClient, startSoketi, subscribed, type TestSoketi } from './support.ts';

let soketi: TestSoketi;
let rt: Realtime;

beforeAll(async () => {
  soketi = await startSoketi();
  rt = await startRealtime({ provider: soketi.settings });
});

afterAll(async () => {
  await rt?.close();
  await soketi?.destroy();
});

/** An outbox row of a data owner, as its relay sends it. */
const outboxEvent = (o: { workspaceId: string; channel: string; name?: string; payload?: Record<string, unknown> }) => {
  const eventId = randomUUID();
  return {
    source_id: String(Math.floor(Math.random() * 1e12)),
    workspace_id: o.workspaceId,
    channel: o.channel,
    name: o.name ?? 'message.created',
    payload: JSON.stringify({ event_id: eventId, ...o.payload }),
    created_at: new Date().toISOString(),
  };
};

const conversation = () => `private-conversation-${randomUUID()}`;

/** The workspace's events not yet triggered: those above the delivery mark. */
const untriggered = (workspaceId: string) =>
  rt
    .db('events')
    .where({ workspace_id: workspaceId })
    .whereRaw('id > (SELECT triggered_through FROM event_retention)')
    .pluck('id');

/** A pusher-js client subscribed to `channel` (signed with the provider's own SDK), recording what `record` picks of each event. */
async function subscriber(channel: string, record: (name: string, data: { event_id?: string }) => string) {
  const signer = new Pusher({
    appId: soketi.settings.appId,
    key: soketi.settings.key,
    secret: soketi.settings.secret,
    host: '127.0.0.1',
    port: String(soketi.port),
  });
  const client = connectClient(soketi, async (socketId, name) => signer.authorizeChannel(socketId, name));
  const received: string[] = [];
  try {
    const sub = await subscribed(client, channel);
    sub.bind_global((name: string, data: { event_id?: string }) => {
      if (!name.startsWith('pusher:')) received.push(record(name, data));
    });
  } catch (err) {
    client.disconnect();
    throw err;
  }
  return { received, disconnect: () => client.disconnect() };
}

async function refusal(p: Promise<unknown>): Promise<DomainError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DomainError);
  return err as DomainError;
}

/** Every event after `after`, paged to the end. */
async function pageAll(ctx: ReturnType<typeof ctxOf>, after: string, limit = 100) {
  const items: Array<{ cursor: string; channel: string; name: string; data: string }> = [];
  let cursor = after;
  for (;;) {
    const page = await rt.client.ListEvents({ after: cursor, limit }, ctx);
    items.push(...page.items);
    if (page.items.length === 0) return { items, cursor };
    cursor = page.next_cursor;
  }
}

describe('PublishEvents', () => {
  it('stores a retried batch once: a relay that repeats a publish after a lost delete sends nothing twice', async () => {
    const me = newCaller();
    const channel = conversation();
    const events = [
      outboxEvent({ workspaceId: me.workspaceId, channel }),
      outboxEvent({ workspaceId: me.workspaceId, channel }),
    ];
    const { next_cursor: head } = await rt.client.ListEvents({ limit: 0 }, ctxOf(me));
    expect((await rt.client.PublishEvents({ source: 'messaging', events }, ctxOf(me))).accepted).toBe(2);
    const extra = outboxEvent({ workspaceId: me.workspaceId, channel });
    expect(
      (await rt.client.PublishEvents({ source: 'messaging', events: [...events, extra] }, ctxOf(me))).accepted,
    ).toBe(1);
    // The same row id from another source is another event.
    expect((await rt.client.PublishEvents({ source: 'workspace', events: [events[0]!] }, ctxOf(me))).accepted).toBe(1);
    const { items } = await pageAll(ctxOf(me), head);
    expect(items.map((i) => JSON.parse(i.data).event_id)).toEqual(
      [...events, extra, events[0]!].map((e) => JSON.parse(e.payload).event_id),
    );
  });

  it('sends a payload over 10 KB as a reference to what it is about', async () => {
    const me = newCaller();
    const message = { id: randomUUID(), conversation_id: randomUUID(), body_text: 'x'.repeat(MAX_DATA_BYTES) };
    const event = outboxEvent({
      workspaceId: me.workspaceId,
      channel: `private-conversation-${message.conversation_id}`,
      payload: { message },
    });
    const { next_cursor: head } = await rt.client.ListEvents({ limit: 0 }, ctxOf(me));
    await rt.client.PublishEvents({ source: 'messaging', events: [event] }, ctxOf(me));
    const [item] = (await pageAll(ctxOf(me), head)).items;
    expect(JSON.parse(item!.data)).toEqual({
      event_id: JSON.parse(event.payload).event_id,
      ref: { type: 'message', id: message.id, conversation_id: message.conversation_id },
      truncated: true,
    });
  });

  it('refuses a malformed batch whole, naming each bad field', async () => {
    const me = newCaller();
    const good = outboxEvent({ workspaceId: me.workspaceId, channel: conversation() });
    const err = await refusal(
      rt.client.PublishEvents(
        {
          source: 'messaging',
          events: [
            good,
            { ...good, source_id: '2', payload: '[1]' },
            { ...good, source_id: '3', channel: 'public-anything' },
          ],
        },
        ctxOf(me),
      ),
    );
    expect(err).toMatchObject({ kind: 'invalid_argument', code: 'invalid_input' });
    expect(err.details?.map((d) => d.field)).toEqual(['events.1.payload', 'events.2.channel']);
    expect(
      await rt.db('events').where({ workspace_id: me.workspaceId }).count<[{ count: string }]>('* as count'),
    ).toEqual([{ count: '0' }]);
  });
});

describe('ListEvents', () => {
  it('gives no events without a cursor, and the head to start from', async () => {
    const me = newCaller();
    await rt.client.PublishEvents(
      { source: 'messaging', events: [outboxEvent({ workspaceId: me.workspaceId, channel: conversation() })] },
      ctxOf(me),
    );
    const { max } = (await rt.db('events').max('id as max').first()) as { max: string };
    expect(await rt.client.ListEvents({ limit: 0 }, ctxOf(me))).toEqual({ items: [], next_cursor: String(max) });
  });

  it("lists only what the caller could receive: its workspace's channels and its own actor channel, oldest first", async () => {
    const me = newCaller();
    const colleague = newCaller(me.workspaceId);
    const stranger = newCaller();
    const { next_cursor: head } = await rt.client.ListEvents({ limit: 0 }, ctxOf(me));
    const mine = [
      outboxEvent({
        workspaceId: me.workspaceId,
        channel: `private-workspace-${me.workspaceId}`,
        name: 'channel.created',
      }),
      outboxEvent({ workspaceId: me.workspaceId, channel: conversation() }),
      outboxEvent({ workspaceId: me.workspaceId, channel: `private-actor-${me.actorId}`, name: 'read_state.updated' }),
    ];
    const theirs = [
      outboxEvent({
        workspaceId: me.workspaceId,
        channel: `private-actor-${colleague.actorId}`,
        name: 'saved.updated',
      }),
      outboxEvent({
        workspaceId: stranger.workspaceId,
        channel: `private-workspace-${stranger.workspaceId}`,
        name: 'channel.created',
      }),
    ];
    await rt.client.PublishEvents(
      { source: 'messaging', events: [theirs[0]!, mine[0]!, mine[1]!, theirs[1]!, mine[2]!] },
      ctxOf(me),
    );

    const first = await rt.client.ListEvents({ after: head, limit: 2 }, ctxOf(me));
    expect(first.items.map((i) => [i.channel, i.name])).toEqual(mine.slice(0, 2).map((e) => [e.channel, e.name]));
    expect(first.next_cursor).toBe(first.items[1]!.cursor);
    const second = await rt.client.ListEvents({ after: first.next_cursor, limit: 2 }, ctxOf(me));
    expect(second.items.map((i) => JSON.parse(i.data))).toEqual([JSON.parse(mine[2]!.payload)]);
    const last = await rt.client.ListEvents({ after: second.next_cursor, limit: 2 }, ctxOf(me));
    expect(last).toEqual({ items: [], next_cursor: second.next_cursor });
  });

  it('refuses malformed cursors and limits', async () => {
    const ctx = ctxOf(newCaller());
    for (const [after, limit, field] of [
      ['abc', 10, 'query.after'],
      ['-5', 10, 'query.after'],
      ['1', 101, 'query.limit'],
    ] as const) {
      const err = await refusal(rt.client.ListEvents({ after, limit }, ctx));
      expect(err).toMatchObject({ kind: 'invalid_argument', code: 'invalid_input' });
      expect(err.details?.[0]?.field).toBe(field);
    }
  });

  it('never skips an event of a transaction that took its id first and would commit last', async () => {
    const me = newCaller();
    const channel = conversation();
    const ctx = ctxOf(me);
    const { next_cursor: head } = await rt.client.ListEvents({ limit: 0 }, ctx);
    const store = new EventStore(rt.db);
    const row = (name: string): NewEvent => {
      const eventId = randomUUID();
      return {
        eventId,
        source: 'test',
        sourceId: eventId,
        workspaceId: me.workspaceId,
        channel,
        name,
        data: { event_id: eventId },
      };
    };
    // The first transaction stores its event and stays open; a publish starts after it.
    let commitFirst!: () => void;
    let stored!: () => void;
    const firstStored = new Promise<void>((resolve) => (stored = resolve));
    const first = transactor(rt.db)(async (tx) => {
      await store.insert([row('first')], tx);
      stored();
      await new Promise<void>((resolve) => (commitFirst = resolve));
    });
    await firstStored;
    const second = rt.client.PublishEvents(
      { source: 'messaging', events: [outboxEvent({ workspaceId: me.workspaceId, channel, name: 'second' })] },
      ctx,
    );
    // The publish waits for the first transaction instead of taking a later id and committing before it.
    await waitFor('the publish to wait on the events lock', async () => {
      const { rows } = await rt.db.raw<{ rows: unknown[] }>(
        "SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted",
      );
      return rows.length > 0;
    });
    const meanwhile = await rt.client.ListEvents({ after: head, limit: 100 }, ctx);
    expect(meanwhile.items).toEqual([]);
    commitFirst();
    await first;
    await second;
    const after = await rt.client.ListEvents({ after: meanwhile.next_cursor, limit: 100 }, ctx);
    expect(after.items.map((i) => i.name)).toEqual(['first', 'second']);
  });

  it('never skips an event while many publishes commit concurrently and a client pages all along', async () => {
    const me = newCaller();
    const ctx = ctxOf(me);
    const { next_cursor: head } = await rt.client.ListEvents({ limit: 0 }, ctx);
    const batches = Array.from({ length: 30 }, (_, i) =>
      Array.from({ length: 3 }, () =>
        outboxEvent({ workspaceId: me.workspaceId, channel: conversation(), name: `batch-${i}` }),
      ),
    );
    const seen: string[] = [];
    let cursor = head;
    let publishing = true;
    const reader = (async () => {
      while (publishing || seen.length < 90) {
        const page = await rt.client.ListEvents({ after: cursor, limit: 7 }, ctx);
        seen.push(...page.items.map((i) => JSON.parse(i.data).event_id as string));
        cursor = page.next_cursor;
        if (!publishing && page.items.length === 0) break;
      }
    })();
    await Promise.all(
      batches.map((events, i) => rt.client.PublishEvents({ source: i % 2 ? 'messaging' : 'workspace', events }, ctx)),
    );
    publishing = false;
    await reader;
    expect(seen).toHaveLength(90);
    expect(new Set(seen)).toEqual(new Set(batches.flat().map((e) => JSON.parse(e.payload).event_id)));
  });

  it("moves a quiet workspace's cursor on to the newest event, so that others' expired events do not expire it", async () => {
    const quiet = newCaller();
    const busy = newCaller();
    const { next_cursor: start } = await rt.client.ListEvents({ limit: 0 }, ctxOf(quiet));
    await rt.client.PublishEvents(
      { source: 'messaging', events: [outboxEvent({ workspaceId: busy.workspaceId, channel: conversation() })] },
      ctxOf(busy),
    );
    const { max } = (await rt.db('events').max('id as max').first()) as { max: string };
    expect(await rt.client.ListEvents({ after: start, limit: 10 }, ctxOf(quiet))).toEqual({
      items: [],
      next_cursor: String(max),
    });
    // A full page stops at its last item: what lies beyond is the next page's.
    const mine = [0, 1].map(() => outboxEvent({ workspaceId: quiet.workspaceId, channel: conversation() }));
    await rt.client.PublishEvents(
      {
        source: 'messaging',
        events: [...mine, outboxEvent({ workspaceId: busy.workspaceId, channel: conversation() })],
      },
      ctxOf(busy),
    );
    const full = await rt.client.ListEvents({ after: String(max), limit: 2 }, ctxOf(quiet));
    expect(full.items).toHaveLength(2);
    expect(full.next_cursor).toBe(full.items[1]!.cursor);
  });

  it('answers cursor_expired for a cursor below what the retention sweep removed, and pages on from the mark', async () => {
    const me = newCaller();
    const ctx = ctxOf(me);
    const { next_cursor: before } = await rt.client.ListEvents({ limit: 0 }, ctx);
    const events = Array.from({ length: 4 }, () =>
      outboxEvent({ workspaceId: me.workspaceId, channel: conversation() }),
    );
    await rt.client.PublishEvents({ source: 'messaging', events }, ctx);
    await rt.workers.delivery.drain();
    const ids = (await rt.db('events').where({ workspace_id: me.workspaceId }).orderBy('id').pluck('id')).map(String);
    // Stored a day and an hour ago, with every event before them: the first two are past retention, the others not.
    await rt
      .db('events')
      .where('id', '<=', ids[1]!)
      .update({ created_at: new Date(Date.now() - 25 * 3600_000) });
    expect(await rt.workers.delivery.expire(new Date())).toBeGreaterThanOrEqual(2);
    expect(await rt.db('events').whereIn('id', ids).pluck('id')).toHaveLength(2);

    const err = await refusal(rt.client.ListEvents({ after: before, limit: 10 }, ctx));
    expect(err).toMatchObject({ kind: 'gone', code: 'cursor_expired' });
    const fromMark = await rt.client.ListEvents({ after: ids[1]!, limit: 10 }, ctx);
    expect(fromMark.items.map((i) => i.cursor)).toEqual(ids.slice(2));
  });
});

describe('event delivery to the provider (Soketi)', () => {
  afterEach(() => rt.holdDeliveries(false));

  it('delivers what PublishEvents stored from the server role at once, with no worker role and no queue', async () => {
    const me = newCaller();
    const channel = conversation();
    const { received, disconnect } = await subscriber(channel, (name) => name);
    try {
      const events = ['one', 'two'].map((name) => outboxEvent({ workspaceId: me.workspaceId, channel, name }));
      await rt.client.PublishEvents({ source: 'messaging', events }, ctxOf(me));
      await waitFor('both events at the subscriber', () => received.length >= 2, 10_000);
      expect(received).toEqual(['one', 'two']);
      expect(await untriggered(me.workspaceId)).toEqual([]);
      expect(await rt.producers.events.getJobCounts('waiting', 'active', 'delayed')).toMatchObject({
        waiting: 0,
        active: 0,
        delayed: 0,
      });
    } finally {
      disconnect();
    }
  });

  it('takes an API error Soketi answers with HTTP 200 for a failure, and leaves the events waiting', async () => {
    rt.holdDeliveries(true);
    const wrong = { ...soketi.settings, secret: `${soketi.settings.secret}-wrong` };
    // The trap itself: the provider refuses the signature, yet the status is 200.
    const raw = await new Pusher({
      appId: wrong.appId,
      key: wrong.key,
      secret: wrong.secret,
      host: '127.0.0.1',
      port: String(wrong.port),
    }).trigger('private-x', 'e', {});
    expect(raw.status).toBe(200);
    expect(await raw.json()).toHaveProperty('error');

    const me = newCaller();
    await rt.client.PublishEvents(
      { source: 'messaging', events: [outboxEvent({ workspaceId: me.workspaceId, channel: conversation() })] },
      ctxOf(me),
    );
    const failing = new DeliveryService({
      transact: transactor(rt.db),
      events: new EventStore(rt.db),
      provider: new PusherProvider(pusherClient(wrong)),
      log,
    });
    await expect(failing.drain()).rejects.toBeInstanceOf(ProviderError);
    expect(await untriggered(me.workspaceId)).toHaveLength(1);

    await rt.workers.delivery.drain();
    expect(await untriggered(me.workspaceId)).toHaveLength(0);
  });

  it('takes a batch Soketi refuses (an event over its size limit) for a refusal, and a wrong secret for an outage', async () => {
    const provider = new PusherProvider(pusherClient(soketi.settings));
    const err = await provider
      .trigger([{ channel: conversation(), name: 'too.big', data: { blob: 'x'.repeat(200 * 1024) } }])
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).code).toBe(413);
    expect(provider.isRefusal(err)).toBe(true);
    const wrong = new PusherProvider(pusherClient({ ...soketi.settings, secret: `${soketi.settings.secret}-wrong` }));
    const denied = await wrong.trigger([{ channel: conversation(), name: 'e', data: {} }]).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(denied).toBeInstanceOf(ProviderError);
    expect(wrong.isRefusal(denied)).toBe(false);
  });

  it("delivers a member's removal even when the provider cannot close its connections (best effort)", async () => {
    rt.holdDeliveries(true);
    const me = newCaller();
    const provider = new PusherProvider(pusherClient(soketi.settings));
    const failingDisconnect = {
      trigger: provider.trigger.bind(provider),
      isRefusal: provider.isRefusal.bind(provider),
      disconnectUser: async () => Promise.reject(new ProviderError('terminate_connections is not supported here', 404)),
    };
    const removal = outboxEvent({
      workspaceId: me.workspaceId,
      channel: `private-workspace-${me.workspaceId}`,
      name: 'workspace_user.removed',
    });
    const payload = { ...JSON.parse(removal.payload), workspace_user: { actor_id: me.actorId } };
    await rt.client.PublishEvents(
      { source: 'workspace', events: [{ ...removal, payload: JSON.stringify(payload) }] },
      ctxOf(me),
    );
    const delivery = new DeliveryService({
      transact: transactor(rt.db),
      events: new EventStore(rt.db),
      provider: failingDisconnect,
      log,
    });
    expect(await delivery.drain()).toBeGreaterThanOrEqual(1);
    expect(await untriggered(me.workspaceId)).toEqual([]);
  });

  it('leaves out an event the provider refuses, delivering the others of its batch in order, so it holds nothing back', async () => {
    rt.holdDeliveries(true);
    const me = newCaller();
    const channel = conversation();
    const { received, disconnect } = await subscriber(channel, (name) => name);
    try {
      const events = ['first', 'poison', 'last'].map((name) =>
        outboxEvent({ workspaceId: me.workspaceId, channel, name }),
      );
      await rt.client.PublishEvents({ source: 'messaging', events }, ctxOf(me));
      // An event no provider would take (publishing keeps data within the limit: this one was stored some other way).
      await rt
        .db('events')
        .where({ workspace_id: me.workspaceId, name: 'poison' })
        .update({ data: { blob: 'x'.repeat(200 * 1024) } });
      expect(await rt.workers.delivery.drain()).toBe(3);
      await waitFor('the others at the subscriber', () => received.length >= 2, 10_000);
      expect(received).toEqual(['first', 'last']);
      expect(await untriggered(me.workspaceId)).toEqual([]);
    } finally {
      disconnect();
    }
  });

  it('delivers every event to a subscriber in commit order, drained by the server and the worker role in turns, in batches of ten', async () => {
    const me = newCaller();
    const channel = conversation();
    const { received, disconnect } = await subscriber(channel, (_, data) => data.event_id!);
    try {
      await rt.startWorker();
      const events = Array.from({ length: 25 }, (_, i) =>
        outboxEvent({ workspaceId: me.workspaceId, channel, name: `step-${i}` }),
      );
      for (const batch of [events.slice(0, 12), events.slice(12)])
        await rt.client.PublishEvents({ source: 'messaging', events: batch }, ctxOf(me));
      await waitFor('all 25 events at the subscriber', () => received.length >= 25, 15_000);
      expect(received).toEqual(events.map((e) => JSON.parse(e.payload).event_id));
    } finally {
      disconnect();
      await rt.stopWorker();
    }
  });

  it('delivers what was published while the provider was down once it is back', async () => {
    const me = newCaller();
    await soketi.stop();
    try {
      await rt.client.PublishEvents(
        { source: 'messaging', events: [outboxEvent({ workspaceId: me.workspaceId, channel: conversation() })] },
        ctxOf(me),
      );
      await expect(rt.workers.delivery.drain()).rejects.toBeInstanceOf(ProviderError);
    } finally {
      await soketi.start();
    }
    expect(await rt.workers.delivery.drain()).toBeGreaterThanOrEqual(1);
    expect(await untriggered(me.workspaceId)).toEqual([]);
  });
});
