import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { DomainError } from '@wms/kit/errors';
import { createLogger } from '@wms/kit/logger';
import { createRedis, redisReady } from '@wms/kit/redis';
import { type CachedMembership, membershipCache } from '@wms/kit/membership';
import { session } from '@wms/kit/sessions';
import { dropRedisPrefix, testRedisPrefix, testRedisUrl } from '@wms/testkit';
import { importPKCS8, SignJWT } from 'jose';
import { afterAll, describe, expect, it } from 'vitest';
import { createAuthenticator } from '../src/middleware/auth.ts';

const log = createLogger('gateway-test', 'silent');
const keys = generateKeyPairSync('ed25519');
const publicPem = keys.publicKey.export({ type: 'spki', format: 'pem' }).toString();
const privatePem = keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const prefix = testRedisPrefix();
const redis = createRedis(testRedisUrl, prefix, log);

const tokenFor = async (sessionId: string) =>
  new SignJWT({ sid: sessionId }).setProtectedHeader({ alg: 'EdDSA' }).setSubject('user-1').setIssuer('wms').sign(await importPKCS8(privatePem, 'EdDSA'));

const resolved: Array<[string, string]> = [];
let membershipOf: CachedMembership | null = null;
const resolve = async (workspaceId: string, userId: string) => {
  resolved.push([workspaceId, userId]);
  return membershipOf;
};

const peers = { resolveMembership: resolve, resolveToken: async () => null, recordTokenUse: async () => undefined };

const failure = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e as DomainError);

afterAll(async () => {
  await redis.quit();
  await dropRedisPrefix(testRedisUrl, prefix);
});

describe('gateway session check', () => {
  it('accepts a token exactly while its session key exists', async () => {
    await redisReady(redis);
    const authenticate = await createAuthenticator(publicPem, redis, peers);
    const sessionId = randomUUID();
    const header = `Bearer ${await tokenFor(sessionId)}`;
    expect(await failure(authenticate(header))).toMatchObject({ code: 'unauthenticated' });
    await redis.set(session.key(sessionId), 'user-1');
    expect(await authenticate(header)).toEqual({ userId: 'user-1', sessionId });
    await redis.del(session.key(sessionId));
    expect(await failure(authenticate(header))).toMatchObject({ code: 'unauthenticated' });
  });

  it('refuses a token once it expires, though it was verified before, and a tampered one', async () => {
    let clock = Date.now();
    const authenticate = await createAuthenticator(publicPem, redis, peers, { now: () => clock });
    const sessionId = randomUUID();
    await redis.set(session.key(sessionId), 'user-1');
    const token = await new SignJWT({ sid: sessionId })
      .setProtectedHeader({ alg: 'EdDSA' })
      .setSubject('user-1')
      .setIssuer('wms')
      .setExpirationTime(Math.floor(clock / 1000) + 60)
      .sign(await importPKCS8(privatePem, 'EdDSA'));
    expect(await authenticate(`Bearer ${token}`)).toEqual({ userId: 'user-1', sessionId });
    expect(await authenticate(`Bearer ${token}`)).toEqual({ userId: 'user-1', sessionId });
    const [head, body, signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body!, 'base64url').toString()), sub: 'user-2' })).toString('base64url');
    expect(await failure(authenticate(`Bearer ${head}.${forged}.${signature}`))).toMatchObject({ code: 'unauthenticated' });
    clock += 61_000;
    expect(await failure(authenticate(`Bearer ${token}`))).toMatchObject({ code: 'unauthenticated' });
  });

  it('fails closed with 503 unavailable when Redis is down', async () => {
    const dead = createRedis('redis://127.0.0.1:1', prefix, log);
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
    await redis.set(session.key(sessionId), 'user-1');
    expect(await failure(authenticate(header, { value: 'not-a-uuid' }))).toMatchObject({ code: 'invalid_workspace_header' });
    expect(await failure(authenticate(header, { value: undefined }))).toMatchObject({ code: 'invalid_workspace_header' });
  });

  it('uses the cached membership, asks the workspace service once on a miss, and honours tombstones', async () => {
    const authenticate = await createAuthenticator(publicPem, redis, peers);
    const sessionId = randomUUID();
    await redis.set(session.key(sessionId), 'user-1');
    const header = `Bearer ${await tokenFor(sessionId)}`;
    const workspaceId = randomUUID();
    const member = { workspaceUserId: randomUUID(), actorId: randomUUID(), role: 'admin' };

    resolved.length = 0;
    membershipOf = member;
    expect((await authenticate(header, { value: workspaceId.toUpperCase() })).workspace).toEqual({ id: workspaceId, ...member });
    expect(resolved).toEqual([[workspaceId, 'user-1']]);

    await redis.set(membershipCache.key(workspaceId, 'user-1'), membershipCache.encode({ ...member, role: 'member' }));
    expect((await authenticate(header, { value: workspaceId })).workspace).toMatchObject({ role: 'member' });
    expect(resolved).toHaveLength(1);

    await redis.set(membershipCache.key(workspaceId, 'user-1'), membershipCache.tombstone);
    expect(await failure(authenticate(header, { value: workspaceId }))).toMatchObject({ code: 'workspace_not_found' });
    expect(resolved).toHaveLength(1);

    membershipOf = null;
    expect(await failure(authenticate(header, { value: randomUUID() }))).toMatchObject({ code: 'workspace_not_found' });
    expect(resolved).toHaveLength(2);
  });
});
