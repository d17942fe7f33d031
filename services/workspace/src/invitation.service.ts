import {
  emailCheck,
  hashToken,
  nameCheck,
  newToken,
  normalizeEmail,
  normalizeName,
  passwordCheck,
  tokenCheck,
} from '@wms/kit/account-rules';
import type { CallContext } from '@wms/kit/context';
import { ensure, invalidInput, rateLimited } from '@wms/kit/errors';
import { isUuid, uuidv7 } from '@wms/kit/ids';
import type { ThrottleStore } from '@wms/kit/throttle';
import type { AuthResponse__Output } from '@wms/protos/gen/wms/common/v1/AuthResponse';
import { type AdmissionStores, admitMember } from './admission.ts';
import {
  INVITATION_LIFETIME_MS,
  type InvitationAction,
  type InvitationStatus,
  invitationLinkInvalid,
  invitationNotFound,
  transition,
} from './domain/invitation.ts';
import type { Invitation, MemberWithUser, ReceivedInvitation, UserSummary } from './domain/model.ts';
import { alreadyMember, assignableRole, requireCanAdd, requireManager } from './domain/rules.ts';
import { requireMember } from './lookups.ts';
import type { MembershipChanges } from './membership-changes.ts';
import type { InvitationStore } from './store/invitation.store.ts';
import type { WorkspaceStore } from './store/workspace.store.ts';
import type { UserDirectory } from './adapters/user-directory.ts';

export interface InvitationDeps extends AdmissionStores {
  invitations: InvitationStore;
  workspaces: WorkspaceStore;
  changes: MembershipChanges;
  users: UserDirectory;
  /** Invitation mails per workspace in a sliding hour. */
  mailLimit: { store: ThrottleStore; perHour: number };
  /** The service's clock (tests move it): what an invitation's expiry is read against. */
  now: () => Date;
}

/**
 * The clock read once, when the lock that decides has its row, and that same time for everything after it: the
 * admission then accepts exactly the invitation the lock saw pending (a later reading could find it expired).
 */
function readOnce(clock: () => Date): () => Date {
  let at: Date | undefined;
  return () => (at ??= clock());
}

const STATUSES: readonly InvitationStatus[] = ['pending', 'accepted', 'declined', 'revoked', 'expired'];

/**
 * Invitations (contract §12): owners and admins invite an address; the person behind it accepts (or registers from
 * the mailed link), and only then is the membership accepted. No answer tells whether an address has an account.
 */
export class InvitationService {
  constructor(private readonly d: InvitationDeps) {}

  /**
   * Invites an address, or renews and resends its pending invitation (`created` false; its role kept unless one is
   * given, and a renewal is the inviter's to make as a new invitation of that role would be).
   */
  async invite(
    ctx: CallContext,
    input: { email: string; role?: string | undefined },
  ): Promise<{ invitation: Invitation; created: boolean }> {
    const email = normalizeEmail(input.email);
    ensure(emailCheck(email));
    const given = input.role === undefined ? undefined : assignableRole(input.role);
    const caller = await requireMember(this.d.members, ctx);
    requireCanAdd(caller.role, given ?? 'member');
    const workspaceId = caller.workspaceId;
    await this.requireNotMember(workspaceId, email, ctx);
    const [workspace, inviter] = await Promise.all([
      this.d.workspaces.findLive(workspaceId),
      this.d.actors.find(workspaceId, caller.actorId),
    ]);
    await this.admitMail(workspaceId);
    const token = newToken();
    const sent = await this.d.changes.run(async (tx) => {
      const pending = await this.d.invitations.lockPending(workspaceId, email, this.d.now, tx);
      const role = given ?? (pending?.status === 'pending' ? pending.role : 'member');
      requireCanAdd(caller.role, role);
      const now = this.d.now();
      const result = await this.d.invitations.send(
        {
          id: uuidv7(),
          workspaceId,
          email,
          role,
          invitedByActorId: caller.actorId,
          tokenHash: hashToken(token),
          expiresAt: new Date(now.getTime() + INVITATION_LIFETIME_MS),
        },
        now,
        tx,
      );
      // Once more after the invitation's row: an acceptance (or a registration) it waited for made the address a member.
      await this.requireNotMember(workspaceId, email, ctx);
      return { result, workspaceId, cache: [] };
    });
    await this.d.users.sendInvitation(
      { email, workspaceName: workspace?.name ?? '', inviterName: inviter?.displayName ?? 'A teammate', token },
      ctx,
    );
    return sent;
  }

  /** A page of the workspace's invitations by status (pending by default), newest first. */
  async list(
    ctx: CallContext,
    input: { status?: string | undefined; cursor?: string | undefined; limit: number },
  ): Promise<{ items: Invitation[]; nextCursor: string | null }> {
    const status = (input.status ?? 'pending') as InvitationStatus;
    if (!STATUSES.includes(status))
      throw invalidInput([{ field: 'query.status', message: `must be one of ${STATUSES.join(', ')}` }]);
    requireManager((await requireMember(this.d.members, ctx)).role);
    const limit = Math.min(Math.max(input.limit || 50, 1), 100);
    const cursor = input.cursor !== undefined && isUuid(input.cursor) ? input.cursor : undefined;
    const page = await this.d.invitations.list(ctx.workspaceId!, { status, cursor, limit }, this.d.now());
    return { items: page.items, nextCursor: page.more ? page.items.at(-1)!.id : null };
  }

  /** Revokes a pending invitation; a closed one stays as it is (still 204). */
  async revoke(ctx: CallContext, invitationId: string): Promise<void> {
    requireManager((await requireMember(this.d.members, ctx)).role);
    await this.d.changes.run(async (tx) => {
      const now = readOnce(this.d.now);
      const invitation = await this.d.invitations.lockInWorkspace(ctx.workspaceId!, invitationId, now, tx);
      if (!invitation) throw invitationNotFound();
      const next = transition(invitation.status, 'revoke');
      if (next) await this.d.invitations.close(invitation.id, next, now(), tx);
      return { result: undefined, workspaceId: invitation.workspaceId, cache: [] };
    });
  }

  /** The pending invitations to the caller's verified address, newest first. */
  async received(ctx: CallContext): Promise<ReceivedInvitation[]> {
    const user = await this.invitee(ctx);
    return user ? this.d.invitations.receivedBy(user.email, this.d.now()) : [];
  }

  /** The invitee accepts: an accepted membership with the invited role (a removed member's comes back). */
  async accept(ctx: CallContext, invitationId: string): Promise<MemberWithUser> {
    return this.answer(ctx, invitationId, 'accept');
  }

  async decline(ctx: CallContext, invitationId: string): Promise<void> {
    await this.answer(ctx, invitationId, 'decline');
  }

  /** What a mailed link's page shows; the link works while its invitation is pending. */
  async byToken(token: string): Promise<ReceivedInvitation> {
    ensure(tokenCheck(token, 'query.token'));
    const found = await this.d.invitations.receivedByToken(hashToken(token), this.d.now());
    if (found?.invitation.status !== 'pending') throw invitationLinkInvalid();
    return found;
  }

  /**
   * A newcomer registers from the mailed link: the account is made with its address verified and signed in, and the
   * invitation accepted, while the invitation is locked (a racing revocation or a second use waits, then finds it
   * closed). Should identity's account outlive a failed commit, its owner signs in and accepts.
   */
  async register(
    ctx: CallContext,
    input: { token: string; name: string; password: string },
  ): Promise<AuthResponse__Output> {
    ensure(tokenCheck(input.token), nameCheck(normalizeName(input.name)), passwordCheck(input.password));
    return this.d.changes.run(async (tx) => {
      const now = readOnce(this.d.now);
      const invitation = await this.d.invitations.lockByToken(hashToken(input.token), now, tx);
      if (invitation?.status !== 'pending') throw invitationLinkInvalid();
      const auth = await this.d.users.createInvited(
        { email: invitation.email, name: input.name, password: input.password },
        ctx,
      );
      const user = { id: auth.user!.id, email: auth.user!.email, name: auth.user!.name };
      const { workspaceId, role } = invitation;
      const member = await admitMember(this.d, { workspaceId, user, role, whenMember: 'keep', now: now() }, tx);
      return { result: auth, workspaceId, cache: [{ userId: user.id, member }] };
    });
  }

  private async answer(ctx: CallContext, invitationId: string, action: 'accept'): Promise<MemberWithUser>;
  private async answer(ctx: CallContext, invitationId: string, action: 'decline'): Promise<undefined>;
  private async answer(
    ctx: CallContext,
    invitationId: string,
    action: Exclude<InvitationAction, 'revoke'>,
  ): Promise<MemberWithUser | undefined> {
    const user = await this.invitee(ctx);
    if (!user) throw invitationNotFound();
    return this.d.changes.run(async (tx) => {
      const now = readOnce(this.d.now);
      const invitation = await this.d.invitations.lockForInvitee(invitationId, user.email, now, tx);
      if (!invitation) throw invitationNotFound();
      // 409 `invitation_closed` unless it is pending.
      transition(invitation.status, action);
      const { workspaceId, role } = invitation;
      if (action === 'decline') {
        await this.d.invitations.close(invitation.id, 'declined', now(), tx);
        return { result: undefined, workspaceId, cache: [] };
      }
      // Admission accepts the address's pending invitation, this one, into the membership.
      const member = await admitMember(this.d, { workspaceId, user, role, whenMember: 'keep', now: now() }, tx);
      return { result: { ...member, user }, workspaceId, cache: [{ userId: user.id, member }] };
    });
  }

  /** The signed-in caller's account when its address is verified: whose invitations it sees and answers. */
  private async invitee(ctx: CallContext): Promise<UserSummary | undefined> {
    return ctx.userId ? this.d.users.verified(ctx.userId, ctx) : undefined;
  }

  /** 409 `already_member` when the address is an accepted member's (told only to the owners and admins who ask). */
  private async requireNotMember(workspaceId: string, email: string, ctx: CallContext): Promise<void> {
    const account = await this.d.users.byEmail(email, ctx);
    if (account && (await this.d.members.findAccepted(workspaceId, account.id))) throw alreadyMember();
  }

  /** Counts an invitation mail against the workspace's hourly limit: 429 `rate_limited` once it is reached. */
  private async admitMail(workspaceId: string): Promise<void> {
    const { store, perHour } = this.d.mailLimit;
    const bucket = { key: `invitations:mail:${workspaceId}`, limit: perHour };
    const admission = await store.admit([bucket], 'every_attempt');
    if (admission.admitted) return;
    const seconds = Math.max(1, Math.ceil(admission.retryAfterMs / 1000));
    throw rateLimited(seconds, [
      {
        field: 'workspace',
        message: `at most ${perHour} invitation mails per workspace in an hour; the next is allowed in ${seconds} s`,
      },
    ]);
  }
}
