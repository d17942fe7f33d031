import { randomUUID } from 'node:crypto';
import type { CallContext } from '@wms/kit/context';
import { alreadyExists, ensure, rateLimited, unauthenticated } from '@wms/kit/errors';
import { batchIds } from '@wms/kit/ids';
import type { Transact } from '@wms/kit/transactions';
import { invalidLink } from './domain/errors.ts';
import { links, type Mail, mails } from './domain/mail.ts';
import {
  emailCheck,
  hashToken,
  nameCheck,
  normalizeEmail,
  newToken,
  normalizeName,
  passwordCheck,
  tokenCheck,
} from '@wms/kit/account-rules';
import { codeCheck } from './domain/rules.ts';
import {
  codeMaxAttempts,
  hashSecret,
  lifetimesMs,
  newCode,
  type TokenKind,
  verifyDecoy,
  verifySecret,
} from './domain/secrets.ts';
import {
  bucketsFor,
  countsEveryAttempt,
  limitReached,
  type ThrottledAction,
  type ThrottleLimits,
} from './domain/throttle.ts';
import type { User } from './domain/user.ts';
import type { EmailCodeStore } from './store/email-code.store.ts';
import type { EmailTokenStore } from './store/email-token.store.ts';
import type { SessionStore } from './store/session.store.ts';
import type { ThrottleStore } from '@wms/kit/throttle';
import type { UserStore } from './store/user.store.ts';

export interface SignedIn {
  accessToken: string;
  user: User;
  expiresAt: Date | null;
}

export interface Mailer {
  /** Sends in the background: the request never waits on SMTP, so timing tells nothing about whether mail went out. */
  send(mail: Mail): void;
}

export interface AccessTokenSigner {
  /** The bearer token of a session, which expires with it (never when `expiresAt` is null). */
  sign(userId: string, sessionId: string, expiresAt: Date | null): Promise<string>;
}

export interface IdentityDeps {
  transact: Transact;
  users: UserStore;
  sessions: SessionStore;
  tokens: EmailTokenStore;
  codes: EmailCodeStore;
  throttle: ThrottleStore;
  accessTokens: AccessTokenSigner;
  mailer: Mailer;
  config: { publicUrl: string; sessionTtlSeconds: number; limits: ThrottleLimits };
}

/** Accounts, sign-in and sessions. Every answer about an address is the same whether or not it has an account. */
export class IdentityService {
  constructor(private readonly d: IdentityDeps) {}

  async register(
    ctx: CallContext,
    input: { email: string; password: string; name: string },
  ): Promise<{ email: string }> {
    const email = normalizeEmail(input.email);
    const name = normalizeName(input.name);
    ensure(emailCheck(email), passwordCheck(input.password), nameCheck(name));
    await this.throttle(ctx, 'register', email);
    // Hash before knowing whether the address is taken, so both answers take the same time.
    const passwordHash = await hashSecret(input.password);
    const { user, created } = await this.d.users.insertIfAbsent({ id: randomUUID(), email, name, passwordHash });
    if (created || !user.emailVerifiedAt) {
      const link = await this.issueLink(user.id, 'register', email);
      this.d.mailer.send(mails.verifyRegistration(email, link));
    } else {
      this.d.mailer.send(mails.alreadyRegistered(email, links.signIn(this.d.config.publicUrl)));
    }
    return { email };
  }

  async requestMagicLink(ctx: CallContext, input: { email: string }): Promise<{ email: string }> {
    const email = normalizeEmail(input.email);
    ensure(emailCheck(email));
    await this.throttle(ctx, 'magic_link', email);
    const user = await this.d.users.findByEmail(email);
    if (user) this.d.mailer.send(mails.magicLink(email, await this.issueLink(user.id, 'magic', email)));
    return { email };
  }

  async recoverAccount(ctx: CallContext, input: { email: string }): Promise<{ email: string }> {
    const email = normalizeEmail(input.email);
    ensure(emailCheck(email));
    await this.throttle(ctx, 'recover', email);
    const user = await this.d.users.findByEmail(email);
    if (user) this.d.mailer.send(mails.resetPassword(email, await this.issueLink(user.id, 'reset', email)));
    return { email };
  }

  async requestEmailCode(ctx: CallContext, input: { email: string }): Promise<{ email: string; expiresAt: Date }> {
    const email = normalizeEmail(input.email);
    ensure(emailCheck(email));
    await this.throttle(ctx, 'email_code', email);
    const code = newCode();
    const codeHash = await hashSecret(code);
    const expiresAt = new Date(Date.now() + lifetimesMs.code);
    const user = await this.d.users.findByEmail(email);
    if (user) {
      await this.d.codes.replace({ id: randomUUID(), userId: user.id, codeHash, expiresAt });
      this.d.mailer.send(mails.emailCode(email, code));
    }
    return { email, expiresAt };
  }

  async verifyEmailCode(ctx: CallContext, input: { email: string; code: string }): Promise<SignedIn> {
    const email = normalizeEmail(input.email);
    ensure(emailCheck(email), codeCheck(input.code));
    const user = await this.attempt(ctx, 'verify_code', email, async () => {
      const user = await this.d.users.findByEmail(email);
      const code = user && (await this.d.codes.takeAttempt(user.id, codeMaxAttempts));
      const ok = code ? await verifySecret(code.codeHash, input.code) : await verifyDecoy(input.code);
      if (!user || !code || !ok || !(await this.d.codes.consume(code.id)))
        throw unauthenticated('invalid_code', 'The code is wrong, expired or used up.');
      return user;
    });
    return this.signIn(ctx, await this.d.users.markVerified(user.id));
  }

  async verifyEmail(ctx: CallContext, input: { token: string }): Promise<{ signedIn: SignedIn | null; user: User }> {
    ensure(tokenCheck(input.token));
    const verified = await this.attempt(
      ctx,
      'verify_email',
      undefined,
      async (): Promise<{ changed: User } | { userId: string }> => {
        const token = await this.d.tokens.consume(hashToken(input.token), ['register', 'magic', 'email_change']);
        if (!token) throw invalidLink();
        if (token.kind !== 'email_change') return { userId: token.userId };
        // Links and codes mailed to the old address stop working with it.
        const changed = await this.d.transact(async (tx) => {
          const user = await this.d.users.confirmEmailChange(token.userId, token.email, tx);
          if (user) {
            await this.d.tokens.revokeAllForUser(token.userId, tx);
            await this.d.codes.revokeAllForUser(token.userId, tx);
          }
          return user;
        });
        if (!changed) throw invalidLink();
        return { changed };
      },
    );
    if ('changed' in verified) return { signedIn: null, user: verified.changed };
    const user = await this.d.users.markVerified(verified.userId);
    const signedIn = await this.signIn(ctx, user);
    return { signedIn, user: signedIn.user };
  }

  async resetPassword(ctx: CallContext, input: { token: string; password: string }): Promise<void> {
    ensure(tokenCheck(input.token), passwordCheck(input.password));
    await this.attempt(ctx, 'reset_password', undefined, async () => {
      const passwordHash = await hashSecret(input.password);
      const done = await this.d.transact(async (tx) => {
        const token = await this.d.tokens.consume(hashToken(input.token), ['reset'], tx);
        if (!token) return false;
        await this.d.users.setPassword(token.userId, passwordHash, tx);
        await this.d.tokens.revokeAllForUser(token.userId, tx);
        await this.d.codes.revokeAllForUser(token.userId, tx);
        await this.d.sessions.revokeAllForUser(token.userId, tx);
        return true;
      });
      if (!done) throw invalidLink();
    });
  }

  async login(ctx: CallContext, input: { email: string; password: string }): Promise<SignedIn> {
    const email = normalizeEmail(input.email);
    ensure(emailCheck(email), [
      'body.password',
      input.password.length >= 1 && input.password.length <= 128,
      'is required',
    ]);
    const user = await this.attempt(ctx, 'login', email, async () => {
      const user = await this.d.users.findByEmail(email);
      const ok = user ? await verifySecret(user.passwordHash, input.password) : await verifyDecoy(input.password);
      if (!user || !ok) throw unauthenticated('invalid_credentials', 'The email or password is wrong.');
      if (!user.emailVerifiedAt)
        throw unauthenticated(
          'email_not_verified',
          'Confirm your email address with the link we sent before signing in.',
        );
      return user;
    });
    return this.signIn(ctx, user);
  }

  async logout(ctx: CallContext): Promise<void> {
    if (!ctx.sessionId || !ctx.userId) throw unauthenticated('unauthenticated', 'Sign in first.');
    await this.d.sessions.revoke(ctx.userId, ctx.sessionId);
  }

  async getMe(ctx: CallContext): Promise<User> {
    const user = ctx.userId && (await this.d.users.findById(ctx.userId));
    if (!user) throw unauthenticated('unauthenticated', 'Sign in first.');
    return user;
  }

  /** A new address only becomes the account's once confirmed from that mailbox; `pending_email` shows it meanwhile. */
  async updateMe(ctx: CallContext, input: { name?: string | undefined; email?: string | undefined }): Promise<User> {
    const current = await this.getMe(ctx);
    const name = input.name === undefined ? undefined : normalizeName(input.name);
    const email = input.email === undefined ? undefined : normalizeEmail(input.email);
    ensure(...(name === undefined ? [] : [nameCheck(name)]), ...(email === undefined ? [] : [emailCheck(email)]));
    let pendingEmail: string | null | undefined;
    if (email !== undefined && email === current.email) {
      pendingEmail = null;
    } else if (email !== undefined) {
      await this.throttle(ctx, 'email_change', email);
      pendingEmail = email;
      if (await this.d.users.findByEmail(email)) {
        this.d.mailer.send(mails.emailChangeTaken(email));
      } else {
        this.d.mailer.send(mails.confirmEmailChange(email, await this.issueLink(current.id, 'email_change', email)));
      }
    }
    const updated = await this.d.users.updateProfile(current.id, { name, pendingEmail });
    if (!updated) throw unauthenticated('unauthenticated', 'Sign in first.');
    return updated;
  }

  /** For other services: users by id, unknown ones left out. */
  async getUsersByIds(ids: string[]): Promise<User[]> {
    return this.d.users.findByIds(batchIds(ids));
  }

  /** For the workspace service (contract §12): mails an invitation's link, in the background as every mail. */
  sendInvitationMail(input: { email: string; workspaceName: string; inviterName: string; token: string }): void {
    const link = links.invitation(this.d.config.publicUrl, input.token);
    this.d.mailer.send(mails.invitation(normalizeEmail(input.email), { ...input, link }));
  }

  /**
   * For the workspace service (contract §12): the account of an invitee registering from the invitation's link, made
   * with its address verified (the link proves the mailbox) and signed in; Register's rules and limits, and 409
   * `account_exists` when the address has an account (its owner signs in and accepts instead).
   */
  async createInvitedAccount(
    ctx: CallContext,
    input: { email: string; password: string; name: string },
  ): Promise<SignedIn> {
    const email = normalizeEmail(input.email);
    const name = normalizeName(input.name);
    ensure(emailCheck(email), passwordCheck(input.password), nameCheck(name));
    await this.throttle(ctx, 'register', email);
    const passwordHash = await hashSecret(input.password);
    const { user, created } = await this.d.users.insertIfAbsent({
      id: randomUUID(),
      email,
      name,
      passwordHash,
      verified: true,
    });
    if (!created)
      throw alreadyExists('account_exists', 'That address has an account: sign in, then accept the invitation.');
    return this.signIn(ctx, user);
  }

  /** For other services (adding a member by address): the account of an address, if any. */
  async findUserByEmail(email: string): Promise<User | undefined> {
    return this.d.users.findByEmail(normalizeEmail(email));
  }

  private async signIn(ctx: CallContext, user: User): Promise<SignedIn> {
    const ttl = this.d.config.sessionTtlSeconds;
    const sessionId = randomUUID();
    const expiresAt = ttl > 0 ? new Date(Date.now() + ttl * 1000) : null;
    await this.d.sessions.create({ id: sessionId, userId: user.id, clientIp: ctx.clientIp, expiresAt });
    const accessToken = await this.d.accessTokens.sign(user.id, sessionId, expiresAt);
    return { accessToken, user, expiresAt };
  }

  private async issueLink(userId: string, kind: TokenKind, email: string): Promise<string> {
    const token = newToken();
    await this.d.tokens.insert({
      id: randomUUID(),
      userId,
      kind,
      tokenHash: hashToken(token),
      email,
      expiresAt: new Date(Date.now() + lifetimesMs[kind]),
    });
    return links.token(this.d.config.publicUrl, kind, token);
  }

  /**
   * Counts the attempt before doing anything (contract §2), so parallel attempts cannot pass the limit together;
   * 429 when a bucket is full. For the actions that count only failures the attempt is held in flight until settled.
   */
  private async throttle(ctx: CallContext, action: ThrottledAction, email?: string) {
    const buckets = bucketsFor(action, { email, ip: ctx.clientIp ?? 'unknown' }, this.d.config.limits);
    const admission = await this.d.throttle.admit(buckets, countsEveryAttempt(action) ? 'every_attempt' : 'failures');
    if (!admission.admitted) {
      const seconds = Math.max(1, Math.ceil(admission.retryAfterMs / 1000));
      throw rateLimited(seconds, [limitReached(admission.bucket, action, this.d.config.limits.windowSeconds, seconds)]);
    }
    return admission;
  }

  /** Runs a credential check as one throttled attempt that counts as failed exactly when the check throws. */
  private async attempt<T>(
    ctx: CallContext,
    action: ThrottledAction,
    email: string | undefined,
    check: () => Promise<T>,
  ): Promise<T> {
    const attempt = await this.throttle(ctx, action, email);
    let result: T;
    try {
      result = await check();
    } catch (err) {
      // Should this fail too, the attempt still counts as failed once its lease runs out.
      await attempt.failed().catch(() => undefined);
      throw err;
    }
    // The check succeeded: a lost write here must not turn it into an error (the attempt then counts as failed once
    // its lease runs out, which the window absorbs).
    await attempt.succeeded().catch(() => undefined);
    return result;
  }
}
