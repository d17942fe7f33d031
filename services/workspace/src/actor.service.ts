import { randomUUID } from 'node:crypto';
import type { CallContext } from '@wms/kit/context';
import { ensure, forbidden, invalidInput } from '@wms/kit/errors';
import { batchIds } from '@wms/kit/ids';
import type { Transact } from '@wms/kit/transactions';
import type { Actor } from './domain/model.ts';
import { actorNotFound, requireManager, validateProfile } from './domain/rules.ts';
import { requireActor, requireCaller, requireEditableActor } from './lookups.ts';
import type { ActorStore } from './store/actor.store.ts';
import type { MemberStore } from './store/member.store.ts';
import type { OutboxStore } from './store/outbox.store.ts';
import type { TokenCache } from './store/token-cache.ts';
import type { TokenStore } from './store/token.store.ts';

export interface ActorDeps {
  transact: Transact;
  members: MemberStore;
  actors: ActorStore;
  outbox: OutboxStore;
  tokens: TokenStore;
  tokenCache: TokenCache;
}

/** Actors, the authors of a workspace's messages: members' user actors and the agents admins manage. */
export class ActorService {
  constructor(private readonly d: ActorDeps) {}

  /** The workspace's actors; with `q` (1..80 characters), those whose display name contains it, prefix matches first. */
  async listActors(ctx: CallContext, q?: string): Promise<Actor[]> {
    await requireCaller(this.d, ctx);
    if (q !== undefined) ensure(['query.q', q.length >= 1 && q.length <= 80, 'must be 1 to 80 characters']);
    return this.d.actors.list(ctx.workspaceId!, q);
  }

  async getActor(ctx: CallContext, actorId: string): Promise<Actor> {
    await requireCaller(this.d, ctx);
    return requireActor(this.d.actors, ctx, actorId);
  }

  async updateActor(
    ctx: CallContext,
    actorId: string,
    input: { displayName?: string | undefined; title?: string | null | undefined },
  ): Promise<Actor> {
    const patch = validateProfile(input);
    const actor = await requireEditableActor(this.d, ctx, actorId);
    if (patch.displayName === undefined && patch.title === undefined) return actor;
    return this.d.transact(async (tx) => {
      const updated = await this.d.actors.update(ctx.workspaceId!, actor.id, patch, tx);
      if (!updated) throw actorNotFound();
      await this.d.outbox.append([{ type: 'actor.updated', actor: updated }], tx);
      return updated;
    });
  }

  async createAgentActor(
    ctx: CallContext,
    input: { displayName: string; title?: string | null | undefined },
  ): Promise<Actor> {
    const { displayName, title = null } = validateProfile(input);
    if (displayName === undefined) throw invalidInput([{ field: 'body.display_name', message: 'is required' }]);
    requireManager((await requireCaller(this.d, ctx)).role);
    return this.d.transact(async (tx) => {
      const agent = await this.d.actors.insert(
        {
          id: randomUUID(),
          workspaceId: ctx.workspaceId!,
          kind: 'agent',
          userId: null,
          displayName,
          title,
          managedByAdmins: true,
        },
        tx,
      );
      // The catalogue has no actor.created: a client learns of a new actor as of a changed one.
      await this.d.outbox.append([{ type: 'actor.updated', actor: agent }], tx);
      return agent;
    });
  }

  /**
   * Deactivates an agent that admins manage (owners and admins; any other actor 403): its tokens stop working at the
   * gateway's next request, its messages keep their author. Again, it changes nothing.
   */
  async deactivateAgent(ctx: CallContext, actorId: string): Promise<Actor> {
    requireManager((await requireCaller(this.d, ctx)).role);
    const actor = await requireActor(this.d.actors, ctx, actorId);
    if (actor.kind !== 'agent' || !actor.managedByAdmins)
      throw forbidden('Only agents managed by admins can be deactivated; a member leaves by being removed.');
    return this.d.tokenCache.ending(async (tx) => {
      const ended = await this.d.tokens.liveHashes(actor.workspaceId, actor.id, tx);
      if (actor.deactivatedAt !== null) return { result: actor, ended };
      const updated = (await this.d.actors.setDeactivated(actor.workspaceId, actor.id, true, tx))!;
      await this.d.outbox.append([{ type: 'actor.updated', actor: updated }], tx);
      return { result: updated, ended };
    });
  }

  /** For other services: actors of the caller's workspace, in one query (unknown ids left out). */
  getActorsByIds(ctx: CallContext, ids: string[]): Promise<Actor[]> {
    return this.d.actors.findMany(ctx.workspaceId!, batchIds(ids));
  }
}
