import { isUniqueViolation, type Knex, likeLiteral, prepared, queryable, sqlInteger, type Tx } from '@wms/kit/db';
import { alreadyExists } from '@wms/kit/errors';
import type { Channel, ChannelKind, ChannelMember } from '../domain/channel.ts';
import type { Counts, Mark } from '../domain/read-state.ts';
import { READABLE } from './access.ts';
import { CONVERSATION_COUNTS } from './read-state.store.ts';

interface ChannelRow {
  id: string;
  workspace_id: string;
  kind: ChannelKind;
  name: string | null;
  topic: string | null;
  created_by_actor_id: string;
  member_count: number;
  is_member: boolean;
  participant_actor_ids: string[];
  last_message_at: Date | null;
  archived_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

interface MemberRow {
  channel_id: string;
  actor_id: string;
  added_by_actor_id: string | null;
  joined_at: Date;
}

const toChannel = (r: ChannelRow): Channel => ({
  id: r.id,
  workspaceId: r.workspace_id,
  kind: r.kind,
  name: r.name,
  topic: r.topic,
  createdByActorId: r.created_by_actor_id,
  memberCount: r.member_count,
  isMember: r.is_member,
  participantActorIds: r.participant_actor_ids,
  lastMessageAt: r.last_message_at,
  archivedAt: r.archived_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const toMember = (r: MemberRow): ChannelMember => ({
  channelId: r.channel_id,
  actorId: r.actor_id,
  addedByActorId: r.added_by_actor_id,
  joinedAt: r.joined_at,
});

/**
 * The columns of channel `c` as the caller sees it: whether it is a member (looked up, binding `:actorId`, the
 * caller's actor id, unless `isMember` says it), and the time of the conversation's newest message, top-level or reply
 * (one probe of messages_activity_idx).
 */
const VIEW = (
  c: string,
  isMember = `EXISTS (SELECT 1 FROM channel_members me WHERE me.workspace_id = ${c}.workspace_id AND me.channel_id = ${c}.id AND me.actor_id = :actorId)`,
) =>
  `${c}.id, ${c}.workspace_id, ${c}.kind, ${c}.name, ${c}.topic, ${c}.created_by_actor_id, ${c}.member_count,
  ${c}.participant_actor_ids, ${c}.archived_at, ${c}.created_at, ${c}.updated_at, ${isMember} AS is_member,
  (SELECT lm.created_at FROM messages lm WHERE lm.workspace_id = ${c}.workspace_id AND lm.conversation_id = ${c}.id ORDER BY lm.created_at DESC LIMIT 1) AS last_message_at`;

/** A sidebar position: the newest activity (microseconds since the epoch) and the id, both descending. */
export interface SidebarKey {
  activityUs: string;
  id: string;
}

export interface SidebarEntry {
  channel: Channel;
  mark: Mark;
  counts: Counts;
  key: SidebarKey;
}

/** Statements bind by name (`:name`), as the shared fragments (`READABLE`, `VIEW`, `CONVERSATION_COUNTS`) do. */
export class ChannelStore {
  constructor(private readonly db: Knex) {}

  /**
   * Inserts the conversation with its members (`memberActorIds`, the creator first), in one statement: the creator
   * joined by itself, the others added by the creator. A direct conversation whose set of participants already has
   * one is not inserted (undefined): concurrent creations of one set make one conversation, the others read it.
   */
  async insert(
    c: {
      id: string;
      workspaceId: string;
      kind: ChannelKind;
      name: string | null;
      topic: string | null;
      createdByActorId: string;
      memberActorIds: string[];
      participantActorIds: string[];
    },
    tx?: Tx,
  ): Promise<{ channel: Channel; members: ChannelMember[] } | undefined> {
    try {
      const { rows } = await queryable(this.db, tx).raw<{ rows: ChannelRow[] }>(
        `WITH channel AS (
           INSERT INTO channels (id, workspace_id, kind, name, topic, created_by_actor_id, member_count, participant_actor_ids)
           VALUES (:id, :workspaceId, :kind, :name, :topic, :createdByActorId, cardinality(:memberActorIds::uuid[]), :participantActorIds::uuid[])
           ON CONFLICT (workspace_id, participant_actor_ids) WHERE kind = 'direct' DO NOTHING
           RETURNING *
         ),
         members AS (
           INSERT INTO channel_members (channel_id, actor_id, workspace_id, added_by_actor_id, joined_at)
           SELECT channel.id, a.actor_id, channel.workspace_id, CASE WHEN a.actor_id <> channel.created_by_actor_id THEN channel.created_by_actor_id END, channel.created_at
           FROM channel, unnest(:memberActorIds::uuid[]) AS a(actor_id)
         )
         SELECT channel.*, true AS is_member, null::timestamptz AS last_message_at FROM channel`,
        { ...c },
      );
      if (!rows[0]) return undefined;
      const channel = toChannel(rows[0]);
      const members = c.memberActorIds.map((actorId) => ({
        channelId: channel.id,
        actorId,
        addedByActorId: actorId === c.createdByActorId ? null : c.createdByActorId,
        joinedAt: channel.createdAt,
      }));
      return { channel, members };
    } catch (err) {
      if (isUniqueViolation(err, 'channels_name_key'))
        throw alreadyExists('channel_name_taken', 'A channel with that name already exists in this workspace.');
      throw err;
    }
  }

  /** A conversation of the workspace that the actor may read (contract §9); anything else is simply not found. */
  async find(workspaceId: string, id: string, actorId: string, tx?: Tx): Promise<Channel | undefined> {
    const { rows } = await queryable(this.db, tx).raw<{ rows: ChannelRow[] }>(
      `SELECT ${VIEW('c')} FROM channels c WHERE c.id = :id AND c.workspace_id = :workspaceId AND ${READABLE('c')}`,
      { id, workspaceId, actorId },
    );
    return rows[0] && toChannel(rows[0]);
  }

  /** The workspace's direct conversation of exactly these participants (in id order), if there is one. */
  async findDirect(
    workspaceId: string,
    participantActorIds: string[],
    actorId: string,
    tx?: Tx,
  ): Promise<Channel | undefined> {
    const { rows } = await queryable(this.db, tx).raw<{ rows: ChannelRow[] }>(
      `SELECT ${VIEW('c')} FROM channels c
       WHERE c.workspace_id = :workspaceId AND c.kind = 'direct' AND c.participant_actor_ids = :participantActorIds::uuid[]`,
      { workspaceId, participantActorIds, actorId },
    );
    return rows[0] && toChannel(rows[0]);
  }

  /**
   * The workspace's channels the actor may read (every public one, the private ones it belongs to; never direct), by
   * name (byte order), bounded; with `contains`, those whose name holds it (case-insensitive), the ones starting with
   * it first.
   */
  async list(workspaceId: string, actorId: string, limit = 1000, contains?: string): Promise<Channel[]> {
    // As LIKE patterns, which the trigram index on lower(name) answers.
    const match = contains === undefined ? '' : "AND lower(c.name) LIKE '%' || lower(:contains) || '%'";
    const order = contains === undefined ? 'c.name' : "lower(c.name) LIKE lower(:contains) || '%' DESC, c.name";
    const { rows } = await this.db.raw<{ rows: ChannelRow[] }>(
      `SELECT ${VIEW('c')} FROM channels c WHERE c.workspace_id = :workspaceId AND c.kind <> 'direct' AND ${READABLE('c')} ${match} ORDER BY ${order} LIMIT :limit`,
      { workspaceId, actorId, limit, contains: contains === undefined ? null : likeLiteral(contains) },
    );
    return rows.map(toChannel);
  }

  /** Renames the channel or changes its topic; the channel as the actor sees it. */
  async update(
    workspaceId: string,
    id: string,
    actorId: string,
    change: { name?: string; topic?: string | null },
    tx?: Tx,
  ): Promise<Channel | undefined> {
    try {
      const { rows } = await queryable(this.db, tx).raw<{ rows: ChannelRow[] }>(
        `WITH c AS (
           UPDATE channels SET name = coalesce(:name::text, name), topic = CASE WHEN :setTopic::boolean THEN :topic::text ELSE topic END, updated_at = now()
           WHERE id = :id AND workspace_id = :workspaceId RETURNING *
         )
         SELECT ${VIEW('c')} FROM c`,
        {
          name: change.name ?? null,
          setTopic: change.topic !== undefined,
          topic: change.topic ?? null,
          id,
          workspaceId,
          actorId,
        },
      );
      return rows[0] && toChannel(rows[0]);
    } catch (err) {
      if (isUniqueViolation(err, 'channels_name_key'))
        throw alreadyExists('channel_name_taken', 'A channel with that name already exists in this workspace.');
      throw err;
    }
  }

  /**
   * A page of the conversation's members by actor id, after `after`; nothing when the actor may not read the
   * conversation (one statement reads the channel and the page, one row of nulls when the page is empty).
   */
  async members(q: {
    workspaceId: string;
    channelId: string;
    actorId: string;
    after: string | null;
    limit: number;
  }): Promise<ChannelMember[] | undefined> {
    const { rows } = await this.db.raw<{ rows: MemberRow[] }>(
      `SELECT p.* FROM channels c LEFT JOIN LATERAL (
         SELECT m.channel_id, m.actor_id, m.added_by_actor_id, m.joined_at FROM channel_members m
         WHERE m.workspace_id = c.workspace_id AND m.channel_id = c.id ${q.after === null ? '' : 'AND m.actor_id > :after'} ORDER BY m.actor_id LIMIT :limit
       ) p ON true
       WHERE c.id = :channelId AND c.workspace_id = :workspaceId AND ${READABLE('c')}
       ORDER BY p.actor_id`,
      { ...q },
    );
    if (rows.length === 0) return undefined;
    return rows[0]!.actor_id === null ? [] : rows.map(toMember);
  }

  /** Those of the workspace's conversations `ids` the actor may read. */
  async readable(workspaceId: string, ids: string[], actorId: string): Promise<string[]> {
    const { rows } = await this.db.raw<{ rows: Array<{ id: string }> }>(
      `SELECT c.id FROM channels c WHERE c.id = ANY (:ids::uuid[]) AND c.workspace_id = :workspaceId AND ${READABLE('c')}`,
      { ids, workspaceId, actorId },
    );
    return rows.map((r) => r.id);
  }

  /** Every member's actor id (to route a private conversation's events to each), in id order. */
  async memberIds(workspaceId: string, channelId: string, tx?: Tx): Promise<string[]> {
    const { rows } = await queryable(this.db, tx).raw<{ rows: Array<{ actor_id: string }> }>(
      'SELECT actor_id FROM channel_members WHERE workspace_id = :workspaceId AND channel_id = :channelId ORDER BY actor_id',
      { workspaceId, channelId },
    );
    return rows.map((r) => r.actor_id);
  }

  /**
   * Makes the actor a member, counted; the membership and whether this call made it. The membership row is written
   * before the channel's count, as a post's join does, so the two never wait for each other in opposite orders. A
   * concurrent identical add, which this one waited for, is read by a second statement.
   */
  async addMember(
    m: { channelId: string; workspaceId: string; actorId: string; addedByActorId: string | null },
    tx?: Tx,
  ): Promise<{ member: ChannelMember; added: boolean }> {
    const db = queryable(this.db, tx);
    const { rows: added } = await db.raw<{ rows: MemberRow[] }>(
      `WITH added AS (
         INSERT INTO channel_members (channel_id, actor_id, workspace_id, added_by_actor_id)
         VALUES (:channelId, :actorId, :workspaceId, :addedByActorId)
         ON CONFLICT DO NOTHING
         RETURNING channel_id, actor_id, added_by_actor_id, joined_at
       ),
       counted AS (
         UPDATE channels SET member_count = member_count + 1
         WHERE workspace_id = :workspaceId AND id IN (SELECT channel_id FROM added)
       )
       SELECT * FROM added`,
      { ...m },
    );
    if (added[0]) return { member: toMember(added[0]), added: true };
    const { rows: existing } = await db.raw<{ rows: MemberRow[] }>(
      `SELECT channel_id, actor_id, added_by_actor_id, joined_at FROM channel_members
       WHERE workspace_id = :workspaceId AND channel_id = :channelId AND actor_id = :actorId`,
      { workspaceId: m.workspaceId, channelId: m.channelId, actorId: m.actorId },
    );
    return { member: toMember(existing[0]!), added: false };
  }

  /** Ends the actor's membership, counted; the membership it ended, or nothing when there was none. */
  async removeMember(
    workspaceId: string,
    channelId: string,
    actorId: string,
    tx?: Tx,
  ): Promise<ChannelMember | undefined> {
    const { rows } = await queryable(this.db, tx).raw<{ rows: MemberRow[] }>(
      `WITH removed AS (
         DELETE FROM channel_members
         WHERE workspace_id = :workspaceId AND channel_id = :channelId AND actor_id = :actorId
         RETURNING channel_id, actor_id, added_by_actor_id, joined_at
       ),
       counted AS (
         UPDATE channels SET member_count = member_count - 1
         WHERE workspace_id = :workspaceId AND id IN (SELECT channel_id FROM removed)
       )
       SELECT * FROM removed`,
      { workspaceId, channelId, actorId },
    );
    return rows[0] && toMember(rows[0]);
  }

  /**
   * The actor's sidebar (contract §9): the conversations it is a member of with its read mark and counts, newest
   * activity first, after `after`, in one statement whatever their number. Counts are taken for the page alone,
   * unless only unread ones are asked for.
   */
  async sidebar(q: {
    workspaceId: string;
    actorId: string;
    kind: ChannelKind | null;
    unread: boolean;
    after: SidebarKey | null;
    limit: number;
  }): Promise<SidebarEntry[]> {
    const reads = `LEFT JOIN conversation_reads r ON r.workspace_id = o.workspace_id AND r.actor_id = :actorId AND r.conversation_id = o.id
      CROSS JOIN LATERAL (SELECT ${CONVERSATION_COUNTS('o.workspace_id', 'o.id', 'r.last_read_message_id')}) n`;
    const readColumns = 'r.last_read_message_id, r.last_read_at, r.updated_at AS read_updated_at, n.unread, n.mentions';
    const where = [
      ...(q.after === null ? [] : ['(o.activity_us, o.id) < (:afterActivityUs::numeric, :afterId::uuid)']),
      ...(q.unread ? ['n.unread > 0'] : []),
    ];
    const order = 'ORDER BY o.activity_us DESC, o.id DESC';
    const mine = `SELECT v.*, coalesce(extract(epoch FROM coalesce(v.last_message_at, v.created_at)) * 1000000, 0)::numeric(20, 0) AS activity_us FROM (
        SELECT ${VIEW('c', 'true')} FROM channel_members cm JOIN channels c ON c.workspace_id = cm.workspace_id AND c.id = cm.channel_id
        WHERE cm.actor_id = :actorId AND c.workspace_id = :workspaceId ${q.kind === null ? '' : 'AND c.kind = :kind'}
      ) v`;
    // Without the unread filter the page is cut before its counts are taken.
    const sql = q.unread
      ? `SELECT o.*, ${readColumns} FROM (${mine}) o ${reads} WHERE ${where.join(' AND ')} ${order} LIMIT ${sqlInteger(q.limit)}`
      : `SELECT o.*, ${readColumns} FROM (SELECT * FROM (${mine}) o ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ${order} LIMIT ${sqlInteger(q.limit)}) o ${reads} ${order}`;
    const { rows } = await prepared(
      this.db.raw<{
        rows: Array<
          ChannelRow & {
            activity_us: string;
            last_read_message_id: string | null;
            last_read_at: Date | null;
            read_updated_at: Date | null;
            unread: number;
            mentions: number;
          }
        >;
      }>(sql, {
        actorId: q.actorId,
        workspaceId: q.workspaceId,
        kind: q.kind,
        afterActivityUs: q.after?.activityUs ?? null,
        afterId: q.after?.id ?? null,
      }),
    );
    return rows.map((r) => ({
      channel: toChannel(r),
      mark: { lastReadMessageId: r.last_read_message_id, lastReadAt: r.last_read_at, updatedAt: r.read_updated_at },
      counts: { unreadCount: r.unread, mentionCount: r.mentions },
      key: { activityUs: String(r.activity_us), id: r.id },
    }));
  }
}
