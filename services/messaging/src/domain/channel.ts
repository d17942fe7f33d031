import { ensure, invalidInput } from '@wms/kit/errors';
import { isUuid } from '@wms/kit/ids';

export const CHANNEL_KINDS = ['public', 'private', 'direct'] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

/** A conversation (contract §9): a public or private channel, or a direct conversation, as the caller sees it. */
export interface Channel {
  id: string;
  workspaceId: string;
  kind: ChannelKind;
  /** Null for a direct conversation. */
  name: string | null;
  topic: string | null;
  createdByActorId: string;
  memberCount: number;
  /** Whether the caller is a member. */
  isMember: boolean;
  /** Direct: every participant, in id order; channels: none. */
  participantActorIds: string[];
  /** The newest top-level message or reply, null when none. */
  lastMessageAt: Date | null;
  archivedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A membership: `addedByActorId` is null for a member who joined by itself (the creator, a poster, a PUT of its own). */
export interface ChannelMember {
  channelId: string;
  actorId: string;
  addedByActorId: string | null;
  joinedAt: Date;
}

const namePattern = /^[a-z0-9][a-z0-9_-]{0,79}$/;
const NAME_RULE = 'must be 1 to 80 lowercase letters, digits, "_" or "-", starting with a letter or digit';

/** Initial members a creation names, at most. */
export const MAX_INITIAL_MEMBERS = 100;
/** The others of a direct conversation, at most (nine participants with the caller). */
export const MAX_DIRECT_OTHERS = 8;

const topicOf = (topic: string | null | undefined) => topic?.trim() || null;

/**
 * CreateChannel (contract §4, §9): a lowercase name of letters, digits, `_` and `-`, up to 80; a topic up to 250; a
 * public or private kind; up to 100 initial members (repeats and the creator dropped).
 */
export function validateNewChannel(
  input: {
    name: string;
    topic?: string | null | undefined;
    kind?: string | undefined;
    memberActorIds?: string[] | undefined;
  },
  creatorActorId: string,
): { name: string; topic: string | null; kind: 'public' | 'private'; memberActorIds: string[] } {
  const topic = topicOf(input.topic);
  const kind = input.kind ?? 'public';
  const ids = input.memberActorIds ?? [];
  ensure(
    ['body.name', namePattern.test(input.name), NAME_RULE],
    ['body.topic', topic === null || topic.length <= 250, 'must be at most 250 characters'],
    ['body.kind', kind === 'public' || kind === 'private', 'must be "public" or "private"'],
    ['body.member_actor_ids', ids.length <= MAX_INITIAL_MEMBERS, `must hold at most ${MAX_INITIAL_MEMBERS} actor ids`],
    ['body.member_actor_ids', ids.every(isUuid), 'must hold actor ids (UUIDs)'],
  );
  const memberActorIds = [...new Set(ids.map((id) => id.toLowerCase()))].filter((id) => id !== creatorActorId);
  return { name: input.name, topic, kind: kind as 'public' | 'private', memberActorIds };
}

/** A rename or topic change: the create rules for what is given; at least one of them. */
export function validateChannelChange(input: { name?: string | undefined; topic?: string | null | undefined }): {
  name?: string;
  topic?: string | null;
} {
  const topic = input.topic === undefined ? undefined : topicOf(input.topic);
  ensure(
    ['body.name', input.name === undefined || namePattern.test(input.name), NAME_RULE],
    ['body.topic', topic === undefined || topic === null || topic.length <= 250, 'must be at most 250 characters'],
    ['body', input.name !== undefined || input.topic !== undefined, 'must change the name or the topic'],
  );
  return { ...(input.name === undefined ? {} : { name: input.name }), ...(topic === undefined ? {} : { topic }) };
}

/** The participants of a direct conversation: the caller and 1..8 others (its own id and repeats dropped), in id order. */
export function directParticipants(
  callerActorId: string,
  actorIds: string[],
): { others: string[]; participants: string[] } {
  ensure(['body.actor_ids', actorIds.every(isUuid), 'must hold actor ids (UUIDs)']);
  const others = [...new Set(actorIds.map((id) => id.toLowerCase()))].filter((id) => id !== callerActorId);
  if (others.length === 0)
    throw invalidInput([{ field: 'body.actor_ids', message: 'must name at least one actor besides yourself' }]);
  if (others.length > MAX_DIRECT_OTHERS)
    throw invalidInput([
      { field: 'body.actor_ids', message: `must name at most ${MAX_DIRECT_OTHERS} actors besides yourself` },
    ]);
  return { others, participants: [callerActorId, ...others].sort() };
}
