import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { DomainError } from '@wms/kit/errors';
import { createLogger } from '@wms/kit/logger';
import { createRedis, redisReady } from '@wms/kit/redis';
import { session } from '@wms/kit/sessions';
import { dropRedisPrefix, testRedisPrefix, testRedisUrl } from '@wms/kit/testing';
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

const failure = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e as DomainError);

afterAll(async () => {
  await redis.quit();
  await dropRedisPrefix(testRedisUrl, prefix);
});

describe('gateway session check', () => {
  it('accepts a token exactly while its session key exists', async () => {
    await redisReady(redis);
    const authenticate = await createAuthenticator(publicPem, redis);
    const sessionId = randomUUID();
    const header = `Bearer ${await tokenFor(sessionId)}`;
    expect(await failure(authenticate(header))).toMatchObject({ code: 'unauthenticated' });
    await redis.set(session.key(sessionId), 'user-1');
    expect(await authenticate(header)).toEqual({ userId: 'user-1', sessionId });
    await redis.del(session.key(sessionId));
    expect(await failure(authenticate(header))).toMatchObject({ code: 'unauthenticated' });
  });

  it('fails closed with 503 unavailable when Redis is down', async () => {
    const dead = createRedis('redis://127.0.0.1:1', prefix, log);
    try {
      const authenticate = await createAuthenticator(publicPem, dead);
      const err = await failure(authenticate(`Bearer ${await tokenFor(randomUUID())}`));
      expect(err).toBeInstanceOf(DomainError);
      expect(err).toMatchObject({ kind: 'unavailable', code: 'unavailable' });
    } finally {
      dead.disconnect();
    }
  });
});
