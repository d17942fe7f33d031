import { type Caller, callerOf, isManager } from '@wms/kit/caller';
import type { CallContext } from '@wms/kit/context';
import { ensure, failedPrecondition, forbidden, invalidArgument, invalidInput, notFound } from '@wms/kit/errors';
import { isUuid, uuidv7 } from '@wms/kit/ids';
import type { Transact } from '@wms/kit/transactions';
import type { WorkspaceMembers } from './adapters/workspace-members.ts';
import {
  type Channel,
  CHANNEL_KINDS,
  type ChannelKind,
  type ChannelMember,
  directParticipants,
  validateChannelChange,
  validateNewChannel,
} from './domain/channel.ts';
import { idCursor, type Page, pageLimit } from './domain/paging.ts';
import type { ReadState } from './domain/read-state.ts';
import type { MessagingEvent } from './event-payloads.ts';
import { requireChannel } from './lookups.ts';
import type { ChannelStore, SidebarKey } from './store/channel.store.ts';
import type { OutboxStore } from './store/outbox.store.ts';
import type { PurgeStore } from './store/purge.store.ts';

export interface ChannelDeps {
  transact: Transact;
  channels: ChannelStore;
  outbox: OutboxStore;
  purge: PurgeStore;
  members: WorkspaceMembers;
}

/** A conversation of the caller's sidebar with the caller's read state of it. */
export interface ConversationSummary {
  conversation: Channel;
  readState: ReadState;
}

const PURGE_BATCH = 500;
/** Conversation ids one `readable` question may name. */
const MAX_READABLE_IDS = 1000;

/** The sidebar cursor (opaque to clients): the last item's activity (microseconds) and id. */
const encodeCursor = (k: SidebarKey) => Buffer.from(`conv:${k.activityUs}:${k.id}`).toString('base64url');
function decodeCursor(cursor: string | undefined): SidebarKey | null {
  if (cursor === undefined) return null;
  const match =
    cursor.length <= 512 ? /^conv:(\d{1,20}):([0-9a-f-]{36})$/.exec(Buffer.from(cursor, 'base64url').toString()) : null;
  if (!match || !isUuid(match[2]!))
    throw invalidInput([{ field: 'query.cursor', message: 'must be a next_cursor from a previous page' }]);
  return { activityUs: match[1]!, id: match[2] };
}

const membershipFixed = () => failedPrecondition('membership_fixed', "A direct conversation's participants are fixed.");
const noSuchActor = () => notFound('No such actor in this workspace.');

/**
 * Conversations (contract §4, §9): public and private channels and direct conversations, their members, and the
 * caller's sidebar. What the caller may read is decided by the store's statements (store/access.ts); once the
 * workspace is deleted, everything is removed.
 */
export class ChannelService {
  constructor(private readonly d: ChannelDeps) {}

  async createChannel(
    ctx: CallContext,
    input: { name: string; topic?: string | undefined; kind?: string | undefined; memberActorIds: string[] },
  ): Promise<Channel> {
    const me = callerOf(ctx);
    const fields = validateNewChannel(input, me.actorId);
    await this.requireActive(ctx, fields.memberActorIds, 'body.member_actor_ids');
    return this.d.transact(async (tx) => {
      const created = await this.d.channels.insert(
        {
          id: uuidv7(),
          workspaceId: me.workspaceId,
          kind: fields.kind,
          name: fields.name,
          topic: fields.topic,
          createdByActorId: me.actorId,
          memberActorIds: [me.actorId, ...fields.memberActorIds],
          participantActorIds: [],
        },
        tx,
      );
      // Only a direct conversation is ever left uninserted.
      await this.d.outbox.append(this.creationEvents(created!.channel, created!.members), tx);
      return created!.channel;
    });
  }

  /**
   * The direct conversation of the caller and `actorIds` (1..8 active actors of the workspace), made when it does not
   * exist yet: one per set of participants, however many ask at once.
   */
  async openDirect(ctx: CallContext, actorIds: string[]): Promise<{ channel: Channel; created: boolean }> {
    const me = callerOf(ctx);
    const { others, participants } = directParticipants(me.actorId, actorIds);
    await this.requireActive(ctx, others, 'body.actor_ids');
    const existing = await this.d.channels.findDirect(me.workspaceId, participants, me.actorId);
    if (existing) return { channel: existing, created: false };
    return this.d.transact(async (tx) => {
      const created = await this.d.channels.insert(
        {
          id: uuidv7(),
          workspaceId: me.workspaceId,
          kind: 'direct',
          name: null,
          topic: null,
          createdByActorId: me.actorId,
          memberActorIds: [me.actorId, ...others],
          participantActorIds: participants,
        },
        tx,
      );
      // A concurrent creation of the same set won: the insert waited for its commit, so this statement sees it.
      if (!created)
        return {
          channel: (await this.d.channels.findDirect(me.workspaceId, participants, me.actorId, tx))!,
          created: false,
        };
      await this.d.outbox.append(this.creationEvents(created.channel, created.members), tx);
      return { channel: created.channel, created: true };
    });
  }

  /** The channels the caller may read; with `q` (1..80 characters), those whose name contains it, prefix matches first. */
  listChannels(ctx: CallContext, q?: string): Promise<Channel[]> {
    const me = callerOf(ctx);
    if (q !== undefined) ensure(['query.q', q.length >= 1 && q.length <= 80, 'must be 1 to 80 characters']);
    return this.d.channels.list(me.workspaceId, me.actorId, undefined, q);
  }

  async getChannel(ctx: CallContext, id: string): Promise<Channel> {
    return requireChannel(this.d.channels, callerOf(ctx), id);
  }

  /** Renames a channel or changes its topic: its creator, owners and admins. */
  async updateChannel(
    ctx: CallContext,
    id: string,
    input: { name?: string | undefined; topic?: string | null | undefined },
  ): Promise<Channel> {
    const me = callerOf(ctx);
    const change = validateChannelChange(input);
    const channel = await requireChannel(this.d.channels, me, id);
    if (channel.kind === 'direct')
      throw invalidArgument('not_a_channel', 'A direct conversation has no name or topic.');
    if (!(await this.manages(ctx, me, channel)))
      throw forbidden("Only the channel's creator, owners and admins can change it.");
    return this.d.transact(async (tx) => {
      const updated = (await this.d.channels.update(me.workspaceId, id, me.actorId, change, tx))!;
      const memberIds = updated.kind === 'public' ? [] : await this.d.channels.memberIds(me.workspaceId, id, tx);
      await this.d.outbox.append([{ type: 'channel.updated', channel: updated, memberIds }], tx);
      return updated;
    });
  }

  /** The conversation's members by actor id. */
  async listMembers(
    ctx: CallContext,
    channelId: string,
    q: { cursor?: string | undefined; limit: number },
  ): Promise<Page<ChannelMember>> {
    const me = callerOf(ctx);
    const limit = pageLimit(q.limit);
    const after = idCursor(q.cursor);
    const rows = isUuid(channelId)
      ? await this.d.channels.members({
          workspaceId: me.workspaceId,
          channelId,
          actorId: me.actorId,
          after,
          limit: limit + 1,
        })
      : undefined;
    if (!rows) throw notFound('No such conversation.');
    const items = rows.slice(0, limit);
    return { items, nextCursor: rows.length > limit ? items.at(-1)!.actorId : null };
  }

  /**
   * Makes an active actor a member; an existing member answers its membership. Public: anyone for itself, a member for
   * anyone; private: a member for anyone; direct: never (its participants are fixed).
   */
  async addMember(ctx: CallContext, channelId: string, actorId: string): Promise<ChannelMember> {
    const me = callerOf(ctx);
    const state = await this.actorState(ctx, actorId);
    const channel = await requireChannel(this.d.channels, me, channelId);
    if (actorId !== me.actorId && !channel.isMember) throw forbidden('Only a member can add others to a channel.');
    if (!state) throw noSuchActor();
    if (channel.kind === 'direct') throw membershipFixed();
    return this.d.transact(async (tx) => {
      const { member, added } = await this.d.channels.addMember(
        {
          channelId: channel.id,
          workspaceId: me.workspaceId,
          actorId,
          addedByActorId: actorId === me.actorId ? null : me.actorId,
        },
        tx,
      );
      if (added)
        await this.d.outbox.append(
          [{ type: 'channel_member.added', workspaceId: me.workspaceId, kind: channel.kind, member }],
          tx,
        );
      return member;
    });
  }

  /**
   * For a conversation token (contract §11), where the caller reads: a private channel gains the agent as a member
   * (added by the caller; already one, nothing changes); a public channel needs nothing (posting makes a member); a
   * direct conversation must already have the agent among its participants (400).
   */
  async admitAgent(ctx: CallContext, conversationId: string, actorId: string): Promise<void> {
    const me = callerOf(ctx);
    const channel = await requireChannel(this.d.channels, me, conversationId);
    const agentId = actorId.toLowerCase();
    if (channel.kind === 'direct') {
      ensure([
        'body.actor_id',
        channel.participantActorIds.includes(agentId),
        'must be a participant of the direct conversation',
      ]);
      return;
    }
    if (channel.kind === 'public') return;
    await this.d.transact(async (tx) => {
      const { member, added } = await this.d.channels.addMember(
        { channelId: channel.id, workspaceId: me.workspaceId, actorId: agentId, addedByActorId: me.actorId },
        tx,
      );
      if (added)
        await this.d.outbox.append(
          [{ type: 'channel_member.added', workspaceId: me.workspaceId, kind: channel.kind, member }],
          tx,
        );
    });
  }

  /** Ends a membership (also when there is none): oneself (leave), or the channel's creator, owners and admins for others. */
  async removeMember(ctx: CallContext, channelId: string, actorId: string): Promise<void> {
    const me = callerOf(ctx);
    const state = await this.actorState(ctx, actorId);
    const channel = await requireChannel(this.d.channels, me, channelId);
    if (actorId !== me.actorId && !(await this.manages(ctx, me, channel)))
      throw forbidden("Only the channel's creator, owners and admins can remove others.");
    if (!state) throw noSuchActor();
    if (channel.kind === 'direct') throw membershipFixed();
    await this.d.transact(async (tx) => {
      const member = await this.d.channels.removeMember(me.workspaceId, channel.id, actorId, tx);
      if (member)
        await this.d.outbox.append(
          [{ type: 'channel_member.removed', workspaceId: me.workspaceId, kind: channel.kind, member }],
          tx,
        );
    });
  }

  /** The caller's sidebar: its conversations with its read state, newest activity first. */
  async sidebar(
    ctx: CallContext,
    q: { kind?: string | undefined; unread: boolean; cursor?: string | undefined; limit: number },
  ): Promise<Page<ConversationSummary>> {
    const me = callerOf(ctx);
    const limit = pageLimit(q.limit);
    if (q.kind !== undefined && !(CHANNEL_KINDS as readonly string[]).includes(q.kind)) {
      throw invalidInput([{ field: 'query.kind', message: 'must be "public", "private" or "direct"' }]);
    }
    const after = decodeCursor(q.cursor);
    const rows = await this.d.channels.sidebar({
      workspaceId: me.workspaceId,
      actorId: me.actorId,
      kind: (q.kind as ChannelKind | undefined) ?? null,
      unread: q.unread,
      after,
      limit: limit + 1,
    });
    const items = rows.slice(0, limit);
    return {
      items: items.map((r) => ({
        conversation: r.channel,
        readState: { conversationId: r.channel.id, threadRootId: null, following: null, ...r.mark, ...r.counts },
      })),
      nextCursor: rows.length > limit ? encodeCursor(items.at(-1)!.key) : null,
    };
  }

  /** Those of `ids` the caller may read (for the services that hold things of many conversations). */
  async readable(ctx: CallContext, ids: string[]): Promise<string[]> {
    const me = callerOf(ctx);
    if (ids.length > MAX_READABLE_IDS)
      throw invalidInput([{ field: 'ids', message: `must hold at most ${MAX_READABLE_IDS} ids` }]);
    const wellFormed = ids.filter(isUuid);
    return wellFormed.length === 0 ? [] : this.d.channels.readable(me.workspaceId, wellFormed, me.actorId);
  }

  /** For the workspace worker, once the workspace is deleted (any caller): one bounded batch; true once nothing is left. */
  async purgeWorkspace(workspaceId: string): Promise<boolean> {
    if (!isUuid(workspaceId)) throw invalidInput([{ field: 'workspace_id', message: 'must be a UUID' }]);
    return this.d.transact((tx) => this.d.purge.purgeBatch(workspaceId, PURGE_BATCH, tx));
  }

  /** `channel.created`, and `channel_member.added` for each member its creator added. */
  private creationEvents(channel: Channel, members: ChannelMember[]): MessagingEvent[] {
    return [
      { type: 'channel.created', channel, memberIds: members.map((m) => m.actorId) },
      ...members
        .filter((m) => m.addedByActorId !== null)
        .map((member): MessagingEvent => ({
          type: 'channel_member.added',
          workspaceId: channel.workspaceId,
          kind: channel.kind,
          member,
        })),
    ];
  }

  /** The channel's creator, owners and admins (contract §9: rename, remove others). */
  private async manages(ctx: CallContext, me: Caller, channel: Channel): Promise<boolean> {
    return channel.createdByActorId === me.actorId || isManager(await this.d.members.roleOf(ctx, me));
  }

  /**
   * A path's actor: undefined when it is not an actor of the workspace (404, told after the conversation's checks);
   * a deactivated one is 400 at once (contract §9).
   */
  private async actorState(ctx: CallContext, actorId: string): Promise<'active' | undefined> {
    if (!isUuid(actorId)) return undefined;
    const state = (await this.d.members.actorStates(ctx, [actorId])).get(actorId.toLowerCase());
    if (state === 'deactivated')
      throw invalidInput([{ field: 'path.actor_id', message: 'is deactivated (removed from the workspace)' }]);
    return state;
  }

  /** Every one of `actorIds` is an active actor of the workspace (400 naming the others). */
  private async requireActive(ctx: CallContext, actorIds: string[], field: string): Promise<void> {
    const states = await this.d.members.actorStates(ctx, actorIds);
    const refused = actorIds.filter((id) => states.get(id) !== 'active');
    if (refused.length > 0)
      throw invalidInput([{ field, message: `not active actors of this workspace: ${refused.join(', ')}` }]);
  }
}
