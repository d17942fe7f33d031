import type { ServiceHandlers } from '@wms/kit/grpc-server';
import type { User as UserMessage } from '@wms/protos/gen/wms/common/v1/User';
import type { AuthResponse } from '@wms/protos/gen/wms/common/v1/AuthResponse';
import type { User } from './domain/user.ts';
import type { IdentityService, SignedIn } from './identity.service.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : undefined);

const toUserMessage = (u: User): UserMessage => ({
  id: u.id,
  email: u.email,
  name: u.name,
  email_verified_at: iso(u.emailVerifiedAt),
  pending_email: u.pendingEmail ?? undefined,
  created_at: u.createdAt.toISOString(),
  updated_at: u.updatedAt.toISOString(),
});

const toAuth = (s: SignedIn): AuthResponse => ({
  access_token: s.accessToken,
  user: toUserMessage(s.user),
  expires_at: iso(s.expiresAt),
});

export function identityHandlers(service: IdentityService): ServiceHandlers<'identity'> {
  return {
    Register: (req, ctx) => service.register(ctx, { email: req.email, password: req.password, name: req.name }),
    RequestMagicLink: (req, ctx) => service.requestMagicLink(ctx, { email: req.email }),
    RecoverAccount: (req, ctx) => service.recoverAccount(ctx, { email: req.email }),
    ResetPassword: async (req, ctx) => {
      await service.resetPassword(ctx, { token: req.token, password: req.password });
      return {};
    },
    RequestEmailCode: async (req, ctx) => {
      const r = await service.requestEmailCode(ctx, { email: req.email });
      return { email: r.email, expires_at: r.expiresAt.toISOString() };
    },
    VerifyEmailCode: async (req, ctx) =>
      toAuth(await service.verifyEmailCode(ctx, { email: req.email, code: req.code })),
    VerifyEmail: async (req, ctx) => {
      const r = await service.verifyEmail(ctx, { token: req.token });
      return { auth: r.signedIn ? toAuth(r.signedIn) : undefined, user: toUserMessage(r.user) };
    },
    Login: async (req, ctx) => toAuth(await service.login(ctx, { email: req.email, password: req.password })),
    Logout: async (_req, ctx) => {
      await service.logout(ctx);
      return {};
    },
    GetMe: async (_req, ctx) => toUserMessage(await service.getMe(ctx)),
    UpdateMe: async (req, ctx) => toUserMessage(await service.updateMe(ctx, { name: req.name, email: req.email })),
    GetUsersByIds: async (req) => ({ users: (await service.getUsersByIds(req.ids)).map(toUserMessage) }),
    SendInvitationMail: async (req) => {
      service.sendInvitationMail({
        email: req.email,
        workspaceName: req.workspace_name,
        inviterName: req.inviter_name,
        token: req.token,
      });
      return {};
    },
    CreateInvitedAccount: async (req, ctx) =>
      toAuth(await service.createInvitedAccount(ctx, { email: req.email, password: req.password, name: req.name })),
    FindUserByEmail: async (req) => {
      const user = await service.findUserByEmail(req.email);
      return { user: user && toUserMessage(user) };
    },
  };
}
