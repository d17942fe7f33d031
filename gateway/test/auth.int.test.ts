import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { DomainError } from '@wms/kit/errors';
import { createLogger } from '@wms/kit/logger';
import { createRedis, keyToRead, redisAt, redisReady } from '@wms/kit/redis';
import { type CachedMembership, membershipCache } from '@wms/kit/membership';
import { session } from '@wms/kit/sessions';
import { type CachedToken, newTokenSecret, tokenCache, tokenHash } from '@wms/kit/tokens';
import { dropRedisPrefix, testRedisPrefix, testRedis, waitFor } from '@wms/testkit';
import { importPKCS8, SignJWT } from 'jose';
import { afterAll, describe, expect, it } from 'vitest';
import { createAuthenticator } from '../src/middleware/auth.ts';

const log = createLogger('gateway-test', 'silent');
const keys = generateKeyPairSync('ed25519');
const publicPem = keys.publicKey.export({ type: 'spki', format: 'pem' }).toString();
const privatePem = keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const prefix = testRedisPrefix();
const redis = createRedis(testRedis, prefix, log);
// The keys the gateway reads (kit's keyToRead): the previous release's names on one Redis, the new ones on a cluster.
const sessionKey = (sessionId: string) =>
  keyToRead(redis, session.key('user-1', sessionId), session.previousKey(sessionId));
const membershipKey = (workspaceId: string) =>
  keyToRead(redis, membershipCache.key(workspaceId, 'user-1'), membershipCache.previousKey(workspaceId, 'user-1'));
const tokenKey = (hash: Buffer) => keyToRead(redis, tokenCache.key(hash), tokenCache.previousKey(hash));

const tokenFor = async (sessionId: string) =>
  new SignJWT({ sid: sessionId })
    .setProtectedHeader({ alg: 'EdDSA' })
    .setSubject('user-1')
    .setIssuer('wms')
    .sign(await importPKCS8(privatePem, 'EdDSA'));

const resolved: Array<[string, string]> = [];
let membershipOf: CachedMembership | null = null;
const resolve = async (workspaceId: string, userId: string) => {
  resolved.push([workspaceId, userId]);
  return membershipOf;
};

const peers = { resolveMembership: resolve, resolveToken: async () => null, recordTokenUse: async () => undefined };

const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as DomainError,
  );

afterAll(async () => {
  await redis.quit();
  await dropRedisPrefix(testRedis, prefix);
});

describe('gateway session check', () => {
  it('accepts a token exactly while its session key exists', async () => {
    await redisReady(redis);
    const authenticate = await createAuthenticator(publicPem, redis, peers);
    const sessionId = randomUUID();
    const header = `Bearer ${await tokenFor(sessionId)}`;
    expect(await failure(authenticate(header))).toMatchObject({ code: 'unauthenticated' });
    await redis.set(sessionKey(sessionId), 'user-1');
    expect(await authenticate(header)).toEqual({ userId: 'user-1', sessionId });
    await redis.del(sessionKey(sessionId));
    expect(await failure(authenticate(header))).toMatchObject({ code: 'unauthenticated' });
  });

  it('refuses a token once it expires, though it was verified before, and a tampered one', async () => {
    let clock = Date.now();
    const authenticate = await createAuthenticator(publicPem, redis, peers, { now: () => clock });
    const sessionId = randomUUID();
    await redis.set(sessionKey(sessionId), 'user-1');
    const token = await new SignJWT({ sid: sessionId })
      .setProtectedHeader({ alg: 'EdDSA' })
      .setSubject('user-1')
      .setIssuer('wms')
      .setExpirationTime(Math.floor(clock / 1000) + 60)
      .sign(await importPKCS8(privatePem, 'EdDSA'));
    expect(await authenticate(`Bearer ${token}`)).toEqual({ userId: 'user-1', sessionId });
    expect(await authenticate(`Bearer ${token}`)).toEqual({ userId: 'user-1', sessionId });
    const [head, body, signature] = token.split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(body!, 'base64url').toString()), sub: 'user-2' }),
    ).toString('base64url');
    expect(await failure(authenticate(`Bearer ${head}.${forged}.${signature}`))).toMatchObject({
      code: 'unauthenticated',
    });
    clock += 61_000;
    expect(await failure(authenticate(`Bearer ${token}`))).toMatchObject({ code: 'unauthenticated' });
  });

  it('fails closed with 503 unavailable when Redis is down', async () => {
    const dead = createRedis(redisAt('redis://127.0.0.1:1'), prefix, log);
    try {
      const authenticate = await createAuthenticator(publicPem, dead, peers);
      const err = await failure(authenticate(`Bearer ${await tokenFor(randomUUID())}`));
      expect(err).toBeInstanceOf(DomainError);
      expect(err).toMatchObject({ kind: 'unavailable', code: 'unavailable' });
    } finally {
      dead.disconnect();
    }
  });

  it('checks the session before the workspace header, and the header before membership', async () => {
    const authenticate = await createAuthenticator(publicPem, redis, peers);
    const sessionId = randomUUID();
    const header = `Bearer ${await tokenFor(sessionId)}`;
    expect(await failure(authenticate(header, { value: 'not-a-uuid' }))).toMatchObject({ code: 'unauthenticated' });
    await redis.set(sessionKey(sessionId), 'user-1');
    expect(await failure(authenticate(header, { value: 'not-a-uuid' }))).toMatchObject({
      code: 'invalid_workspace_header',
    });
    expect(await failure(authenticate(header, { value: undefined }))).toMatchObject({
      code: 'invalid_workspace_header',
    });
  });

  it('uses the cached membership, asks the workspace service once on a miss, and honours tombstones', async () => {
    const authenticate = await createAuthenticator(publicPem, redis, peers);
    const sessionId = randomUUID();
    await redis.set(sessionKey(sessionId), 'user-1');
    const header = `Bearer ${await tokenFor(sessionId)}`;
    const workspaceId = randomUUID();
    const member = { workspaceUserId: randomUUID(), actorId: randomUUID(), role: 'admin' };

    resolved.length = 0;
    membershipOf = member;
    expect((await authenticate(header, { value: workspaceId.toUpperCase() })).workspace).toEqual({
      id: workspaceId,
      ...member,
    });
    expect(resolved).toEqual([[workspaceId, 'user-1']]);

    await redis.set(membershipKey(workspaceId), membershipCache.encode({ ...member, role: 'member' }));
    expect((await authenticate(header, { value: workspaceId })).workspace).toMatchObject({ role: 'member' });
    expect(resolved).toHaveLength(1);

    await redis.set(membershipKey(workspaceId), membershipCache.tombstone);
    expect(await failure(authenticate(header, { value: workspaceId }))).toMatchObject({ code: 'workspace_not_found' });
    expect(resolved).toHaveLength(1);

    membershipOf = null;
    expect(await failure(authenticate(header, { value: randomUUID() }))).toMatchObject({ code: 'workspace_not_found' });
    expect(resolved).toHaveLength(2);
  });
});

describe('gateway token check (contract §11)', () => {
  const workspaceId = randomUUID();
  const usable = (kind: 'workspace' | 'conversation' = 'workspace'): CachedToken => ({
    id: randomUUID(),
    kind,
    workspaceId,
    conversationId: kind === 'conversation' ? randomUUID() : null,
    actorId: randomUUID(),
  });

  /** A token service of the test's making: what it holds, the lookups and uses it was asked for. */
  function tokenPeers(held: Map<string, CachedToken>) {
    const lookups: string[] = [];
    const uses: string[] = [];
    return {
      lookups,
      uses,
      peers: {
        resolveMembership: resolve,
        resolveToken: async (hash: Buffer) => {
          lookups.push(hash.toString('hex'));
          return held.get(hash.toString('hex')) ?? null;
        },
        recordTokenUse: async (id: string) => {
          uses.push(id);
        },
      },
    };
  }

  it('asks the workspace service once, then answers from the cache; a tombstone ends the token at the next request', async () => {
    await redisReady(redis);
    const secret = newTokenSecret('workspace');
    const token = usable();
    const { peers, lookups } = tokenPeers(new Map([[tokenHash(secret).toString('hex'), token]]));
    const authenticate = await createAuthenticator(publicPem, redis, peers);
    expect(await authenticate(`Bearer ${secret}`)).toEqual({ token });
    expect(await authenticate(`Bearer ${secret}`, { value: undefined })).toEqual({
      token,
      workspace: { id: workspaceId, actorId: token.actorId },
    });
    expect(lookups).toHaveLength(1);
    await redis.set(tokenKey(tokenHash(secret)), tokenCache.tombstone);
    expect(await failure(authenticate(`Bearer ${secret}`))).toMatchObject({ code: 'unauthenticated' });
    expect(lookups).toHaveLength(1);
  });

  it('does not bring back a token that was ended while it was being looked up', async () => {
    const secret = newTokenSecret('workspace');
    const hash = tokenHash(secret);
    const token = usable();
    const authenticate = await createAuthenticator(publicPem, redis, {
      ...tokenPeers(new Map()).peers,
      // The lookup read the token as usable; before its answer is cached, a revocation writes its tombstone.
      resolveToken: async () => {
        await redis.set(tokenKey(hash), tokenCache.tombstone, 'EX', tokenCache.ttlSeconds);
        return token;
      },
    });
    expect(await failure(authenticate(`Bearer ${secret}`))).toMatchObject({ code: 'unauthenticated' });
    expect(await redis.get(tokenKey(hash))).toBe(tokenCache.tombstone);
  });

  it('remembers an unknown token briefly, and takes anything not shaped like a token for a session JWT (401)', async () => {
    const { peers, lookups } = tokenPeers(new Map());
    const authenticate = await createAuthenticator(publicPem, redis, peers);
    const unknown = newTokenSecret('conversation');
    for (let i = 0; i < 3; i++)
      expect(await failure(authenticate(`Bearer ${unknown}`))).toMatchObject({ code: 'unauthenticated' });
    expect(lookups).toHaveLength(1);
    const ttl = await redis.ttl(tokenKey(tokenHash(unknown)));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(tokenCache.unknownTtlSeconds);
    expect(await failure(authenticate(`Bearer ${unknown.slice(0, -1)}`))).toMatchObject({ code: 'unauthenticated' });
    expect(lookups).toHaveLength(1);
  });

  it('checks X-Workspace-Id against the token: its own or none passes, another is 403, a malformed one 400', async () => {
    const secret = newTokenSecret('workspace');
    const token = usable();
    const authenticate = await createAuthenticator(
      publicPem,
      redis,
      tokenPeers(new Map([[tokenHash(secret).toString('hex'), token]])).peers,
    );
    expect((await authenticate(`Bearer ${secret}`, { value: workspaceId.toUpperCase() })).workspace).toEqual({
      id: workspaceId,
      actorId: token.actorId,
    });
    expect(await failure(authenticate(`Bearer ${secret}`, { value: randomUUID() }))).toMatchObject({
      code: 'forbidden',
    });
    expect(await failure(authenticate(`Bearer ${secret}`, { value: 'nope' }))).toMatchObject({
      code: 'invalid_workspace_header',
    });
  });

  it('limits each token to the window, with Retry-After from its oldest request, and records a use once a minute', async () => {
    const secret = newTokenSecret('workspace');
    const other = newTokenSecret('workspace');
    const token = usable();
    const { peers, uses } = tokenPeers(
      new Map([
        [tokenHash(secret).toString('hex'), token],
        [tokenHash(other).toString('hex'), usable()],
      ]),
    );
    const authenticate = await createAuthenticator(publicPem, redis, peers, { tokenRateLimit: 5 });
    for (let i = 0; i < 5; i++) await authenticate(`Bearer ${secret}`);
    const limited = await failure(authenticate(`Bearer ${secret}`));
    expect(limited).toMatchObject({ code: 'rate_limited', kind: 'resource_exhausted' });
    expect(limited!.retryAfterSeconds).toBeGreaterThanOrEqual(59);
    expect(limited!.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(await authenticate(`Bearer ${other}`)).toMatchObject({ token: { kind: 'workspace' } });
    expect(uses.filter((id) => id === token.id)).toEqual([token.id]);
    // The window slides: once its oldest request is a minute old, a slot frees (moved back by hand, not waited for).
    const rateKey = tokenCache.rateKey(tokenHash(secret));
    const [oldest] = await redis.zrange(rateKey, 0, 0);
    await redis.zadd(rateKey, Date.now() - 61_000, oldest!);
    expect(await authenticate(`Bearer ${secret}`)).toMatchObject({ token: { id: token.id } });
    expect(await failure(authenticate(`Bearer ${secret}`))).toMatchObject({ code: 'rate_limited' });
  });

  it('tries a failed record of use again at the next use', async () => {
    const secret = newTokenSecret('workspace');
    const token = usable();
    const attempts: string[] = [];
    let failing = true;
    const authenticate = await createAuthenticator(publicPem, redis, {
      ...tokenPeers(new Map([[tokenHash(secret).toString('hex'), token]])).peers,
      recordTokenUse: async (id) => {
        attempts.push(id);
        if (failing) throw new Error('workspace service restarting');
      },
    });
    await authenticate(`Bearer ${secret}`);
    await waitFor(
      'the failed record to be forgotten',
      async () => (await redis.exists(tokenCache.usedKey(tokenHash(secret)))) === 0,
      5000,
      10,
    );
    failing = false;
    await authenticate(`Bearer ${secret}`);
    await authenticate(`Bearer ${secret}`);
    expect(attempts).toEqual([token.id, token.id]);
  });

  it('fails closed with 503 when Redis is down', async () => {
    const dead = createRedis(redisAt('redis://127.0.0.1:1'), prefix, log);
    try {
      const authenticate = await createAuthenticator(publicPem, dead, tokenPeers(new Map()).peers);
      expect(await failure(authenticate(`Bearer ${newTokenSecret('workspace')}`))).toMatchObject({
        kind: 'unavailable',
      });
    } finally {
      dead.disconnect();
    }
  });
});
