import type { CallContext } from '@wms/kit/context';
import type { PeerClient } from '@wms/kit/grpc-client';
import { MAX_BATCH_IDS } from '@wms/kit/ids';
import type { AuthResponse__Output } from '@wms/protos/gen/wms/common/v1/AuthResponse';
import type { MemberWithUser, UserSummary, WorkspaceUser } from '../domain/model.ts';

export type IdentityClient = Pick<
  PeerClient<'identity'>,
  'GetUsersByIds' | 'FindUserByEmail' | 'SendInvitationMail' | 'CreateInvitedAccount'
>;

const summary = (u: UserSummary): UserSummary => ({ id: u.id, email: u.email, name: u.name });

/** The accounts behind memberships, asked of the identity service. */
export class UserDirectory {
  constructor(private readonly identity: IdentityClient) {}

  /** Users by id, in batches of GetUsersByIds' limit (a member list holds up to 10,000), fetched at once; unknown ids get blanks. */
  async byIds(ids: string[], ctx: CallContext): Promise<UserSummary[]> {
    const batches = Array.from({ length: Math.ceil(ids.length / MAX_BATCH_IDS) }, (_, i) =>
      ids.slice(i * MAX_BATCH_IDS, (i + 1) * MAX_BATCH_IDS),
    );
    const users = (
      await Promise.all(batches.map(async (batch) => (await this.identity.GetUsersByIds({ ids: batch }, ctx)).users))
    ).flat();
    const byId = new Map(users.map((u) => [u.id, summary(u)]));
    return ids.map((id) => byId.get(id) ?? { id, email: '', name: '' });
  }

  /** The account of a signed-in user when its address is verified: whose invitations it may see and answer. */
  async verified(userId: string, ctx: CallContext): Promise<UserSummary | undefined> {
    const [user] = (await this.identity.GetUsersByIds({ ids: [userId] }, ctx)).users;
    return user?.email_verified_at ? summary(user) : undefined;
  }

  async byEmail(email: string, ctx: CallContext): Promise<UserSummary | undefined> {
    const { user } = await this.identity.FindUserByEmail({ email }, ctx);
    return user ? summary(user) : undefined;
  }

  /** Mails an invitation's link (identity mails, in the background). */
  async sendInvitation(
    mail: { email: string; workspaceName: string; inviterName: string; token: string },
    ctx: CallContext,
  ): Promise<void> {
    await this.identity.SendInvitationMail(
      { email: mail.email, workspace_name: mail.workspaceName, inviter_name: mail.inviterName, token: mail.token },
      ctx,
    );
  }

  /** The account of an invitee registering from its link, signed in; 409 `account_exists` when the address has one. */
  async createInvited(
    input: { email: string; name: string; password: string },
    ctx: CallContext,
  ): Promise<AuthResponse__Output> {
    return this.identity.CreateInvitedAccount(input, ctx);
  }

  /** Members with their accounts, in one round of batched calls. */
  async withUsers(members: WorkspaceUser[], ctx: CallContext): Promise<MemberWithUser[]> {
    const users = await this.byIds(
      members.map((m) => m.userId),
      ctx,
    );
    return members.map((m, i) => ({ ...m, user: users[i]! }));
  }
}
