import { actorChannel } from '@wms/kit/channels';
import { ensure, type FieldCheck } from '@wms/kit/errors';
import { isUuid } from '@wms/kit/ids';
import { parseChannel } from './channels.ts';

/** The provider's limit on an event's data (Pusher's 10 KB; Soketi allows more, so the smaller holds). */
export const MAX_DATA_BYTES = 10 * 1024;

/** How many events one batch trigger takes (Pusher and Soketi alike). */
export const TRIGGER_BATCH = 10;

/** Events stay this long after they were stored, and until they were triggered, for catch-up (contract: at least 24 hours). */
export const RETENTION_MS = 24 * 60 * 60 * 1000;

/** How many events one PublishEvents call takes (a relay's batch). */
export const MAX_PUBLISH = 1000;

/** A JSON object, as payloads are. */
export type JsonObject = { [key: string]: unknown };

/** An event a data owner committed, as its relay hands it over. */
export interface SourceEvent {
  sourceId: string;
  workspaceId: string;
  channel: string;
  name: string;
  payload: JsonObject;
}

/** An event ready to store: its data is what the provider will carry. */
export interface NewEvent {
  eventId: string;
  /** The data owner that wrote it; with `sourceId`, what makes storing it again a no-op. */
  source: string;
  sourceId: string;
  workspaceId: string;
  channel: string;
  name: string;
  data: JsonObject;
}

/** A stored event; `id` is the catch-up cursor (a decimal string: ids outgrow a JS number's exact range). */
export interface StoredEvent {
  id: string;
  channel: string;
  name: string;
  data: JsonObject;
  createdAt: Date;
}

/** What a reference points at when the payload itself is too large to send. */
export interface EventReference {
  type: string;
  id: string | null;
  conversation_id: string | null;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const obj = (v: unknown): JsonObject =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as JsonObject) : {};

/**
 * What an event is about, for clients to fetch when the event itself is too large: the conversation events of the
 * catalogue name their message or thread; the others (`{event_id, <resource name>: resource}`) their resource.
 */
export function referenceOf(name: string, payload: JsonObject): EventReference {
  const conversationId = str(payload.conversation_id);
  switch (name) {
    case 'message.created':
    case 'message.updated':
    case 'message.deleted': {
      const m = obj(payload.message);
      return { type: 'message', id: str(m.id), conversation_id: str(m.conversation_id) };
    }
    case 'thread.updated':
      return { type: 'thread', id: str(payload.root_id), conversation_id: conversationId };
    case 'workspace.deleted':
      return { type: 'workspace', id: str(payload.workspace_id), conversation_id: null };
    case 'reactions.updated':
      return { type: 'reactions', id: str(obj(payload.reactions).message_id), conversation_id: conversationId };
    case 'read_state.updated': {
      const r = obj(payload.read_state);
      return {
        type: 'read_state',
        id: str(r.thread_root_id) ?? str(r.conversation_id),
        conversation_id: str(r.conversation_id),
      };
    }
  }
  const [type = name, value] = Object.entries(payload).find(([key]) => key !== 'event_id') ?? [];
  const resource = obj(value);
  return {
    type,
    id: str(resource.id) ?? str(resource.message_id) ?? str(resource.actor_id),
    conversation_id: str(resource.conversation_id) ?? conversationId,
  };
}

/**
 * The actors whose access these events end, each once: once the events are out, the provider's connections signed in
 * as them are closed, since their subscriptions would outlive it. An actor removed from the workspace
 * (`workspace_user.removed`), an agent deactivated (`actor.updated` with `deactivated_at`), or an actor removed from a
 * private or direct conversation (`channel_member.removed` by its `conversation_kind`); that removal goes to the conversation's channel and to the actor's own, and only the copy on
 * its own channel counts, so the actor is not closed twice.
 */
export function removedActorsOf(events: Array<{ channel: string; name: string; data: JsonObject }>): string[] {
  const actors = new Set<string>();
  for (const e of events) {
    const actorId = removedActorOf(e);
    if (actorId !== null && isUuid(actorId)) actors.add(actorId);
  }
  return [...actors];
}

/** The conversation kinds only their members read (contract §9); a removal from one of them takes access away. */
const MEMBERS_ONLY = new Set(['private', 'direct']);

function removedActorOf(e: { channel: string; name: string; data: JsonObject }): string | null {
  switch (e.name) {
    case 'workspace_user.removed':
      return str(obj(e.data.workspace_user).actor_id);
    case 'actor.updated': {
      // An agent deactivated (contract §11): its tokens stop at once, and so do its signed-in connections.
      const actor = obj(e.data.actor);
      return str(actor.kind) === 'agent' && str(actor.deactivated_at) !== null ? str(actor.id) : null;
    }
    case 'channel_member.removed': {
      const actorId = str(obj(e.data.member).actor_id);
      const kind = str(e.data.conversation_kind);
      return actorId !== null && kind !== null && MEMBERS_ONLY.has(kind) && e.channel === actorChannel(actorId)
        ? actorId
        : null;
    }
  }
  return null;
}

/** The distinct conversations of the events sent on a conversation's channel, in the order they first appear. */
export function conversationIdsOf(events: Array<{ channel: string }>): string[] {
  const ids = new Set<string>();
  for (const e of events) {
    const channel = parseChannel(e.channel);
    if (channel?.kind === 'conversation') ids.add(channel.conversationId);
  }
  return [...ids];
}

/** The events the caller may read: a conversation's channel only when the conversation is among `readable`. */
export function readableEvents<E extends { channel: string }>(events: E[], readable: ReadonlySet<string>): E[] {
  return events.filter((e) => {
    const channel = parseChannel(e.channel);
    return channel?.kind !== 'conversation' || readable.has(channel.conversationId);
  });
}

/** The data the provider carries: the payload, or its reference when the payload is over the provider's limit. */
export function triggeredData(name: string, payload: JsonObject): JsonObject {
  if (Buffer.byteLength(JSON.stringify(payload)) <= MAX_DATA_BYTES) return payload;
  return { event_id: payload.event_id, ref: referenceOf(name, payload), truncated: true };
}

/** A data owner's name: `messaging`, `workspace` (the realtime service itself is `realtime`). */
const SOURCE = /^[a-z][a-z0-9-]{0,62}$/;
const EVENT_NAME = /^[a-z][a-z0-9_.-]{0,99}$/;

/** Parses a payload sent as JSON text; undefined unless it is an object. */
export function parsePayload(json: string): JsonObject | undefined {
  try {
    const value: unknown = JSON.parse(json);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonObject) : undefined;
  } catch {
    return undefined;
  }
}

/** The events of one PublishEvents call or one logical message, checked whole (stored all or nothing), as stored. */
export function eventsToStore(
  source: string,
  events: Array<Omit<SourceEvent, 'payload'> & { payload: JsonObject | undefined }>,
): NewEvent[] {
  const checks: FieldCheck[] = [
    ['source', SOURCE.test(source), 'must be a lowercase service name'],
    ['events', events.length <= MAX_PUBLISH, `at most ${MAX_PUBLISH} events per call`],
  ];
  events.forEach((e, i) => {
    checks.push(
      [`events.${i}.source_id`, e.sourceId.length >= 1 && e.sourceId.length <= 100, 'must be 1 to 100 characters'],
      [`events.${i}.workspace_id`, isUuid(e.workspaceId), 'must be a UUID'],
      [`events.${i}.channel`, parseChannel(e.channel) !== null, 'must be a channel of wms'],
      [`events.${i}.name`, EVENT_NAME.test(e.name), 'must be an event name'],
      [
        `events.${i}.payload`,
        e.payload !== undefined && isUuid(e.payload.event_id),
        'must be a JSON object with an event_id UUID',
      ],
    );
  });
  ensure(...checks);
  return events.map((e) => {
    const payload = e.payload!;
    return {
      eventId: payload.event_id as string,
      source,
      sourceId: e.sourceId,
      workspaceId: e.workspaceId,
      channel: e.channel,
      name: e.name,
      data: triggeredData(e.name, payload),
    };
  });
}

/** Catch-up paging: a cursor is an event id; `limit` 1..100, 50 when unset (0, proto's default). */
export function catchUpQuery(after: string | undefined, limit: number): { after: string | undefined; limit: number } {
  ensure(
    [
      'query.after',
      after === undefined || /^(0|[1-9]\d{0,17})$/.test(after),
      'must be a cursor from a previous page or event',
    ],
    [
      'query.limit',
      limit === 0 || (Number.isInteger(limit) && limit >= 1 && limit <= 100),
      'must be an integer from 1 to 100',
    ],
  );
  return { after, limit: limit === 0 ? 50 : limit };
}
