import { randomUUID } from 'node:crypto';
import { workspaceChannel } from '@wms/kit/channels';
import { publicActorPresence } from '@wms/protos/public';
import type { NewEvent } from './domain/events.ts';
import type { PresenceChange } from './domain/presence.ts';

/** This service as the source of the events it makes itself. */
export const OWN_SOURCE = 'realtime';

/** `presence.updated` on the workspace's channel: `{event_id, presence: ActorPresence}` (contract §7). */
export function presenceEventOf(c: PresenceChange): NewEvent {
  const eventId = randomUUID();
  return {
    eventId,
    source: OWN_SOURCE,
    sourceId: eventId,
    workspaceId: c.workspaceId,
    channel: workspaceChannel(c.workspaceId),
    name: 'presence.updated',
    data: {
      event_id: eventId,
      presence: publicActorPresence({ actor_id: c.actorId, status: c.status, since: c.since.toISOString() }),
    },
  };
}
