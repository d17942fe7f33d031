import { randomUUID } from 'node:crypto';
import type { CallContext } from '@wms/kit/context';
import { invalidInput, unauthenticated } from '@wms/kit/errors';
import type { Transact } from '@wms/kit/transactions';
import type { Workspace } from './domain/model.ts';
import { requireManager, requireOwner, userActor, validateWorkspaceFields, workspaceNotFound } from './domain/rules.ts';
import { requireCaller, requireLiveWorkspace } from './lookups.ts';
import type { MembershipChanges } from './membership-changes.ts';
import type { ActorStore } from './store/actor.store.ts';
import type { MemberStore } from './store/member.store.ts';
import type { OutboxStore } from './store/outbox.store.ts';
import type { TokenCache } from './store/token-cache.ts';
import type { TokenStore } from './store/token.store.ts';
import type { WorkspaceStore } from './store/workspace.store.ts';
import type { UserDirectory } from './adapters/user-directory.ts';

/** Purges a deleted workspace's data in the background. */
export interface WorkspacePurges {
  schedule(workspaceId: string): Promise<void>;
}

export interface WorkspaceDeps {
  transact: Transact;
  workspaces: WorkspaceStore;
  members: MemberStore;
  actors: ActorStore;
  outbox: OutboxStore;
  changes: MembershipChanges;
  users: UserDirectory;
  purges: WorkspacePurges;
  tokens: TokenStore;
  tokenCache: TokenCache;
}

/** Workspaces: creation (with their owner), settings and deletion. */
export class WorkspaceService {
  constructor(private readonly d: WorkspaceDeps) {}

  async createWorkspace(ctx: CallContext, input: { name: string; slug: string }): Promise<Workspace> {
    const fields = validateWorkspaceFields(input);
    if (fields.name === undefined || fields.slug === undefined) {
      throw invalidInput([
        ...(fields.name === undefined ? [{ field: 'body.name', message: 'is required' }] : []),
        ...(fields.slug === undefined ? [{ field: 'body.slug', message: 'is required' }] : []),
      ]);
    }
    const userId = this.userOf(ctx);
    const [user] = await this.d.users.byIds([userId], ctx);
    const id = randomUUID();
    return this.d.changes.run(async (tx) => {
      const workspace = await this.d.workspaces.insert({ id, name: fields.name!, slug: fields.slug! }, tx);
      const actor = await this.d.actors.insert(userActor(randomUUID(), id, user!), tx);
      const owner = await this.d.members.insert(
        { id: randomUUID(), workspaceId: id, userId, actorId: actor.id, role: 'owner' },
        tx,
      );
      return { result: workspace, workspaceId: id, cache: [{ userId, member: owner }] };
    });
  }

  listWorkspaces(ctx: CallContext): Promise<Workspace[]> {
    return this.d.workspaces.listForUser(this.userOf(ctx));
  }

  async getWorkspace(ctx: CallContext): Promise<Workspace> {
    await requireCaller(this.d, ctx);
    return requireLiveWorkspace(this.d.workspaces, ctx);
  }

  async updateWorkspace(
    ctx: CallContext,
    input: { name?: string | undefined; slug?: string | undefined },
  ): Promise<Workspace> {
    const fields = validateWorkspaceFields(input);
    requireManager((await requireCaller(this.d, ctx)).role);
    if (fields.name === undefined && fields.slug === undefined) return requireLiveWorkspace(this.d.workspaces, ctx);
    return this.d.transact(async (tx) => {
      const updated = await this.d.workspaces.update(ctx.workspaceId!, fields, tx);
      if (!updated) throw workspaceNotFound();
      await this.d.outbox.append([{ type: 'workspace.updated', workspace: updated }], tx);
      return updated;
    });
  }

  async deleteWorkspace(ctx: CallContext): Promise<void> {
    requireOwner((await requireCaller(this.d, ctx)).role);
    const workspaceId = ctx.workspaceId!;
    let tokensEnded: Buffer[] = [];
    try {
      await this.d.changes.run(async (tx) => {
        if (!(await this.d.workspaces.markDeleted(workspaceId, tx))) throw workspaceNotFound();
        // Told before the purge, which the job scheduled below starts once this has committed.
        await this.d.outbox.append([{ type: 'workspace.deleted', workspaceId }], tx);
        const userIds = await this.d.members.activeUserIds(workspaceId, tx);
        tokensEnded = await this.d.tokens.liveHashes(workspaceId, undefined, tx);
        await this.d.tokenCache.tombstone(tokensEnded);
        return { result: undefined, workspaceId, cache: userIds.map((userId) => ({ userId, member: null })) };
      });
    } catch (err) {
      await this.d.tokenCache.drop(tokensEnded);
      throw err;
    }
    await this.d.purges.schedule(workspaceId);
  }

  private userOf(ctx: CallContext): string {
    if (!ctx.userId) throw unauthenticated('unauthenticated', 'Sign in first.');
    return ctx.userId;
  }
}
