import { z } from 'zod';
import type { Clients } from '../clients.ts';
import { passwordReset, toAuth, toEmailCodePending, toEmailPending, toUser, toVerifiedEmail } from '../mappers.ts';
import * as s from '../schemas.ts';
import { route } from './route.ts';

const emailBody = z.object({ email: s.email }).meta({ examples: [{ email: 'ada@example.org' }] });
const throttled = [429];
const rateLimited = ['rate_limited'] as const;

/** The spec's Auth and Users sections (contract §2), served by the identity service. */
export const identityRoutes = ({ identity }: Clients) => [
  route({
    method: 'post',
    path: '/auth/register',
    tag: 'Auth',
    summary: 'Create an account; a confirmation link is mailed',
    auth: 'none',
    tokens: 'none',
    body: z
      .object({ email: s.email, password: s.password, name: s.name })
      .meta({ examples: [{ email: 'ada@example.org', password: 'correct-horse-1', name: 'Ada' }] }),
    status: 201,
    response: s.EmailPending,
    errors: throttled,
    codes: [...rateLimited],
    handle: async ({ body, ctx }) => toEmailPending(await identity.Register(body, ctx)),
  }),
  route({
    method: 'post',
    path: '/auth/magic-link',
    tag: 'Auth',
    summary: 'Mail a sign-in link (same answer whether or not the account exists)',
    auth: 'none',
    tokens: 'none',
    body: emailBody,
    status: 200,
    response: s.EmailPending,
    errors: throttled,
    codes: [...rateLimited],
    handle: async ({ body, ctx }) => toEmailPending(await identity.RequestMagicLink(body, ctx)),
  }),
  route({
    method: 'post',
    path: '/auth/recover',
    tag: 'Auth',
    summary: 'Mail a password reset link (same answer whether or not the account exists)',
    auth: 'none',
    tokens: 'none',
    body: emailBody,
    status: 200,
    response: s.EmailPending,
    errors: throttled,
    codes: [...rateLimited],
    handle: async ({ body, ctx }) => toEmailPending(await identity.RecoverAccount(body, ctx)),
  }),
  route({
    method: 'post',
    path: '/auth/reset-password',
    tag: 'Auth',
    summary: 'Set a new password with a reset link; ends every session, link and code',
    auth: 'none',
    tokens: 'none',
    body: z
      .object({ token: s.token, password: s.password })
      .meta({ examples: [{ token: 'q3Zk7d2Yb1mXnR8vT0sLw4pE6aJ9cH5uF2gK8oI1yQz', password: 'correct-horse-2' }] }),
    status: 200,
    response: s.PasswordReset,
    errors: [401, 429],
    codes: ['invalid_token', 'rate_limited'],
    handle: async ({ body, ctx }) => {
      await identity.ResetPassword(body, ctx);
      return passwordReset;
    },
  }),
  route({
    method: 'post',
    path: '/auth/email-code',
    tag: 'Auth',
    summary: 'Mail a 6-digit sign-in code (same answer whether or not the account exists)',
    auth: 'none',
    tokens: 'none',
    body: emailBody,
    status: 200,
    response: s.EmailCodePending,
    errors: throttled,
    codes: [...rateLimited],
    handle: async ({ body, ctx }) => toEmailCodePending(await identity.RequestEmailCode(body, ctx)),
  }),
  route({
    method: 'post',
    path: '/auth/verify-code',
    tag: 'Auth',
    summary: 'Sign in with a mailed code (10 minutes, 5 tries)',
    auth: 'none',
    tokens: 'none',
    body: z.object({ email: s.email, code: s.code }).meta({ examples: [{ email: 'ada@example.org', code: '042917' }] }),
    status: 200,
    response: s.AuthResponse,
    errors: [401, 429],
    codes: ['invalid_code', 'rate_limited'],
    handle: async ({ body, ctx }) => toAuth(await identity.VerifyEmailCode(body, ctx)),
  }),
  route({
    method: 'post',
    path: '/auth/verify-email',
    tag: 'Auth',
    summary: 'Use a mailed link: registration and magic links sign in, an email-change link confirms the address',
    auth: 'none',
    tokens: 'none',
    body: z.object({ token: s.token }).meta({ examples: [{ token: 'q3Zk7d2Yb1mXnR8vT0sLw4pE6aJ9cH5uF2gK8oI1yQz' }] }),
    status: 200,
    response: z.union([s.AuthResponse, s.EmailVerified]),
    errors: [401, 429],
    codes: ['invalid_token', 'rate_limited'],
    handle: async ({ body, ctx }) => toVerifiedEmail(await identity.VerifyEmail(body, ctx)),
  }),
  route({
    method: 'post',
    path: '/auth/login',
    tag: 'Auth',
    summary: 'Sign in with email and password',
    auth: 'none',
    tokens: 'none',
    body: z
      .object({ email: s.email, password: s.loginPassword })
      .meta({ examples: [{ email: 'ada@example.org', password: 'correct-horse-1' }] }),
    status: 200,
    response: s.AuthResponse,
    errors: [401, 429],
    codes: ['invalid_credentials', 'email_not_verified', 'rate_limited'],
    handle: async ({ body, ctx }) => toAuth(await identity.Login(body, ctx)),
  }),
  route({
    method: 'post',
    path: '/auth/logout',
    tag: 'Auth',
    summary: 'End the current session; its token fails from the next request on',
    auth: 'session',
    tokens: 'none',
    status: 204,
    handle: async ({ ctx }) => {
      await identity.Logout({}, ctx);
    },
  }),
  route({
    method: 'get',
    path: '/users/me',
    tag: 'Users',
    summary: 'The signed-in user',
    auth: 'session',
    tokens: 'none',
    status: 200,
    response: s.User,
    handle: async ({ ctx }) => toUser(await identity.GetMe({}, ctx)),
  }),
  route({
    method: 'patch',
    path: '/users/me',
    tag: 'Users',
    summary: 'Change the name, or start an email change (confirmed by a link to the new address)',
    auth: 'session',
    tokens: 'none',
    body: z
      .object({ name: s.name.optional(), email: s.email.optional() })
      .meta({ examples: [{ name: 'Ada Lovelace' }] }),
    status: 200,
    response: s.User,
    errors: throttled,
    codes: [...rateLimited],
    handle: async ({ body, ctx }) => toUser(await identity.UpdateMe(body, ctx)),
  }),
];
