import { generateKeyPairSync, randomUUID } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import { createDb, type Knex } from '@wms/kit/db';
import { DomainError } from '@wms/kit/errors';
import { type AsyncClient, createAsyncClient } from '@wms/kit/grpc-client';
import { bindHandlers, type RunningGrpcServer, startGrpcServer } from '@wms/kit/grpc-server';
import { createLogger } from '@wms/kit/logger';
import { createRedis, type Redis, redisReady } from '@wms/kit/redis';
import { session } from '@wms/kit/sessions';
import { createTestDatabase, dropRedisPrefix, testRedisPrefix, testRedis } from '@wms/testkit';
import { loadService } from '@wms/protos';
import type { IdentityServiceDefinition } from '@wms/protos/gen/wms/identity/v1/IdentityService';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { migrations } from '../migrations/index.ts';
import type { Mail } from '../src/domain/mail.ts';
import { hashToken } from '@wms/kit/account-rules';
import type { Mailer } from '../src/identity.service.ts';
import { identityHandlers } from '../src/rpc.ts';
import { EmailTokenStore } from '../src/store/email-token.store.ts';
import { type Admission, ThrottleStore, throttleKey } from '@wms/kit/throttle';
import { UserStore } from '../src/store/user.store.ts';
import type { Bucket } from '../src/domain/throttle.ts';
import { buildIdentityService } from '../src/wiring.ts';

const log = createLogger('identity-test', 'silent');
const sent: Mail[] = [];
const mailer: Mailer = { send: (m) => void sent.push(m) };

let database: { url: string; drop(): Promise<void> };
let db: Knex;
let redis: Redis;
let server: RunningGrpcServer;
const redisPrefix = testRedisPrefix();
let client: AsyncClient<IdentityServiceDefinition> & { close(): void };

const ctx = (extra: { ip?: string; userId?: string; sessionId?: string } = {}) => ({
  requestId: 'test',
  clientIp: extra.ip ?? `10.1.${Math.floor(Math.random() * 255)}.${Math.floor(Math.random() * 255)}`,
  userId: extra.userId,
  sessionId: extra.sessionId,
});
const uniqueEmail = () => `u${Math.random().toString(36).slice(2)}@example.org`;
const mailTo = (to: string) => sent.filter((m) => m.to === to);
const tokenIn = (m: Mail) => /token=([A-Za-z0-9_-]+)/.exec(m.text)?.[1] ?? '';
const codeIn = (m: Mail) => /\b(\d{6})\b/.exec(m.subject)?.[1] ?? '';

async function refusal(p: Promise<unknown>): Promise<DomainError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DomainError);
  return err as DomainError;
}

async function verifiedUser() {
  const email = uniqueEmail();
  await client.Register({ email, password: 'password-1', name: 'Tester' }, ctx());
  const auth = await client.VerifyEmail({ token: tokenIn(mailTo(email)[0]!) }, ctx());
  return { email, auth: auth.auth! };
}

beforeAll(async () => {
  database = await createTestDatabase('identity', migrations);
  db = createDb({ url: database.url, schema: 'identity', log });
  redis = createRedis(testRedis, redisPrefix, log);
  await redisReady(redis);
  const { privateKey } = generateKeyPairSync('ed25519');
  const service = await buildIdentityService(
    { db, redis, mailer },
    {
      jwtPrivateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      publicUrl: 'http://app.test',
      sessionTtlSeconds: 3600,
      limits: { perEmailIp: 10, perEmail: 100, resetPerIp: 10, perIp: 1000, windowSeconds: 900 },
    },
  );
  const IdentityService = loadService('identity');
  server = await startGrpcServer({
    port: 0,
    host: '127.0.0.1',
    services: [
      {
        definition: IdentityService.service,
        implementation: bindHandlers(IdentityService.service, identityHandlers(service), log),
      },
    ],
  });
  client = createAsyncClient(IdentityService, `127.0.0.1:${server.port}`);
});

afterAll(async () => {
  client?.close();
  await server?.stop();
  await redis?.quit();
  await dropRedisPrefix(testRedis, redisPrefix);
  await db?.destroy();
  await database?.drop();
});

describe('IdentityService over gRPC', () => {
  it('registers, mails a link whose token is stored only hashed, and signs in once with it', async () => {
    const email = uniqueEmail();
    const res = await client.Register(
      { email: `  ${email.toUpperCase()} `, password: 'password-1', name: ' Ada ' },
      ctx(),
    );
    expect(res.email).toBe(email);
    const [mail] = mailTo(email);
    const token = tokenIn(mail!);
    expect(mail!.text).toContain(`http://app.test/verify-email?token=${token}`);
    const stored = await db('email_tokens').select('token_hash', 'kind', 'expires_at');
    expect(stored.some((r) => r.token_hash === token)).toBe(false);
    expect(stored.some((r) => r.token_hash === hashToken(token) && r.kind === 'register')).toBe(true);

    const verified = await client.VerifyEmail({ token }, ctx());
    expect(verified.auth?.access_token).toBeTruthy();
    expect(verified.user).toMatchObject({ email, name: 'Ada' });
    expect(verified.user?.email_verified_at).toBeTruthy();

    const again = await refusal(client.VerifyEmail({ token }, ctx()));
    expect(again).toMatchObject({ kind: 'unauthenticated', code: 'invalid_token' });
  });

  it('creates one account when the same registration arrives many times at once', async () => {
    const email = uniqueEmail();
    await Promise.all(
      Array.from({ length: 8 }, () => client.Register({ email, password: 'password-1', name: 'Twin' }, ctx())),
    );
    const rows = await db('users').where({ email }).select('id');
    expect(rows).toHaveLength(1);
  });

  it('lets exactly one of several parallel uses of a link succeed', async () => {
    const email = uniqueEmail();
    await client.Register({ email, password: 'password-1', name: 'Racer' }, ctx());
    const token = tokenIn(mailTo(email)[0]!);
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => client.VerifyEmail({ token }, ctx())));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
  });

  it('never lets parallel guesses spend more than five tries of a code', async () => {
    const { email } = await verifiedUser();
    await client.RequestEmailCode({ email }, ctx());
    const code = codeIn(mailTo(email).at(-1)!);
    const wrong = code === '000000' ? '111111' : '000000';
    const guesses = await Promise.allSettled(
      Array.from({ length: 9 }, () => client.VerifyEmailCode({ email, code: wrong }, ctx())),
    );
    expect(guesses.every((g) => g.status === 'rejected')).toBe(true);
    const [row] = await db('email_codes')
      .join('users', 'users.id', 'email_codes.user_id')
      .where('users.email', email)
      .select('attempts');
    expect(row.attempts).toBe(5);
    const right = await refusal(client.VerifyEmailCode({ email, code }, ctx()));
    expect(right.code).toBe('invalid_code');
  });

  it('ends every session of the user when the password is reset', async () => {
    const { email, auth } = await verifiedUser();
    const second = await client.Login({ email, password: 'password-1' }, ctx());
    const sessionIds = (
      await db('sessions')
        .join('users', 'users.id', 'sessions.user_id')
        .where('users.email', email)
        .select('sessions.id')
    ).map((r) => r.id as string);
    expect(sessionIds).toHaveLength(2);
    const userId = (await db('users').where({ email }).first('id')).id as string;
    const keys = sessionIds.flatMap((id) => [session.key(userId, id), session.previousKey(id)]);
    // One command a key: on a Redis Cluster the previous names are in slots of their own.
    const existing = async () => (await Promise.all(keys.map((k) => redis.exists(k)))).reduce((a, b) => a + b, 0);
    expect(await existing()).toBe(4);
    expect(auth.access_token).not.toBe(second.access_token);

    await client.RecoverAccount({ email }, ctx());
    const token = tokenIn(mailTo(email).at(-1)!);
    await client.ResetPassword({ token, password: 'password-2' }, ctx());

    expect(await existing()).toBe(0);
    const live = await db('sessions').whereIn('id', sessionIds).whereNull('revoked_at');
    expect(live).toHaveLength(0);
    expect((await refusal(client.Login({ email, password: 'password-1' }, ctx()))).code).toBe('invalid_credentials');
    expect((await client.Login({ email, password: 'password-2' }, ctx())).access_token).toBeTruthy();
  });

  it('lets parallel right passwords through whatever budget is left, and still counts the wrong ones', async () => {
    const { email } = await verifiedUser();
    const ip = ctx().clientIp;
    for (let i = 0; i < 7; i++)
      expect((await refusal(client.Login({ email, password: `wrong-${i}` }, ctx({ ip })))).code).toBe(
        'invalid_credentials',
      );
    // Three failures left in the budget of 10, six right passwords at once: none is refused.
    const right = await Promise.allSettled(
      Array.from({ length: 6 }, () => client.Login({ email, password: 'password-1' }, ctx({ ip }))),
    );
    expect(right.filter((r) => r.status === 'rejected')).toEqual([]);
    // Six wrong ones at once: three are checked, three refused.
    const wrong = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) => client.Login({ email, password: `burst-${i}` }, ctx({ ip }))),
    );
    const codes = wrong.map((r) => (r.status === 'rejected' ? (r.reason as DomainError).code : 'signed_in')).sort();
    expect(codes).toEqual([
      'invalid_credentials',
      'invalid_credentials',
      'invalid_credentials',
      'rate_limited',
      'rate_limited',
      'rate_limited',
    ]);
    expect((await refusal(client.Login({ email, password: 'password-1' }, ctx({ ip })))).code).toBe('rate_limited');
  });

  it('answers refusals with the gRPC status of their kind and the contract code', async () => {
    const raw = client as unknown as { raw: grpc.Client };
    expect(raw.raw).toBeInstanceOf(grpc.Client);
    const err = await refusal(client.Login({ email: uniqueEmail(), password: 'whatever-1' }, ctx()));
    expect(err).toMatchObject({ kind: 'unauthenticated', code: 'invalid_credentials' });
    const bad = await refusal(client.Register({ email: 'nope', password: 'x', name: '' }, ctx()));
    expect(bad.code).toBe('invalid_input');
    expect(bad.details?.map((d) => d.field).sort()).toEqual(['body.email', 'body.name', 'body.password']);
  });

  it('moves an account to a new address only once the new address confirms it', async () => {
    const { email, auth } = await verifiedUser();
    const userId = auth.user!.id;
    const next = uniqueEmail();
    const pending = await client.UpdateMe({ email: next }, ctx({ userId }));
    expect(pending).toMatchObject({ email, pending_email: next });
    const token = tokenIn(mailTo(next)[0]!);
    const confirmed = await client.VerifyEmail({ token }, ctx());
    expect(confirmed.auth).toBeFalsy();
    expect(confirmed.user).toMatchObject({ id: userId, email: next });
    expect(confirmed.user?.pending_email).toBeFalsy();
  });
});

describe('sessions without expiry (SESSION_TTL_SECONDS=0)', () => {
  it('signs in with no expires_at and a session key that never expires', async () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    const forever = await buildIdentityService(
      { db, redis, mailer },
      {
        jwtPrivateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        publicUrl: 'http://app.test',
        sessionTtlSeconds: 0,
        limits: { perEmailIp: 10, perEmail: 100, resetPerIp: 10, perIp: 1000, windowSeconds: 900 },
      },
    );
    const { email } = await verifiedUser();
    const signedIn = await forever.login(ctx(), { email, password: 'password-1' });
    expect(signedIn.expiresAt).toBeNull();
    const [payload] = signedIn.accessToken
      .split('.')
      .slice(1, 2)
      .map((p) => JSON.parse(Buffer.from(p, 'base64url').toString()) as { exp?: number; sid: string });
    expect(payload!.exp).toBeUndefined();
    expect(await redis.ttl(session.key(signedIn.user.id, payload!.sid))).toBe(-1);
    expect(await redis.ttl(session.previousKey(payload!.sid))).toBe(-1);
  });
});

describe(ThrottleStore.name, () => {
  const bucket = (limit: number): Bucket[] => [{ key: `throttle:test:${Math.random()}`, limit, scope: 'ip' }];
  type Admitted = Extract<Admission, { admitted: true }>;
  const admitted = (a: Admission): Admitted => {
    expect(a.admitted).toBe(true);
    return a as Admitted;
  };

  it('allows the limit within a sliding window, then says how long to wait', async () => {
    let now = 1_000_000;
    const store = new ThrottleStore(redis, 10_000, { now: () => now });
    const buckets = bucket(3);
    for (let i = 0; i < 3; i++) {
      admitted(await store.admit(buckets, 'every_attempt'));
      now += 1000;
    }
    // The refusal names the bucket that is full.
    expect(await store.admit(buckets, 'every_attempt')).toEqual({
      admitted: false,
      retryAfterMs: 7000,
      bucket: buckets[0],
    });
    now += 7000;
    admitted(await store.admit(buckets, 'every_attempt'));
  });

  it('counts failures and never successes of the actions that count failures', async () => {
    const store = new ThrottleStore(redis, 10_000);
    const buckets = bucket(2);
    for (let i = 0; i < 5; i++) await admitted(await store.admit(buckets, 'failures')).succeeded();
    await admitted(await store.admit(buckets, 'failures')).failed();
    await admitted(await store.admit(buckets, 'failures')).failed();
    const refused = await store.admit(buckets, 'failures');
    expect(refused.admitted).toBe(false);
    expect(!refused.admitted && refused.retryAfterMs).toBeGreaterThan(1000);
  });

  it('admits no more than the limit when attempts race, and refuses the rest once those fail', async () => {
    const store = new ThrottleStore(redis, 10_000, { maxWaitMs: 60_000 });
    const buckets = bucket(5);
    const first: Admitted[] = [];
    const answers = Array.from({ length: 20 }, () =>
      store.admit(buckets, 'failures').then((a) => {
        if (a.admitted) first.push(a);
        return a;
      }),
    );
    await vi.waitFor(() => expect(first).toHaveLength(5), { timeout: 10_000 });
    await Promise.all(first.map((a) => a.failed()));
    const all = await Promise.all(answers);
    expect(all.filter((a) => a.admitted)).toHaveLength(5);
    // Refused for the failures' window, not for having waited too long.
    for (const a of all) if (!a.admitted) expect(a.retryAfterMs).toBeGreaterThan(1000);
  });

  it('lets every racing attempt in, one after another, while those in flight succeed', async () => {
    const store = new ThrottleStore(redis, 10_000, { maxWaitMs: 60_000 });
    const buckets = bucket(3);
    await admitted(await store.admit(buckets, 'failures')).failed();
    await admitted(await store.admit(buckets, 'failures')).failed();
    // One place left: the six go through it one at a time.
    const answers = await Promise.all(
      Array.from({ length: 6 }, async () => {
        const a = await store.admit(buckets, 'failures');
        if (a.admitted) await a.succeeded();
        return a.admitted;
      }),
    );
    expect(answers).toEqual([true, true, true, true, true, true]);
  });

  it('serves waiting requests before later ones', async () => {
    // Arrivals in the same millisecond are served in any order, so the late one comes a millisecond later.
    let now = Date.now();
    const store = new ThrottleStore(redis, 10_000, { now: () => now, maxWaitMs: 60_000 });
    const buckets = bucket(1);
    const inFlight = admitted(await store.admit(buckets, 'failures'));
    const early = store.admit(buckets, 'failures');
    await vi.waitFor(async () => expect(await redis.zcard(throttleKey(`${buckets[0]!.key}:queue`))).toBe(1), {
      timeout: 10_000,
    });
    now += 1;
    let lateAdmitted = false;
    const late = store.admit(buckets, 'failures').then((a) => {
      lateAdmitted = a.admitted;
      return a;
    });
    await vi.waitFor(async () => expect(await redis.zcard(throttleKey(`${buckets[0]!.key}:queue`))).toBe(2), {
      timeout: 10_000,
    });
    await inFlight.succeeded();
    const second = admitted(await early);
    expect(lateAdmitted).toBe(false);
    await second.succeeded();
    admitted(await late);
  });

  it('refuses for a second a request whose wait outlasts maxWaitMs, and leaves the queue', async () => {
    const store = new ThrottleStore(redis, 10_000, { maxWaitMs: 100 });
    const buckets = bucket(1);
    admitted(await store.admit(buckets, 'failures'));
    expect(await store.admit(buckets, 'failures')).toEqual({ admitted: false, retryAfterMs: 1000 });
    expect(await redis.zcard(throttleKey(`${buckets[0]!.key}:queue`))).toBe(0);
  });

  it('takes an attempt that never settles for a failure once its lease runs out', async () => {
    let now = 1_000_000;
    const store = new ThrottleStore(redis, 10_000, { now: () => now, leaseMs: 5000, maxWaitMs: 100 });
    const buckets = bucket(1);
    admitted(await store.admit(buckets, 'failures'));
    now += 5001;
    expect(await store.admit(buckets, 'failures')).toEqual({
      admitted: false,
      retryAfterMs: 10_000,
      bucket: buckets[0],
    });
  });
});

describe(EmailTokenStore.name, () => {
  it('does not accept a token of another kind', async () => {
    const { email } = await verifiedUser();
    await client.RecoverAccount({ email }, ctx());
    const resetToken = tokenIn(mailTo(email).at(-1)!);
    const store = new EmailTokenStore(db);
    expect(await store.consume(hashToken(resetToken), ['register', 'magic', 'email_change'])).toBeUndefined();
    expect(await store.consume(hashToken(resetToken), ['reset'])).toMatchObject({ kind: 'reset', email });
  });
});

describe(UserStore.name, () => {
  it('refuses a confirmation as an invalid link when another account takes the address at the same time', async () => {
    const store = new UserStore(db);
    const address = uniqueEmail();
    const mover = randomUUID();
    await db('users').insert({
      id: mover,
      email: uniqueEmail(),
      name: 'Mover',
      password_hash: 'x',
      pending_email: address,
    });
    const other = await db.transaction();
    try {
      // Not committed yet: the confirmation does not see it, and waits on the unique index until it commits.
      await other('users').insert({ id: randomUUID(), email: address, name: 'Other', password_hash: 'x' });
      const confirming = store.confirmEmailChange(mover, address).then(
        () => undefined,
        (e: unknown) => e,
      );
      await vi.waitFor(
        async () => {
          const { rows } = await db.raw<{ rows: Array<{ n: number }> }>(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
          );
          expect(rows[0]!.n).toBeGreaterThan(0);
        },
        { timeout: 10_000 },
      );
      await other.commit();
      expect(await confirming).toMatchObject({ kind: 'unauthenticated', code: 'invalid_token' });
    } finally {
      if (!other.isCompleted()) await other.rollback();
    }
    expect(await db('users').where({ id: mover }).first()).toMatchObject({ pending_email: address });
  });
});
