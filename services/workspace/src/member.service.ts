import type { CallContext } from '@wms/kit/context';
import { forbidden, invalidArgument, notFound } from '@wms/kit/errors';
import { isUuid } from '@wms/kit/ids';
import { admitMember } from './admission.ts';
import type { MemberWithUser, WorkspaceUser } from './domain/model.ts';
import { assignableRole, requireCanAdd, requireCanRemove, requireOwner, workspaceNotFound } from './domain/rules.ts';
import { requireMember } from './lookups.ts';
import type { MembershipChanges } from './membership-changes.ts';
import type { ActorStore } from './store/actor.store.ts';
import type { InvitationStore } from './store/invitation.store.ts';
import type { MemberStore } from './store/member.store.ts';
import type { MembershipCache } from './store/membership-cache.ts';
import type { OutboxStore } from './store/outbox.store.ts';
import type { UserDirectory } from './adapters/user-directory.ts';

export interface MemberDeps {
  members: MemberStore;
  actors: ActorStore;
  cache: MembershipCache;
  changes: MembershipChanges;
  users: UserDirectory;
  outbox: OutboxStore;
  invitations: InvitationStore;
  /** The service's clock (tests move it): what an invitation's expiry is read against. */
  now: () => Date;
}

const noSuchMember = () => notFound('No such workspace user.');

/** Memberships and roles: who belongs to a workspace and who may change that, checked against the database. */
export class MemberService {
  constructor(private readonly d: MemberDeps) {}

  /** The gateway's membership check on a cache miss; fills the cache. */
  async resolveMembership(input: { workspaceId: string; userId: string }): Promise<WorkspaceUser> {
    if (!isUuid(input.workspaceId) || !isUuid(input.userId)) throw workspaceNotFound();
    const member = await this.d.members.findAccepted(input.workspaceId, input.userId);
    if (!member) throw workspaceNotFound();
    await this.d.cache.fill(member);
    return member;
  }

  async addWorkspaceUser(
    ctx: CallContext,
    input: { email: string; role?: string | undefined },
  ): Promise<MemberWithUser> {
    const role = assignableRole(input.role ?? 'member');
    requireCanAdd((await requireMember(this.d.members, ctx)).role, role);
    const user = await this.d.users.byEmail(input.email, ctx);
    if (!user) throw notFound('No account has that email address.', 'account_not_found');
    const workspaceId = ctx.workspaceId!;
    const member = await this.d.changes.run(async (tx) => {
      const added = await admitMember(this.d, { workspaceId, user, role, whenMember: 'refuse', now: this.d.now() }, tx);
      return { result: added, workspaceId, cache: [{ userId: user.id, member: added }] };
    });
    return { ...member, user };
  }

  async listWorkspaceUsers(ctx: CallContext): Promise<MemberWithUser[]> {
    await requireMember(this.d.members, ctx);
    return this.d.users.withUsers(await this.d.members.list(ctx.workspaceId!), ctx);
  }

  async updateWorkspaceUserRole(
    ctx: CallContext,
    input: { workspaceUserId: string; role: string },
  ): Promise<MemberWithUser> {
    const role = assignableRole(input.role);
    const caller = await requireMember(this.d.members, ctx);
    const workspaceId = ctx.workspaceId!;
    const check = (me: WorkspaceUser | undefined, target: WorkspaceUser | undefined): WorkspaceUser => {
      requireOwner(me?.role);
      if (!target) throw noSuchMember();
      if (target.role === 'owner')
        throw invalidArgument('owner_protected', 'The owner cannot be demoted; transfer ownership instead.');
      return target;
    };
    const [user] = await this.d.users.byIds(
      [check(caller, await this.target(workspaceId, input.workspaceUserId)).userId],
      ctx,
    );
    // The account behind a membership never changes, so the event's can be read before the transaction.
    return this.d.changes.run(async (tx) => {
      // Checked again on the locked rows: a transfer of ownership may have happened in between.
      const rows = await this.d.members.lockMembers(workspaceId, [caller.id, input.workspaceUserId], tx);
      const target = check(
        rows.find((r) => r.id === caller.id),
        rows.find((r) => r.id === input.workspaceUserId),
      );
      const next = { ...(await this.d.members.setRole(workspaceId, target.id, role, tx))!, user: user! };
      await this.d.outbox.append([{ type: 'workspace_user.updated', member: next }], tx);
      return { result: next, workspaceId, cache: [{ userId: next.userId, member: next }] };
    });
  }

  async removeWorkspaceUser(ctx: CallContext, input: { workspaceUserId: string }): Promise<void> {
    const caller = await requireMember(this.d.members, ctx);
    const workspaceId = ctx.workspaceId!;
    const check = (me: WorkspaceUser | undefined, target: WorkspaceUser | undefined): WorkspaceUser => {
      if (!target) throw noSuchMember();
      requireCanRemove({ role: me?.role, workspaceUserId: caller.id }, target);
      return target;
    };
    const [user] = await this.d.users.byIds(
      [check(caller, await this.target(workspaceId, input.workspaceUserId)).userId],
      ctx,
    );
    await this.d.changes.run(async (tx) => {
      // Checked again on the locked rows: a role change or transfer may have happened in between.
      const rows = await this.d.members.lockMembers(workspaceId, [caller.id, input.workspaceUserId], tx);
      const target = check(
        rows.find((r) => r.id === caller.id),
        rows.find((r) => r.id === input.workspaceUserId),
      );
      const removed = (await this.d.members.remove(workspaceId, target.id, tx))!;
      const actor = (await this.d.actors.setDeactivated(workspaceId, removed.actorId, true, tx))!;
      await this.d.outbox.append(
        [
          { type: 'workspace_user.removed', member: { ...removed, user: user! } },
          { type: 'actor.updated', actor },
        ],
        tx,
      );
      return { result: undefined, workspaceId, cache: [{ userId: removed.userId, member: null }] };
    });
  }

  async transferOwnership(ctx: CallContext, input: { workspaceUserId: string }): Promise<MemberWithUser> {
    const caller = await requireMember(this.d.members, ctx);
    requireOwner(caller.role);
    const badTarget = () =>
      invalidArgument('invalid_ownership_target', 'The new owner must be another accepted member of this workspace.');
    if (!isUuid(input.workspaceUserId) || input.workspaceUserId === caller.id) throw badTarget();
    const workspaceId = ctx.workspaceId!;
    const chosen = await this.d.members.find(workspaceId, input.workspaceUserId);
    if (!chosen) throw badTarget();
    const [callerUser, chosenUser] = await this.d.users.byIds([caller.userId, chosen.userId], ctx);
    return this.d.changes.run(async (tx) => {
      const rows = await this.d.members.lockMembers(workspaceId, [input.workspaceUserId], tx);
      const owner = rows.find((r) => r.role === 'owner');
      const target = rows.find((r) => r.id === input.workspaceUserId);
      if (!owner || owner.id !== caller.id) throw forbidden('Only the workspace owner can do this.');
      if (!target || !target.acceptedAt || target.id === owner.id) throw badTarget();
      // The old owner steps down first: the database allows one owner per workspace.
      const previous = { ...(await this.d.members.setRole(workspaceId, owner.id, 'admin', tx))!, user: callerUser! };
      const next = { ...(await this.d.members.setRole(workspaceId, target.id, 'owner', tx))!, user: chosenUser! };
      await this.d.outbox.append(
        [
          { type: 'workspace_user.updated', member: previous },
          { type: 'workspace_user.updated', member: next },
        ],
        tx,
      );
      return {
        result: next,
        workspaceId,
        cache: [
          { userId: previous.userId, member: previous },
          { userId: next.userId, member: next },
        ],
      };
    });
  }

  /** A member of the workspace named by a request; a malformed id is not found. */
  private async target(workspaceId: string, workspaceUserId: string): Promise<WorkspaceUser | undefined> {
    return isUuid(workspaceUserId) ? this.d.members.find(workspaceId, workspaceUserId) : undefined;
  }
}
