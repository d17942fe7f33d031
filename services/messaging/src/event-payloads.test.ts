import { describe, expect, it } from 'vitest';
import { outboxEventOf } from './event-payloads.ts';

const ws = '0190a0d8-0000-7000-8000-000000000001';
const actor = '0190a0d8-0000-7000-8000-000000000002';
const conv = '0190a0d8-0000-7000-8000-000000000003';
const msg = '0190a0d8-0000-7000-8000-000000000004';
const at = new Date('2026-11-24T10:00:00.000Z');

describe('outbox events (contract §7)', () => {
  it('puts a workspace change on the workspace channel, with the resource as clients see it', () => {
    const e = outboxEventOf({ type: 'channel.created', channel: { id: conv, workspaceId: ws, name: 'general', topic: null, createdByActorId: actor, createdAt: at, updatedAt: at } });
    expect(e).toEqual({
      workspaceId: ws,
      channel: `private-workspace-${ws}`,
      event: 'channel.created',
      payload: {
        event_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        channel: { id: conv, workspace_id: ws, conversation_id: conv, name: 'general', topic: null, created_by_actor_id: actor, created_at: at.toISOString(), updated_at: at.toISOString() },
      },
    });
  });

  it("puts an actor's own state on its actor channel, each event with a fresh event_id", () => {
    const saved = { type: 'saved.updated', workspaceId: ws, actorId: actor, saved: { messageId: msg, savedAt: at } } as const;
    const [a, b] = [outboxEventOf(saved), outboxEventOf(saved)];
    expect(a).toMatchObject({ workspaceId: ws, channel: `private-actor-${actor}`, event: 'saved.updated', payload: { saved: { message_id: msg, saved: true, saved_at: at.toISOString() } } });
    expect(a.payload.event_id).not.toBe(b.payload.event_id);
  });
});
