/**
 * The access wall of contract §9, in SQL, for every statement that names a conversation: the caller reads
 * conversation `c` (a `channels` row) when it is public or the caller is a member. Binds `:actorId`, the caller's actor
 * id: a statement that holds it binds by name (`raw(sql, { actorId, ... })`), never by position. Put into the statement
 * that already reads the channel (a join, an `EXISTS`), never as a round trip of its own; to a caller it excludes, the
 * conversation and everything in it do not exist.
 */
export const READABLE = (c: string) =>
  `(${c}.kind = 'public' OR EXISTS (SELECT 1 FROM channel_members readable WHERE readable.workspace_id = ${c}.workspace_id AND readable.channel_id = ${c}.id AND readable.actor_id = :actorId))`;

/** `READABLE` for a message `m` (a `messages` row): its conversation is readable. Binds `:actorId`, the caller's. */
export const READABLE_MESSAGE = (m: string) =>
  `EXISTS (SELECT 1 FROM channels rc WHERE rc.workspace_id = ${m}.workspace_id AND rc.id = ${m}.conversation_id AND ${READABLE('rc')})`;
