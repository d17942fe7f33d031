import { invalidArgument, notFound, unauthenticated, unavailable } from '@wms/kit/errors';
import { type CachedMembership, membershipCache } from '@wms/kit/membership';
import type { Redis } from '@wms/kit/redis';
import { session } from '@wms/kit/sessions';
import { importSPKI, jwtVerify } from 'jose';

export interface Caller {
  userId: string;
  sessionId: string;
  /** Set when a workspace was asked for: the caller's accepted membership of it. */
  workspace?: { id: string } & CachedMembership;
}

/** Checks the bearer token and, given the `X-Workspace-Id` header's value, the caller's membership of that workspace. */
export type Authenticate = (authorization: string | undefined, workspaceHeader?: { value: string | undefined }) => Promise<Caller>;

/** Asks the workspace service (on a cache miss); null when the caller is not an accepted member of a live workspace. */
export type ResolveMembership = (workspaceId: string, userId: string) => Promise<CachedMembership | null>;

const bearer = /^Bearer ([A-Za-z0-9_.-]+)$/;

/** How many verified tokens the gateway remembers (the least recently used go first). */
const VERIFIED_TOKENS = 10_000;

interface Claims {
  userId: string;
  sessionId: string;
  /** When the token expires (ms); Infinity without `exp` (sessions that last until sign-out). */
  expiresAt: number;
}
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Checks a request's credentials in the contract's order (401, then the workspace header's 400, then 404): the JWT's
 * signature, issuer and expiry locally; then, in one Redis round trip, that the session is live and the cached
 * membership; on a membership miss, one call to the workspace service. Redis being down fails closed (503).
 * A token whose signature verified is remembered until it expires, so a client's next requests skip the signature
 * check; the session is still checked on every request, so a sign-out or revocation takes effect at once.
 */
export async function createAuthenticator(
  publicKeyPem: string,
  redis: Redis,
  resolveMembership: ResolveMembership,
  { now = Date.now }: { now?: () => number } = {},
): Promise<Authenticate> {
  const key = await importSPKI(publicKeyPem, session.algorithm);
  const verified = new Map<string, Claims>();
  const claimsOf = async (token: string): Promise<Claims | undefined> => {
    const known = verified.get(token);
    if (known) {
      verified.delete(token);
      if (known.expiresAt <= now()) return undefined;
      verified.set(token, known);
      return known;
    }
    try {
      const { payload } = await jwtVerify(token, key, { issuer: session.issuer, algorithms: [session.algorithm], currentDate: new Date(now()) });
      if (!payload.sub || typeof payload.sid !== 'string') return undefined;
      const claims = { userId: payload.sub, sessionId: payload.sid, expiresAt: payload.exp === undefined ? Infinity : payload.exp * 1000 };
      if (verified.size >= VERIFIED_TOKENS) verified.delete(verified.keys().next().value!);
      verified.set(token, claims);
      return claims;
    } catch {
      return undefined;
    }
  };
  const refused = () => unauthenticated('unauthenticated', 'A valid session token is required.');
  const noWorkspace = () => notFound('The workspace does not exist or you are not a member.', 'workspace_not_found');
  return async (authorization, workspaceHeader) => {
    const token = authorization && bearer.exec(authorization)?.[1];
    if (!token) throw refused();
    const claims = await claimsOf(token);
    if (!claims) throw refused();
    const { userId, sessionId } = claims;

    const workspaceId = workspaceHeader?.value && uuid.test(workspaceHeader.value) ? workspaceHeader.value.toLowerCase() : undefined;
    let live: number;
    let cached: string | null = null;
    try {
      if (workspaceId) {
        const results = await redis.multi().exists(session.key(sessionId)).get(membershipCache.key(workspaceId, userId)).exec();
        live = Number(results?.[0]?.[1] ?? 0);
        cached = (results?.[1]?.[1] as string | null | undefined) ?? null;
      } else {
        live = await redis.exists(session.key(sessionId));
      }
    } catch {
      throw unavailable('Sessions cannot be checked right now; try again shortly.');
    }
    if (live !== 1) throw refused();
    if (!workspaceHeader) return { userId, sessionId };
    if (!workspaceId) throw invalidArgument('invalid_workspace_header', 'The X-Workspace-Id header must be a workspace id (UUID).');

    let membership = membershipCache.decode(cached);
    if (membership === undefined) membership = await resolveMembership(workspaceId, userId);
    if (!membership) throw noWorkspace();
    return { userId, sessionId, workspace: { id: workspaceId, ...membership } };
  };
}
