import { randomBytes } from 'node:crypto';
import { forbidden, invalidArgument, notFound, rateLimited, unauthenticated, unavailable } from '@wms/kit/errors';
import { type CachedMembership, membershipCache } from '@wms/kit/membership';
import { keyToRead, type Redis } from '@wms/kit/redis';
import { session } from '@wms/kit/sessions';
import { type CachedToken, tokenCache, tokenHash, tokenKindOf } from '@wms/kit/tokens';
import { type CryptoKey, importSPKI, jwtVerify } from 'jose';

/** Who calls: a signed-in user (with its session), or an agent with a token (contract §11: no user). */
export type Caller =
  | {
      userId: string;
      sessionId: string;
      token?: undefined;
      /** Set when a workspace was asked for: the caller's accepted membership of it. */
      workspace?: { id: string } & CachedMembership;
    }
  | {
      userId?: undefined;
      sessionId?: undefined;
      token: CachedToken;
      /** Set when a workspace was asked for: the token's own (it acts in no other). */
      workspace?: { id: string; actorId: string };
    };

/** Checks the bearer credential and, given the `X-Workspace-Id` header's value, the caller's access to that workspace. */
export type Authenticate = (
  authorization: string | undefined,
  workspaceHeader?: { value: string | undefined },
) => Promise<Caller>;

/** Asks the workspace service (on a cache miss); null when the caller is not an accepted member of a live workspace. */
export type ResolveMembership = (workspaceId: string, userId: string) => Promise<CachedMembership | null>;

/** What the gateway asks of the workspace service, which owns memberships and tokens. */
export interface AuthPeers {
  resolveMembership: ResolveMembership;
  /** On a cache miss: the token whose secret has this SHA-256 when it may act now, else null. */
  resolveToken: (secretSha256: Buffer) => Promise<CachedToken | null>;
  /** A token's `last_used_at` (asked at most once a minute per token). */
  recordTokenUse: (tokenId: string) => Promise<void>;
}

export interface AuthOptions {
  now?: () => number;
  /** Requests a token may make in any 60 s (`TOKEN_RATE_LIMIT_PER_MINUTE`). */
  tokenRateLimit?: number;
}

/**
 * One round trip per token request: the cached token (filled with ARGV[3] when absent and one is given), then, for a
 * usable one, its sliding 60 s window (a sorted set of request times, by Redis's clock so every gateway replica
 * counts alike) and the once-a-minute marker of its last use. Answers {0} not cached, {1} not usable, {2, entry, ms
 * until a slot frees} limited, {3, entry, 1 when the use is to be recorded}.
 */
const TOKEN_SCRIPT = `
local entry = redis.call('GET', KEYS[1])
if not entry then
  if ARGV[3] == '' then return {0} end
  redis.call('SET', KEYS[1], ARGV[3], 'EX', tonumber(ARGV[4]))
  entry = ARGV[3]
end
if entry == ARGV[5] then return {1} end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - 60000)
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[1]) then
  local oldest = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
  return {2, entry, tonumber(oldest[2]) + 60000 - now}
end
redis.call('ZADD', KEYS[2], now, ARGV[2])
redis.call('PEXPIRE', KEYS[2], 60000)
local used = redis.call('SET', KEYS[3], '1', 'NX', 'EX', 60)
return {3, entry, used and 1 or 0}
`;

type TokenAnswer = [0] | [1] | [2, string, number] | [3, string, 0 | 1];

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

const refused = () => unauthenticated('unauthenticated', 'A valid session token or integration token is required.');
const noWorkspace = () => notFound('The workspace does not exist or you are not a member.', 'workspace_not_found');
const badHeader = () =>
  invalidArgument('invalid_workspace_header', 'The X-Workspace-Id header must be a workspace id (UUID).');

type WorkspaceHeader = { value: string | undefined } | undefined;

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
  { resolveMembership, resolveToken, recordTokenUse }: AuthPeers,
  { now = Date.now, tokenRateLimit = 120 }: AuthOptions = {},
): Promise<Authenticate> {
  const claimsOf = sessionClaims(await importSPKI(publicKeyPem, session.algorithm), now);
  const authenticateToken = tokenAuthenticator(redis, { resolveToken, recordTokenUse }, now, tokenRateLimit);

  return async (authorization, workspaceHeader) => {
    const token = authorization && bearer.exec(authorization)?.[1];
    if (!token) throw refused();
    if (tokenKindOf(token)) return authenticateToken(token, workspaceHeader);
    const claims = await claimsOf(token);
    if (!claims) throw refused();
    const { userId, sessionId } = claims;

    const workspaceId =
      workspaceHeader?.value && uuid.test(workspaceHeader.value) ? workspaceHeader.value.toLowerCase() : undefined;
    const { live, cached } = await sessionState(
      redis,
      { userId, sessionId },
      workspaceId ? { workspaceId } : undefined,
    );
    if (live !== 1) throw refused();
    if (!workspaceHeader) return { userId, sessionId };
    if (!workspaceId) throw badHeader();

    let membership = membershipCache.decode(cached);
    if (membership === undefined) membership = await resolveMembership(workspaceId, userId);
    if (!membership) throw noWorkspace();
    return { userId, sessionId, workspace: { id: workspaceId, ...membership } };
  };
}

/** A session JWT's claims when its signature, issuer and expiry verify; the last `VERIFIED_TOKENS` are remembered. */
function sessionClaims(key: CryptoKey, now: () => number): (token: string) => Promise<Claims | undefined> {
  const verified = new Map<string, Claims>();
  return async (token) => {
    const known = verified.get(token);
    if (known) {
      verified.delete(token);
      if (known.expiresAt <= now()) return undefined;
      verified.set(token, known);
      return known;
    }
    try {
      const { payload } = await jwtVerify(token, key, {
        issuer: session.issuer,
        algorithms: [session.algorithm],
        currentDate: new Date(now()),
      });
      if (!payload.sub || typeof payload.sid !== 'string') return undefined;
      const claims = {
        userId: payload.sub,
        sessionId: payload.sid,
        expiresAt: payload.exp === undefined ? Infinity : payload.exp * 1000,
      };
      if (verified.size >= VERIFIED_TOKENS) verified.delete(verified.keys().next().value!);
      verified.set(token, claims);
      return claims;
    } catch {
      return undefined;
    }
  };
}

/**
 * Whether the session KEYS[1] exists, then the cached membership KEYS[2] (absent from the answer when not cached). A
 * script rather than MULTI, which answers the same in one round trip too, but whose ioredis objects outlived V8's
 * young-generation collections: 4 KB of each request moved to the old generation (docs/benchmark.md).
 */
const SESSION_SCRIPT = "return {redis.call('EXISTS', KEYS[1]), redis.call('GET', KEYS[2])}";

/**
 * In one Redis round trip: whether the session is live (1) and, given a workspace, the caller's cached membership of
 * it (null when none is cached).
 */
async function sessionState(
  redis: Redis,
  { userId, sessionId }: { userId: string; sessionId: string },
  member: { workspaceId: string } | undefined,
): Promise<{ live: number; cached: string | null }> {
  try {
    const sessionKey = keyToRead(redis, session.key(userId, sessionId), session.previousKey(sessionId));
    if (!member) return { live: await redis.exists(sessionKey), cached: null };
    const membershipKey = keyToRead(
      redis,
      membershipCache.key(member.workspaceId, userId),
      membershipCache.previousKey(member.workspaceId, userId),
    );
    const [live, cached] = (await redis.eval(SESSION_SCRIPT, 2, sessionKey, membershipKey)) as [number, string?];
    return { live, cached: cached ?? null };
  } catch {
    throw unavailable('Sessions cannot be checked right now; try again shortly.');
  }
}

/** A token (contract §11): usable, within its rate, and (given the header) for the workspace it names, if any. */
function tokenAuthenticator(
  redis: Redis,
  { resolveToken, recordTokenUse }: Pick<AuthPeers, 'resolveToken' | 'recordTokenUse'>,
  now: () => number,
  tokenRateLimit: number,
): (secret: string, workspaceHeader: WorkspaceHeader) => Promise<Caller> {
  const tokenScript = async (hash: Buffer, fill: string): Promise<TokenAnswer> => {
    try {
      const tokenKey = keyToRead(redis, tokenCache.key(hash), tokenCache.previousKey(hash));
      const keys = [tokenKey, tokenCache.rateKey(hash), tokenCache.usedKey(hash)];
      const ttl = fill === tokenCache.tombstone ? tokenCache.unknownTtlSeconds : tokenCache.ttlSeconds;
      return (await redis.eval(
        TOKEN_SCRIPT,
        keys.length,
        ...keys,
        tokenRateLimit,
        `${now()}:${randomBytes(6).toString('base64url')}`,
        fill,
        ttl,
        tokenCache.tombstone,
      )) as TokenAnswer;
    } catch {
      throw unavailable('Tokens cannot be checked right now; try again shortly.');
    }
  };

  return async (secret, workspaceHeader) => {
    const hash = tokenHash(secret);
    let answer = await tokenScript(hash, '');
    if (answer[0] === 0) {
      const found = await resolveToken(hash);
      answer = await tokenScript(hash, found ? tokenCache.encode(found) : tokenCache.tombstone);
    }
    if (answer[0] === 0 || answer[0] === 1) throw refused();
    const token = tokenCache.decode(answer[1])!;
    if (answer[0] === 2) {
      const seconds = Math.min(60, Math.max(1, Math.ceil(answer[2] / 1000)));
      throw rateLimited(seconds, [
        { field: 'header.authorization', message: `a token may make ${tokenRateLimit} requests a minute` },
      ]);
    }
    if (answer[2] === 1) {
      // Written within seconds of the use, once a minute; a failed write is tried again by the next use.
      void recordTokenUse(token.id).catch(() => redis.del(tokenCache.usedKey(hash)).catch(() => undefined));
    }
    if (!workspaceHeader) return { token };
    const named = workspaceHeader.value;
    if (named !== undefined && !uuid.test(named)) throw badHeader();
    if (named !== undefined && named.toLowerCase() !== token.workspaceId)
      throw forbidden("This token acts only in its own workspace; omit X-Workspace-Id or name the token's.");
    return { token, workspace: { id: token.workspaceId, actorId: token.actorId } };
  };
}
