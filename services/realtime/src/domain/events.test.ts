import { randomUUID } from 'node:crypto';
import { DomainError } from '@wms/kit/errors';
import { describe, expect, it } from 'vitest';
import { catchUpQuery, eventsToStore, MAX_DATA_BYTES, referenceOf, triggeredData } from './events.ts';

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
    expect(referenceOf('thread.updated', { event_id: 'e', conversation_id: conversationId, root_id: id })).toEqual({ type: 'thread', id, conversation_id: conversationId });
    expect(referenceOf('reactions.updated', { event_id: 'e', conversation_id: conversationId, reactions: { message_id: id } })).toEqual({
      type: 'reactions',
      id,
      conversation_id: conversationId,
    });
    expect(referenceOf('read_state.updated', { event_id: 'e', read_state: { conversation_id: conversationId, thread_root_id: null } })).toEqual({
      type: 'read_state',
      id: conversationId,
      conversation_id: conversationId,
    });
  });

  it('names the resource of a workspace event', () => {
    expect(referenceOf('workspace_user.added', { event_id: 'e', workspace_user: { id } })).toEqual({ type: 'workspace_user', id, conversation_id: null });
    expect(referenceOf('channel.created', { event_id: 'e', channel: { id, conversation_id: id } })).toEqual({ type: 'channel', id, conversation_id: id });
  });
});

describe('eventsToStore', () => {
  const event = (over: Partial<{ sourceId: string; workspaceId: string; channel: string; name: string; payload: Record<string, unknown> | undefined }> = {}) => ({
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
    expect(stored.map((e) => [e.sourceId, e.eventId])).toEqual(events.map((e) => [e.sourceId, e.payload!.event_id]));
  });

  it('refuses the whole batch, naming every bad field', () => {
    const err = (() => {
      try {
        eventsToStore('Messaging', [event(), event({ channel: '#server-to-user-1', payload: { event_id: 'nope' } }), event({ payload: undefined, workspaceId: 'w' })]);
      } catch (e) {
        return e;
      }
    })() as DomainError;
    expect(err).toBeInstanceOf(DomainError);
    expect(err.details?.map((d) => d.field)).toEqual(['source', 'events.1.channel', 'events.1.payload', 'events.2.workspace_id', 'events.2.payload']);
  });
});

describe('catchUpQuery', () => {
  it('defaults the limit and takes decimal cursors', () => {
    expect(catchUpQuery(undefined, 0)).toEqual({ after: undefined, limit: 50 });
    expect(catchUpQuery('0', 100)).toEqual({ after: '0', limit: 100 });
    expect(catchUpQuery('123456789012345678', 1)).toEqual({ after: '123456789012345678', limit: 1 });
  });

  it('refuses malformed cursors and limits', () => {
    for (const [after, limit] of [['', 1], ['-1', 1], ['01', 1], ['1e3', 1], ['1234567890123456789', 1], ['1', 101], ['1', -1]] as const) {
      expect(() => catchUpQuery(after, limit), `${after} ${limit}`).toThrow(DomainError);
    }
  });
});
