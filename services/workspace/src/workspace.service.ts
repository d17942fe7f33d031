import { randomUUID } from 'node:crypto';
import type { CallContext } from '@wms/kit/context';
import type { Knex } from '@wms/kit/db';
import { forbidden, invalidArgument, invalidInput, notFound, unauthenticated } from '@wms/kit/errors';
import type { AsyncClient } from '@wms/kit/grpc-client';
import { batchIds, isUuid, MAX_BATCH_IDS } from '@wms/kit/ids';
import type { CachedMembership } from '@wms/kit/membership';
import type { IdentityServiceDefinition } from '@wms/protos/gen/wms/identity/v1/IdentityService';
import type { Actor, Workspace, WorkspaceUser } from './domain/model.ts';
import {
  alreadyMember,
  assignableRole,
  requireCanAdd,
  requireCanEditActor,
  requireCanRemove,
  requireManager,
  requireOwner,
  validateProfile,
  validateWorkspaceFields,
} from './domain/rules.ts';
import type { ActorStore } from './store/actor.store.ts';
import type { MemberStore } from './store/member.store.ts';
import type { MembershipCache } from './store/membership-cache.ts';
import type { WorkspaceStore } from './store/workspace.store.ts';

export interface UserSummary {
  id: string;
  email: string;
  name: string;
}

export type MemberWithUser = WorkspaceUser & { user: UserSummary };

export interface WorkspaceDeps {
  db: Knex;
  workspaces: WorkspaceStore;
  members: MemberStore;
  actors: ActorStore;
  cache: MembershipCache;
  identity: Pick<AsyncClient<IdentityServiceDefinition>, 'GetUsersByIds' | 'FindUserByEmail'>;
  /** Called after a workspace is marked deleted, to purge its data in the background. */
  schedulePurge(workspaceId: string): Promise<void>;
}

type CacheEntry = { userId: string; membership: CachedMembership | null };

const cached = (m: WorkspaceUser): CachedMembership => ({ workspaceUserId: m.id, actorId: m.actorId, role: m.role });
const workspaceGone = () => notFound('The workspace does not exist or you are not a member.', 'workspace_not_found');

/** Workspaces, memberships, roles and actors. Every rule of who may do what is checked here, against the database. */
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
    const [user] = await this.users([userId], ctx);
    const id = randomUUID();
    return this.change(async (trx) => {
      const workspace = await this.d.workspaces.insert({ id, name: fields.name!, slug: fields.slug! }, trx);
      const actor = await this.d.actors.insert({ id: randomUUID(), workspaceId: id, kind: 'user', userId, displayName: user!.name || 'Member', title: null, managedByAdmins: false }, trx);
      const owner = await this.d.members.insert({ id: randomUUID(), workspaceId: id, userId, actorId: actor.id, role: 'owner' }, trx);
      return { result: workspace, workspaceId: id, cache: [{ userId, membership: cached(owner) }] };
    });
  }

  listWorkspaces(ctx: CallContext): Promise<Workspace[]> {
    return this.d.workspaces.listForUser(this.userOf(ctx));
  }

  async getWorkspace(ctx: CallContext): Promise<Workspace> {
    await this.caller(ctx);
    return this.liveWorkspace(ctx);
  }

  async updateWorkspace(ctx: CallContext, input: { name?: string | undefined; slug?: string | undefined }): Promise<Workspace> {
    const fields = validateWorkspaceFields(input);
    requireManager((await this.caller(ctx)).role);
    if (fields.name === undefined && fields.slug === undefined) return this.liveWorkspace(ctx);
    const updated = await this.d.workspaces.update(ctx.workspaceId!, fields);
    if (!updated) throw workspaceGone();
    return updated;
  }

  async deleteWorkspace(ctx: CallContext): Promise<void> {
    requireOwner((await this.caller(ctx)).role);
    const workspaceId = ctx.workspaceId!;
    await this.change(async (trx) => {
      if (!(await this.d.workspaces.markDeleted(workspaceId, trx))) throw workspaceGone();
      const userIds = await this.d.members.activeUserIds(workspaceId, trx);
      return { result: undefined, workspaceId, cache: userIds.map((userId) => ({ userId, membership: null })) };
    });
    await this.d.schedulePurge(workspaceId);
  }

  async transferOwnership(ctx: CallContext, input: { workspaceUserId: string }): Promise<MemberWithUser> {
    const caller = await this.caller(ctx);
    requireOwner(caller.role);
    const badTarget = () => invalidArgument('invalid_ownership_target', 'The new owner must be another accepted member of this workspace.');
    if (!isUuid(input.workspaceUserId) || input.workspaceUserId === caller.id) throw badTarget();
    const workspaceId = ctx.workspaceId!;
    const member = await this.change(async (trx) => {
      const rows = await this.d.members.lockMembers(workspaceId, [input.workspaceUserId], trx);
      const owner = rows.find((r) => r.role === 'owner');
      const target = rows.find((r) => r.id === input.workspaceUserId);
      if (!owner || owner.id !== caller.id) throw forbidden('Only the workspace owner can do this.');
      if (!target || !target.acceptedAt || target.id === owner.id) throw badTarget();
      // The old owner steps down first: the database allows one owner per workspace.
      const previous = await this.d.members.setRole(workspaceId, owner.id, 'admin', trx);
      const next = await this.d.members.setRole(workspaceId, target.id, 'owner', trx);
      return {
        result: next!,
        workspaceId,
        cache: [
          { userId: previous!.userId, membership: cached(previous!) },
          { userId: next!.userId, membership: cached(next!) },
        ],
      };
    });
    return (await this.withUsers([member], ctx))[0]!;
  }

  /** The gateway's membership check on a cache miss; fills the cache. */
  async resolveMembership(input: { workspaceId: string; userId: string }): Promise<WorkspaceUser> {
    if (!isUuid(input.workspaceId) || !isUuid(input.userId)) throw workspaceGone();
    const member = await this.d.members.findAccepted(input.workspaceId, input.userId);
    if (!member) throw workspaceGone();
    await this.d.cache.fill(input.workspaceId, input.userId, cached(member));
    return member;
  }

  async addWorkspaceUser(ctx: CallContext, input: { email: string; role?: string | undefined }): Promise<MemberWithUser> {
    const role = assignableRole(input.role ?? 'member');
    requireCanAdd((await this.caller(ctx)).role, role);
    const { user } = await this.d.identity.FindUserByEmail({ email: input.email }, ctx);
    if (!user) throw notFound('No account has that email address.', 'account_not_found');
    const workspaceId = ctx.workspaceId!;
    const member = await this.change(async (trx) => {
      const existing = await this.d.members.findAnyByUserForUpdate(workspaceId, user.id, trx);
      if (existing && !existing.removed) throw alreadyMember();
      let added: WorkspaceUser;
      if (existing) {
        added = await this.d.members.reactivate(existing.id, role, trx);
        await this.d.actors.setDeactivated(existing.actorId, false, trx);
      } else {
        // A racing add of the same account fails on the stores' unique indexes as already_member.
        const actor = await this.d.actors.insert({ id: randomUUID(), workspaceId, kind: 'user', userId: user.id, displayName: user.name || 'Member', title: null, managedByAdmins: false }, trx);
        added = await this.d.members.insert({ id: randomUUID(), workspaceId, userId: user.id, actorId: actor.id, role }, trx);
      }
      return { result: added, workspaceId, cache: [{ userId: user.id, membership: cached(added) }] };
    });
    return { ...member, user: { id: user.id, email: user.email, name: user.name } };
  }

  async listWorkspaceUsers(ctx: CallContext): Promise<MemberWithUser[]> {
    await this.caller(ctx);
    return this.withUsers(await this.d.members.list(ctx.workspaceId!), ctx);
  }

  async updateWorkspaceUserRole(ctx: CallContext, input: { workspaceUserId: string; role: string }): Promise<MemberWithUser> {
    const role = assignableRole(input.role);
    const caller = await this.caller(ctx);
    const workspaceId = ctx.workspaceId!;
    const check = (me: WorkspaceUser | undefined, target: WorkspaceUser | undefined): WorkspaceUser => {
      requireOwner(me?.role);
      if (!target) throw notFound('No such workspace user.');
      if (target.role === 'owner') throw invalidArgument('owner_protected', 'The owner cannot be demoted; transfer ownership instead.');
      return target;
    };
    check(caller, isUuid(input.workspaceUserId) ? await this.d.members.find(workspaceId, input.workspaceUserId) : undefined);
    const updated = await this.change(async (trx) => {
      // Checked again on the locked rows: a transfer of ownership may have happened in between.
      const rows = await this.d.members.lockMembers(workspaceId, [caller.id, input.workspaceUserId], trx);
      const target = check(rows.find((r) => r.id === caller.id), rows.find((r) => r.id === input.workspaceUserId));
      const next = (await this.d.members.setRole(workspaceId, target.id, role, trx))!;
      return { result: next, workspaceId, cache: [{ userId: next.userId, membership: cached(next) }] };
    });
    return (await this.withUsers([updated], ctx))[0]!;
  }

  async removeWorkspaceUser(ctx: CallContext, input: { workspaceUserId: string }): Promise<void> {
    const caller = await this.caller(ctx);
    const workspaceId = ctx.workspaceId!;
    const check = (me: WorkspaceUser | undefined, target: WorkspaceUser | undefined): WorkspaceUser => {
      if (!target) throw notFound('No such workspace user.');
      requireCanRemove({ role: me?.role, workspaceUserId: caller.id }, target);
      return target;
    };
    check(caller, isUuid(input.workspaceUserId) ? await this.d.members.find(workspaceId, input.workspaceUserId) : undefined);
    await this.change(async (trx) => {
      // Checked again on the locked rows: a role change or transfer may have happened in between.
      const rows = await this.d.members.lockMembers(workspaceId, [caller.id, input.workspaceUserId], trx);
      const target = check(rows.find((r) => r.id === caller.id), rows.find((r) => r.id === input.workspaceUserId));
      const removed = (await this.d.members.remove(workspaceId, target.id, trx))!;
      await this.d.actors.setDeactivated(removed.actorId, true, trx);
      return { result: undefined, workspaceId, cache: [{ userId: removed.userId, membership: null }] };
    });
  }

  async listActors(ctx: CallContext): Promise<Actor[]> {
    await this.caller(ctx);
    return this.d.actors.list(ctx.workspaceId!);
  }

  async getActor(ctx: CallContext, actorId: string): Promise<Actor> {
    await this.caller(ctx);
    return this.actor(ctx, actorId);
  }

  async updateActor(ctx: CallContext, actorId: string, input: { displayName?: string | undefined; title?: string | null | undefined }): Promise<Actor> {
    const patch = validateProfile(input);
    const actor = await this.editableActor(ctx, actorId);
    if (patch.displayName === undefined && patch.title === undefined) return actor;
    const updated = await this.d.actors.update(ctx.workspaceId!, actor.id, patch);
    if (!updated) throw notFound('No such actor.');
    return updated;
  }

  async createAgentActor(ctx: CallContext, input: { displayName: string; title?: string | null | undefined }): Promise<Actor> {
    const profile = validateProfile(input);
    if (profile.displayName === undefined) throw invalidInput([{ field: 'body.display_name', message: 'is required' }]);
    requireManager((await this.caller(ctx)).role);
    return this.d.actors.insert({
      id: randomUUID(),
      workspaceId: ctx.workspaceId!,
      kind: 'agent',
      userId: null,
      displayName: profile.displayName,
      title: profile.title ?? null,
      managedByAdmins: true,
    });
  }

  /** For other services: actors of the caller's workspace, in one query (unknown ids left out). */
  getActorsByIds(ctx: CallContext, ids: string[]): Promise<Actor[]> {
    return this.d.actors.findMany(ctx.workspaceId!, batchIds(ids));
  }

  /** The actor an edit (profile or avatar) may change, after the permission check of contract §3. */
  async editableActor(ctx: CallContext, actorId: string): Promise<Actor> {
    const caller = await this.caller(ctx);
    const actor = await this.actor(ctx, actorId);
    requireCanEditActor({ role: caller.role, actorId: caller.actorId }, actor);
    return actor;
  }

  /** The caller's accepted membership, read from the database (the gateway's cached view is not trusted for rules). */
  async caller(ctx: CallContext): Promise<WorkspaceUser> {
    if (!ctx.workspaceId || !ctx.userId) throw workspaceGone();
    const member = await this.d.members.findAccepted(ctx.workspaceId, ctx.userId);
    if (!member) throw workspaceGone();
    return member;
  }

  async liveWorkspace(ctx: CallContext): Promise<Workspace> {
    const workspace = await this.d.workspaces.findLive(ctx.workspaceId!);
    if (!workspace) throw workspaceGone();
    return workspace;
  }

  private async actor(ctx: CallContext, actorId: string): Promise<Actor> {
    const actor = isUuid(actorId) ? await this.d.actors.find(ctx.workspaceId!, actorId) : undefined;
    if (!actor) throw notFound('No such actor.');
    return actor;
  }

  private userOf(ctx: CallContext): string {
    if (!ctx.userId) throw unauthenticated('unauthenticated', 'Sign in first.');
    return ctx.userId;
  }

  /** Users by id, in batches of GetUsersByIds' limit (a member list holds up to 10,000), fetched at once. */
  private async users(ids: string[], ctx: CallContext): Promise<UserSummary[]> {
    const batches = Array.from({ length: Math.ceil(ids.length / MAX_BATCH_IDS) }, (_, i) => ids.slice(i * MAX_BATCH_IDS, (i + 1) * MAX_BATCH_IDS));
    const users = (await Promise.all(batches.map(async (batch) => (await this.d.identity.GetUsersByIds({ ids: batch }, ctx)).users))).flat();
    const byId = new Map(users.map((u) => [u.id, { id: u.id, email: u.email, name: u.name }]));
    return ids.map((id) => byId.get(id) ?? { id, email: '', name: '' });
  }

  private async withUsers(members: WorkspaceUser[], ctx: CallContext): Promise<MemberWithUser[]> {
    const users = await this.users(members.map((m) => m.userId), ctx);
    return members.map((m, i) => ({ ...m, user: users[i]! }));
  }

  /** Runs a change in a transaction and writes its cache entries before the commit (dropping them if it fails). */
  private async change<T>(work: (trx: Knex.Transaction) => Promise<{ result: T; workspaceId: string; cache: CacheEntry[] }>): Promise<T> {
    let written: { workspaceId: string; userIds: string[] } | undefined;
    try {
      return await this.d.db.transaction(async (trx) => {
        const { result, workspaceId, cache } = await work(trx);
        written = { workspaceId, userIds: cache.map((c) => c.userId) };
        await this.d.cache.set(workspaceId, cache);
        return result;
      });
    } catch (err) {
      if (written) await this.d.cache.drop(written.workspaceId, written.userIds);
      throw err;
    }
  }
}
