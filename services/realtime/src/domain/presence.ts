/** An actor online now, and why: its own channel is occupied, or it is a member of its workspace's presence channel. */
export interface PresenceState {
  actorId: string;
  workspaceId: string;
  actorChannel: boolean;
  presenceMember: boolean;
  since: Date;
  /** When a sweep first missed it (see `Observed.sweep`); null while every observation finds it. */
  missingSince: Date | null;
}

/**
 * A change of an actor's presence, as `presence.updated` tells it. The contract's ActorPresence has status
 * "online"; "offline" is the leave event's status, `since` then the moment it went offline.
 */
export interface PresenceChange {
  workspaceId: string;
  actorId: string;
  status: 'online' | 'offline';
  since: Date;
}

/** What the provider reported for some channels: actor channels' occupancy, presence channels' members. */
export interface Observed {
  /** By actor id; only actors whose workspace is known. */
  actorChannels: Map<string, { workspaceId: string; occupied: boolean }>;
  /** By workspace id: the actor ids of its presence channel's members. */
  presenceMembers: Map<string, Set<string>>;
  /**
   * A sweep: every channel the provider lists. A provider of several nodes (Soketi's Redis adapter) answers a listing
   * with what the nodes that answered in time hold, so a sweep's miss may be a node that did not answer.
   */
  sweep?: boolean;
}

export interface Reconciled {
  /** Rows to write: actors that came online or changed their reason. */
  save: PresenceState[];
  /** Actors that went offline. */
  remove: string[];
  changes: PresenceChange[];
}

/**
 * Presence after what was observed: an actor's reason follows the provider wherever its channel was observed and
 * stays as stored elsewhere. `current` must hold every stored row of the actors and presence channels observed.
 *
 * An actor that a sweep misses stays online, marked missing; the next sweep that misses it too takes it offline, so
 * one partial answer takes no one offline. An observation that finds it clears the mark; a webhook's check (not a
 * sweep) that finds it gone takes it offline at once. The offline `since` is when it was taken offline.
 */
export function reconcile(current: PresenceState[], observed: Observed, now: Date): Reconciled {
  const before = new Map(current.map((p) => [p.actorId, p]));
  const workspaceOf = new Map<string, string>(current.map((p) => [p.actorId, p.workspaceId]));
  for (const [actorId, { workspaceId }] of observed.actorChannels) workspaceOf.set(actorId, workspaceId);
  for (const [workspaceId, members] of observed.presenceMembers)
    for (const actorId of members) if (!workspaceOf.has(actorId)) workspaceOf.set(actorId, workspaceId);

  const out: Reconciled = { save: [], remove: [], changes: [] };
  for (const [actorId, workspaceId] of [...workspaceOf].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const was = before.get(actorId);
    const members = observed.presenceMembers.get(workspaceId);
    const channel = observed.actorChannels.get(actorId);
    const actorChannel = channel?.occupied ?? was?.actorChannel ?? false;
    const presenceMember = members ? members.has(actorId) : (was?.presenceMember ?? false);
    if (actorChannel || presenceMember) {
      const found = channel?.occupied === true || members?.has(actorId) === true;
      const missingSince = found ? null : (was?.missingSince ?? null);
      if (
        was &&
        was.actorChannel === actorChannel &&
        was.presenceMember === presenceMember &&
        was.missingSince === missingSince
      )
        continue;
      out.save.push({ actorId, workspaceId, actorChannel, presenceMember, since: was?.since ?? now, missingSince });
      if (!was) out.changes.push({ workspaceId, actorId, status: 'online', since: now });
    } else if (was && observed.sweep && was.missingSince === null) {
      out.save.push({ ...was, missingSince: now });
    } else if (was) {
      out.remove.push(actorId);
      out.changes.push({ workspaceId: was.workspaceId, actorId, status: 'offline', since: now });
    }
  }
  return out;
}
