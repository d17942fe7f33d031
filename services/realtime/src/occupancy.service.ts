import { actorChannel, CHANNEL_PREFIXES, presenceChannel } from '@wms/kit/channels';
import { isUuid } from '@wms/kit/ids';
import type { Transact, Tx } from '@wms/kit/transactions';
import { parseChannel } from './domain/channels.ts';
import { type Observed, type PresenceState, reconcile } from './domain/presence.ts';
import type { DeliveryNudge } from './events.service.ts';
import { presenceEventOf } from './event-payloads.ts';
import type { EventStore } from './store/event.store.ts';
import type { PresenceStore } from './store/presence.store.ts';

/** The provider's channel APIs: the truth about occupancy and membership; each fails on any error the provider reports. */
export interface ChannelInfo {
  isOccupied(channel: string): Promise<boolean>;
  /** The user ids of a presence channel's members (none when it is empty). */
  members(channel: string): Promise<string[]>;
  /** The occupied channels whose names start with `prefix`. */
  occupiedChannels(prefix: string): Promise<string[]>;
}

/**
 * Presence as the provider has it: webhooks only name channels to look at, and a sweep looks at them all, since
 * webhooks can be lost or arrive out of order. Every change becomes a `presence.updated` event.
 */
export class OccupancyService {
  constructor(
    private readonly d: {
      transact: Transact;
      presence: PresenceStore;
      events: EventStore;
      provider: ChannelInfo;
      delivery: DeliveryNudge;
    },
  ) {}

  /** Reconciles the named channels (actor channels and workspace presence channels; other names are ignored). */
  async reconcile(channels: string[]): Promise<number> {
    const actorIds: string[] = [];
    const workspaceIds: string[] = [];
    for (const name of channels) {
      const c = parseChannel(name);
      if (c?.kind === 'actor') actorIds.push(c.actorId);
      if (c?.kind === 'presence') workspaceIds.push(c.workspaceId);
    }
    if (actorIds.length === 0 && workspaceIds.length === 0) return 0;
    return this.apply(async (tx) => {
      const workspaces = await this.d.presence.workspacesOf(actorIds, tx);
      const observed: Observed = { actorChannels: new Map(), presenceMembers: new Map() };
      for (const actorId of actorIds) {
        const workspaceId = workspaces.get(actorId);
        if (workspaceId)
          observed.actorChannels.set(actorId, {
            workspaceId,
            occupied: await this.d.provider.isOccupied(actorChannel(actorId)),
          });
      }
      for (const workspaceId of workspaceIds) {
        observed.presenceMembers.set(workspaceId, await this.membersOf(workspaceId));
      }
      const current = await this.d.presence.current(
        { actorIds: [...actorIds, ...[...observed.presenceMembers.values()].flatMap((m) => [...m])], workspaceIds },
        tx,
      );
      return { current, observed };
    });
  }

  /**
   * Reconciles every channel: an actor the provider does not list is marked missing, and vacated when the next sweep
   * does not list it either (a provider of several nodes lists only what the nodes that answered in time hold).
   */
  async sweep(): Promise<number> {
    return this.apply(async (tx) => {
      const [actorChannels, presenceChannels] = await Promise.all([
        this.d.provider.occupiedChannels(CHANNEL_PREFIXES.actor),
        this.d.provider.occupiedChannels(CHANNEL_PREFIXES.presence),
      ]);
      const current = await this.d.presence.current(undefined, tx);
      const occupied = new Set(
        actorChannels.map(parseChannel).flatMap((c) => (c?.kind === 'actor' ? [c.actorId] : [])),
      );
      const workspaces = await this.d.presence.workspacesOf([...occupied], tx);
      const observed: Observed = { actorChannels: new Map(), presenceMembers: new Map(), sweep: true };
      for (const p of current) {
        observed.actorChannels.set(p.actorId, { workspaceId: p.workspaceId, occupied: occupied.has(p.actorId) });
        observed.presenceMembers.set(p.workspaceId, new Set());
      }
      for (const [actorId, workspaceId] of workspaces)
        observed.actorChannels.set(actorId, { workspaceId, occupied: true });
      for (const c of presenceChannels.map(parseChannel)) {
        if (c?.kind === 'presence') observed.presenceMembers.set(c.workspaceId, await this.membersOf(c.workspaceId));
      }
      return { current, observed };
    });
  }

  /** Observes under the presence lock, so reconciliations take turns and the newest observation is written last. */
  private async apply(observe: (tx: Tx) => Promise<{ current: PresenceState[]; observed: Observed }>): Promise<number> {
    const changes = await this.d.transact(async (tx) => {
      await this.d.presence.lock(tx);
      const { current, observed } = await observe(tx);
      const result = reconcile(current, observed, new Date());
      await this.d.presence.save(result.save, tx);
      await this.d.presence.remove(result.remove, tx);
      await this.d.events.insert(result.changes.map(presenceEventOf), tx);
      return result.changes.length;
    });
    if (changes > 0) await this.d.delivery.nudge();
    return changes;
  }

  /** A presence channel's members: the actor ids this service signed as their user ids. */
  private async membersOf(workspaceId: string): Promise<Set<string>> {
    return new Set((await this.d.provider.members(presenceChannel(workspaceId))).filter(isUuid));
  }
}
