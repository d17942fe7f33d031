import { randomUUID } from 'node:crypto';
import type { CallContext } from '@wms/kit/context';
import { DomainError, unavailable } from '@wms/kit/errors';
import { describe, expect, it } from 'vitest';
import type { StoredEvent } from './domain/events.ts';
import { type ConversationAccess, EventService } from './events.service.ts';

const conversation = (id: string) => `private-conversation-${id}`;
const workspace = `private-workspace-${randomUUID()}`;

/**
 * The service over a store holding `channels` as events 1, 2, ... (the caller's: the store's own filters are its
 * integration tests'), up to `head`, with messaging letting the caller read `readable` and recording each question.
 */
function serviceOf(o: {
  channels: string[];
  readable?: string[];
  head?: number;
  removedThrough?: number;
  messaging?: ConversationAccess['readable'];
}) {
  const stored: StoredEvent[] = o.channels.map((channel, i) => ({
    id: String(i + 1),
    channel,
    name: 'message.created',
    data: { event_id: randomUUID() },
    createdAt: new Date(),
  }));
  const asked: string[][] = [];
  const readable = new Set(o.readable ?? []);
  const service = new EventService({
    transact: async () => Promise.reject(new Error('no transaction in this test')),
    events: {
      insert: async () => Promise.reject(new Error('no insert in this test')),
      after: async (q) => stored.filter((e) => BigInt(e.id) > BigInt(q.after)).slice(0, q.limit),
      head: async () => String(o.head ?? stored.length),
      removedThrough: async () => String(o.removedThrough ?? 0),
    },
    conversations: {
      readable:
        o.messaging ??
        (async (_ctx, ids) => {
          asked.push(ids);
          return new Set(ids.filter((id) => readable.has(id)));
        }),
    },
    delivery: { nudge: async () => undefined },
  });
  return { service, asked };
}

const ctx: CallContext = {
  requestId: randomUUID(),
  userId: randomUUID(),
  workspaceId: randomUUID(),
  actorId: randomUUID(),
};
const ids = (page: { items: StoredEvent[] }) => page.items.map((e) => e.id);

describe(EventService.name, () => {
  const [mine, theirs, other] = [randomUUID(), randomUUID(), randomUUID()];

  it('leaves out the events of conversations the caller may not read, asking messaging once per page', async () => {
    const { service, asked } = serviceOf({
      channels: [
        conversation(mine),
        conversation(theirs),
        workspace,
        conversation(mine),
        conversation(other),
        conversation(theirs),
      ],
      readable: [mine, other],
    });
    const page = await service.catchUp(ctx, '0', 50);
    expect(ids(page)).toEqual(['1', '3', '4', '5']);
    expect(asked).toEqual([[mine, theirs, other]]);
  });

  it('does not ask messaging about a page without conversation events', async () => {
    const { service, asked } = serviceOf({ channels: [workspace, `private-actor-${ctx.actorId}`] });
    expect(ids(await service.catchUp(ctx, '0', 50))).toEqual(['1', '2']);
    expect(await service.catchUp(ctx, '2', 50)).toEqual({ items: [], nextCursor: '2' });
    expect(asked).toEqual([]);
  });

  it('reads on past the events it left out until the page is full, and cuts it at its limit', async () => {
    const { service, asked } = serviceOf({
      channels: [
        conversation(mine),
        conversation(theirs),
        conversation(theirs),
        conversation(mine),
        workspace,
        workspace,
      ],
      readable: [mine],
    });
    const first = await service.catchUp(ctx, '0', 3);
    expect(first).toEqual({ items: ['1', '4', '5'].map((id) => expect.objectContaining({ id })), nextCursor: '5' });
    expect(asked).toEqual([[mine, theirs], [mine]]);
    expect(await service.catchUp(ctx, first.nextCursor, 3)).toEqual({
      items: [expect.objectContaining({ id: '6' })],
      nextCursor: '6',
    });
  });

  it('answers an empty page whose cursor moves on when every event up to the newest is left out', async () => {
    const { service } = serviceOf({ channels: [conversation(theirs), conversation(theirs), conversation(theirs)] });
    expect(await service.catchUp(ctx, '0', 2)).toEqual({ items: [], nextCursor: '3' });
  });

  it('stops after a bounded number of reads of events left out, its cursor past them, so the client asks again', async () => {
    const { service, asked } = serviceOf({
      channels: [...Array.from({ length: 30 }, () => conversation(theirs)), conversation(mine)],
      readable: [mine],
    });
    const first = await service.catchUp(ctx, '0', 2);
    expect(first).toEqual({ items: [], nextCursor: '20' });
    expect(asked).toHaveLength(10);
    expect(await service.catchUp(ctx, first.nextCursor, 2)).toEqual({
      items: [expect.objectContaining({ id: '31' })],
      nextCursor: '31',
    });
  });

  it('moves a read that is not full on to the head, whatever it left out', async () => {
    const { service } = serviceOf({ channels: [conversation(mine), conversation(theirs)], readable: [mine], head: 9 });
    expect(await service.catchUp(ctx, '0', 50)).toEqual({
      items: [expect.objectContaining({ id: '1' })],
      nextCursor: '9',
    });
    const hidden = serviceOf({ channels: [conversation(mine), conversation(theirs)], head: 9 });
    expect(await hidden.service.catchUp(ctx, '0', 50)).toEqual({ items: [], nextCursor: '9' });
  });

  it('fails rather than leak when messaging cannot answer', async () => {
    const { service } = serviceOf({
      channels: [conversation(mine)],
      messaging: async () => Promise.reject(unavailable()),
    });
    const err = await service.catchUp(ctx, '0', 50).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).kind).toBe('unavailable');
  });

  it('refuses an expired cursor, and starts a client without one at the head', async () => {
    const { service } = serviceOf({ channels: [conversation(mine)], removedThrough: 1 });
    const err = await service.catchUp(ctx, '0', 50).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((err as DomainError).code).toBe('cursor_expired');
    expect(await service.catchUp(ctx, undefined, 50)).toEqual({ items: [], nextCursor: '1' });
  });
});
