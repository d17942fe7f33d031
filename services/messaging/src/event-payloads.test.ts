import { describe, expect, it } from 'vitest';
import type { Channel } from './domain/channel.ts';
import { outboxEntriesOf } from './event-payloads.ts';

const ws = '0190a0d8-0000-7000-8000-000000000001';
const actor = '0190a0d8-0000-7000-8000-000000000002';
const conv = '0190a0d8-0000-7000-8000-000000000003';
const msg = '0190a0d8-0000-7000-8000-000000000004';
const other = '0190a0d8-0000-7000-8000-000000000005';
const at = new Date('2026-11-24T10:00:00.000Z');

const channel = (kind: Channel['kind']): Channel => ({
  id: conv,
  workspaceId: ws,
  kind,
  name: kind === 'direct' ? null : 'general',
  topic: null,
  createdByActorId: actor,
  memberCount: 2,
  isMember: true,
  participantActorIds: kind === 'direct' ? [actor, other] : [],
  lastMessageAt: null,
  archivedAt: null,
  createdAt: at,
  updatedAt: at,
});

describe('outbox events (contract §7, §9)', () => {
  it("puts a public channel's change on the workspace channel, as clients see it, without the sender's is_member", () => {
    const [e, ...rest] = outboxEntriesOf({ type: 'channel.created', channel: channel('public'), memberIds: [] });
    expect(rest).toEqual([]);
    expect(e).toEqual({
      workspaceId: ws,
      channel: `private-workspace-${ws}`,
      event: 'channel.created',
      payload: {
        event_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        channel: {
          id: conv,
          workspace_id: ws,
          conversation_id: conv,
          kind: 'public',
          name: 'general',
          topic: null,
          created_by_actor_id: actor,
          member_count: 2,
          participant_actor_ids: [],
          last_message_at: null,
          archived_at: null,
          created_at: at.toISOString(),
          updated_at: at.toISOString(),
        },
      },
    });
  });

  it("tells a private or direct conversation's change to each member on its own channel, one event_id for every copy", () => {
    for (const kind of ['private', 'direct'] as const) {
      const entries = outboxEntriesOf({ type: 'channel.updated', channel: channel(kind), memberIds: [actor, other] });
      expect(entries.map((e) => e.channel)).toEqual([`private-actor-${actor}`, `private-actor-${other}`]);
      expect(
        entries.every((e) => e.event === 'channel.updated' && (e.payload.channel as { is_member: boolean }).is_member),
      ).toBe(true);
      expect(new Set(entries.map((e) => e.payload.event_id)).size).toBe(1);
    }
  });

  it("puts a membership change on the conversation's channel and the member's own, with the conversation's kind", () => {
    const member = { channelId: conv, actorId: other, addedByActorId: actor, joinedAt: at };
    const entries = outboxEntriesOf({ type: 'channel_member.removed', workspaceId: ws, kind: 'private', member });
    expect(entries.map((e) => e.channel)).toEqual([`private-conversation-${conv}`, `private-actor-${other}`]);
    expect(entries[0]!.payload).toEqual({
      event_id: expect.any(String),
      member: { channel_id: conv, actor_id: other, added_by_actor_id: actor, joined_at: at.toISOString() },
      conversation_kind: 'private',
    });
    expect(entries[1]!.payload).toEqual(entries[0]!.payload);
  });

  it("puts an actor's own state on its actor channel, each event with a fresh event_id", () => {
    const saved = {
      type: 'saved.updated',
      workspaceId: ws,
      actorId: actor,
      saved: { messageId: msg, savedAt: at },
    } as const;
    const [[a], [b]] = [outboxEntriesOf(saved), outboxEntriesOf(saved)];
    expect(a).toMatchObject({
      workspaceId: ws,
      channel: `private-actor-${actor}`,
      event: 'saved.updated',
      payload: { saved: { message_id: msg, saved: true, saved_at: at.toISOString() } },
    });
    expect(a!.payload.event_id).not.toBe(b!.payload.event_id);
  });
});
