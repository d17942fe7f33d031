import { randomUUID } from 'node:crypto';
import { DomainError } from '@wms/kit/errors';
import { describe, expect, it } from 'vitest';
import {
  catchUpQuery,
  conversationIdsOf,
  eventsToStore,
  MAX_DATA_BYTES,
  readableEvents,
  referenceOf,
  removedActorsOf,
  triggeredData,
} from './events.ts';

const big = 'x'.repeat(MAX_DATA_BYTES);

describe('triggeredData', () => {
  it('sends a payload within the limit as it is', () => {
    const payload = { event_id: randomUUID(), channel: { id: randomUUID(), name: 'general' } };
    expect(triggeredData('channel.created', payload)).toBe(payload);
  });

  it('sends a reference instead of a payload over the limit', () => {
    const eventId = randomUUID();
    const message = { id: randomUUID(), conversation_id: randomUUID(), body_text: big };
    expect(triggeredData('message.created', { event_id: eventId, message })).toEqual({
      event_id: eventId,
      ref: { type: 'message', id: message.id, conversation_id: message.conversation_id },
      truncated: true,
    });
  });
});

describe('referenceOf', () => {
  const conversationId = randomUUID();
  const id = randomUUID();

  it('names what each conversation event is about', () => {
    expect(referenceOf('thread.updated', { event_id: 'e', conversation_id: conversationId, root_id: id })).toEqual({
      type: 'thread',
      id,
      conversation_id: conversationId,
    });
    expect(
      referenceOf('reactions.updated', {
        event_id: 'e',
        conversation_id: conversationId,
        reactions: { message_id: id },
      }),
    ).toEqual({
      type: 'reactions',
      id,
      conversation_id: conversationId,
    });
    expect(
      referenceOf('read_state.updated', {
        event_id: 'e',
        read_state: { conversation_id: conversationId, thread_root_id: null },
      }),
    ).toEqual({
      type: 'read_state',
      id: conversationId,
      conversation_id: conversationId,
    });
  });

  it('names the resource of a workspace event', () => {
    expect(referenceOf('workspace_user.added', { event_id: 'e', workspace_user: { id } })).toEqual({
      type: 'workspace_user',
      id,
      conversation_id: null,
    });
    expect(referenceOf('channel.created', { event_id: 'e', channel: { id, conversation_id: id } })).toEqual({
      type: 'channel',
      id,
      conversation_id: id,
    });
  });
});

describe('eventsToStore', () => {
  const event = (
    over: Partial<{
      sourceId: string;
      workspaceId: string;
      channel: string;
      name: string;
      payload: Record<string, unknown> | undefined;
    }> = {},
  ) => ({
    sourceId: '1',
    workspaceId: randomUUID(),
    channel: `private-conversation-${randomUUID()}`,
    name: 'message.created',
    payload: { event_id: randomUUID() },
    ...over,
  });

  it('keeps the order and takes the event id from the payload', () => {
    const events = [event({ sourceId: '1' }), event({ sourceId: '2' })];
    const stored = eventsToStore('messaging', events);
    expect(stored.map((e) => [e.sourceId, e.eventId])).toEqual(events.map((e) => [e.sourceId, e.payload.event_id]));
  });

  it('refuses the whole batch, naming every bad field', () => {
    const err = (() => {
      try {
        eventsToStore('Messaging', [
          event(),
          event({ channel: '#server-to-user-1', payload: { event_id: 'nope' } }),
          event({ payload: undefined, workspaceId: 'w' }),
        ]);
      } catch (e) {
        return e;
      }
    })() as DomainError;
    expect(err).toBeInstanceOf(DomainError);
    expect(err.details?.map((d) => d.field)).toEqual([
      'source',
      'events.1.channel',
      'events.1.payload',
      'events.2.workspace_id',
      'events.2.payload',
    ]);
  });
});

describe('catchUpQuery', () => {
  it('defaults the limit and takes decimal cursors', () => {
    expect(catchUpQuery(undefined, 0)).toEqual({ after: undefined, limit: 50 });
    expect(catchUpQuery('0', 100)).toEqual({ after: '0', limit: 100 });
    expect(catchUpQuery('123456789012345678', 1)).toEqual({ after: '123456789012345678', limit: 1 });
  });

  it('refuses malformed cursors and limits', () => {
    for (const [after, limit] of [
      ['', 1],
      ['-1', 1],
      ['01', 1],
      ['1e3', 1],
      ['1234567890123456789', 1],
      ['1', 101],
      ['1', -1],
    ] as const) {
      expect(() => catchUpQuery(after, limit), `${after} ${limit}`).toThrow(DomainError);
    }
  });
});

describe('removedActorsOf', () => {
  const actorId = randomUUID();
  const conversationId = randomUUID();
  const memberRemoved = (kind: string, channel: string, actor: string = actorId) => ({
    channel,
    name: 'channel_member.removed',
    data: {
      event_id: randomUUID(),
      member: {
        channel_id: conversationId,
        actor_id: actor,
        added_by_actor_id: null,
        joined_at: '2026-12-01T00:00:00.000Z',
      },
      conversation_kind: kind,
    },
  });

  it('closes an actor removed from the workspace', () => {
    expect(
      removedActorsOf([
        {
          channel: `private-workspace-${randomUUID()}`,
          name: 'workspace_user.removed',
          data: { event_id: 'e', workspace_user: { actor_id: actorId } },
        },
      ]),
    ).toEqual([actorId]);
  });

  it('closes a deactivated agent, not an active one nor a user actor', () => {
    const updated = (actor: Record<string, unknown>) => ({
      channel: `private-workspace-${randomUUID()}`,
      name: 'actor.updated',
      data: { event_id: 'e', actor: { id: actorId, ...actor } },
    });
    expect(removedActorsOf([updated({ kind: 'agent', deactivated_at: '2026-12-01T00:00:00.000Z' })])).toEqual([
      actorId,
    ]);
    expect(
      removedActorsOf([
        updated({ kind: 'agent', deactivated_at: null }),
        updated({ kind: 'user', deactivated_at: '2026-12-01T00:00:00.000Z' }),
      ]),
    ).toEqual([]);
  });

  it('closes an actor removed from a private or direct conversation, on its own channel only', () => {
    for (const kind of ['private', 'direct']) {
      expect(
        removedActorsOf([
          memberRemoved(kind, `private-conversation-${conversationId}`),
          memberRemoved(kind, `private-actor-${actorId}`),
        ]),
        kind,
      ).toEqual([actorId]);
    }
  });

  it('leaves a public conversation, an unknown kind, a copy on another channel and other events alone', () => {
    const other = randomUUID();
    expect(
      removedActorsOf([
        memberRemoved('public', `private-actor-${actorId}`),
        memberRemoved('secret', `private-actor-${actorId}`),
        {
          ...memberRemoved('private', `private-actor-${actorId}`),
          data: { event_id: 'e', member: { actor_id: actorId } },
        },
        memberRemoved('private', `private-conversation-${conversationId}`),
        memberRemoved('private', `private-actor-${other}`),
        memberRemoved('private', `private-actor-nope`, 'nope'),
        { ...memberRemoved('private', `private-actor-${actorId}`), name: 'channel_member.added' },
        {
          channel: `private-actor-${actorId}`,
          name: 'channel_member.removed',
          data: { event_id: 'e', ref: { type: 'member', id: actorId, conversation_id: null }, truncated: true },
        },
      ]),
    ).toEqual([]);
  });

  it('names each actor once per batch, in the order of the events', () => {
    const second = randomUUID();
    expect(
      removedActorsOf([
        memberRemoved('direct', `private-actor-${second}`, second),
        memberRemoved('private', `private-actor-${actorId}`),
        {
          channel: `private-workspace-${randomUUID()}`,
          name: 'workspace_user.removed',
          data: { event_id: 'e', workspace_user: { actor_id: second } },
        },
        memberRemoved('private', `private-actor-${actorId}`),
      ]),
    ).toEqual([second, actorId]);
  });
});

describe('conversationIdsOf and readableEvents', () => {
  const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
  const events = [
    { id: '1', channel: `private-conversation-${a}` },
    { id: '2', channel: `private-workspace-${randomUUID()}` },
    { id: '3', channel: `private-conversation-${b}` },
    { id: '4', channel: `private-actor-${randomUUID()}` },
    { id: '5', channel: `private-conversation-${a}` },
    { id: '6', channel: `private-conversation-${c}` },
  ];

  it('names the distinct conversations of the conversation channels, in order', () => {
    expect(conversationIdsOf(events)).toEqual([a, b, c]);
    expect(conversationIdsOf(events.filter((e) => !e.channel.startsWith('private-conversation-')))).toEqual([]);
  });

  it('keeps the other channels and the readable conversations, in order', () => {
    expect(readableEvents(events, new Set([a])).map((e) => e.id)).toEqual(['1', '2', '4', '5']);
    expect(readableEvents(events, new Set()).map((e) => e.id)).toEqual(['2', '4']);
    expect(readableEvents(events, new Set([a, b, c]))).toEqual(events);
  });
});
