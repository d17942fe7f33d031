import { unauthenticated, unavailable } from '@wms/kit/errors';
import type { Redis } from '@wms/kit/redis';
import { session } from '@wms/kit/sessions';
import { importSPKI, jwtVerify } from 'jose';

export interface Caller {
  userId: string;
  sessionId: string;
}

export type Authenticate = (authorization: string | undefined) => Promise<Caller>;

const bearer = /^Bearer ([A-Za-z0-9_.-]+)$/;

/**
 * Checks a bearer token: the JWT's signature, issuer and expiry locally, then that its session is still live with
 * one Redis round trip. Redis being down fails closed (503), never open.
 */
export async function createAuthenticator(publicKeyPem: string, redis: Redis): Promise<Authenticate> {
  const key = await importSPKI(publicKeyPem, session.algorithm);
  const refused = () => unauthenticated('unauthenticated', 'A valid session token is required.');
  return async (authorization) => {
    const token = authorization && bearer.exec(authorization)?.[1];
    if (!token) throw refused();
    let userId: string | undefined;
    let sessionId: unknown;
    try {
      const { payload } = await jwtVerify(token, key, { issuer: session.issuer, algorithms: [session.algorithm] });
      userId = payload.sub;
      sessionId = payload.sid;
    } catch {
      throw refused();
    }
    if (!userId || typeof sessionId !== 'string') throw refused();
    let live: number;
    try {
      live = await redis.exists(session.key(sessionId));
    } catch {
      throw unavailable('Sessions cannot be checked right now; try again shortly.');
    }
    if (live !== 1) throw refused();
    return { userId, sessionId };
  };
}
