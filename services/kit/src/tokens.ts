import { createHash, randomBytes } from 'node:crypto';

// Integration credentials (contract §11): what a token looks like, shared by the workspace service, which makes and
// stores them, and the gateway, which tells a token from a session JWT by its prefix.

export const TOKEN_KINDS = ['conversation', 'workspace'] as const;
export type TokenKind = (typeof TOKEN_KINDS)[number];

const PREFIXES: Readonly<Record<TokenKind, string>> = { conversation: 'wms_ct_', workspace: 'wms_wt_' };
/** A prefix and 43 characters of URL-safe base64: 32 random bytes. */
const SHAPE = /^wms_(ct|wt)_[A-Za-z0-9_-]{43}$/;
/** How much of a token is kept and shown, for people to recognise it. */
export const TOKEN_PREFIX_LENGTH = 12;

/** A new secret of the kind: shown once, in the answer that creates it. */
export function newTokenSecret(kind: TokenKind): string {
  return PREFIXES[kind] + randomBytes(32).toString('base64url');
}

/** The kind of a well-formed token, or undefined for anything else (a session JWT, garbage). */
export function tokenKindOf(value: string): TokenKind | undefined {
  const shape = SHAPE.exec(value);
  if (!shape) return undefined;
  return shape[1] === 'ct' ? 'conversation' : 'workspace';
}

/** What is stored of a secret: its SHA-256 (32 bytes random input, so no salt or slow hash is needed). */
export const tokenHash = (secret: string): Buffer => createHash('sha256').update(secret).digest();

/** What is stored to show: the secret's first characters. */
export const tokenPrefixOf = (secret: string): string => secret.slice(0, TOKEN_PREFIX_LENGTH);

/** A usable token as the gateway needs it on every request it authenticates. */
export interface CachedToken {
  id: string;
  kind: TokenKind;
  workspaceId: string;
  /** The conversation of a conversation token; null for a workspace token. */
  conversationId: string | null;
  /** The agent the token acts as. */
  actorId: string;
}

const TOMBSTONE = 'none';

/**
 * The token cache the gateway fills (from the workspace service, which owns tokens) and the workspace service
 * invalidates, in Redis under the deployment's prefix, keyed by the secret's SHA-256. A revocation, an agent's
 * deactivation and a workspace's deletion write a tombstone before their commit; a fill only sets an absent key, so a
 * lookup that raced with them cannot bring the token back. Unknown secrets are remembered as tombstones briefly.
 */
export const tokenCache = {
  /** Hash-tagged by the secret's hash: on a Redis Cluster the token's three keys, read in one script, share a slot. */
  key: (hash: Buffer) => `token:{${hash.toString('hex')}}`,
  /** The sliding window of the token's recent requests (rate limit, contract §11). */
  rateKey: (hash: Buffer) => `token-rate:{${hash.toString('hex')}}`,
  /** Exists for a minute after the use that last wrote `last_used_at`. */
  usedKey: (hash: Buffer) => `token-used:{${hash.toString('hex')}}`,
  /** The previous release's key: tombstones are written to it too (kit's `keyToRead`). */
  previousKey: (hash: Buffer) => `token:${hash.toString('hex')}`,
  ttlSeconds: 600,
  unknownTtlSeconds: 60,
  tombstone: TOMBSTONE,
  encode: (t: CachedToken): string => JSON.stringify([t.id, t.kind, t.workspaceId, t.conversationId, t.actorId]),
  /** undefined: not cached; null: known not to be usable. */
  decode(value: string | null): CachedToken | null | undefined {
    if (value === null) return undefined;
    if (value === TOMBSTONE) return null;
    const [id, kind, workspaceId, conversationId, actorId] = JSON.parse(value) as [
      string,
      TokenKind,
      string,
      string | null,
      string,
    ];
    return { id, kind, workspaceId, conversationId, actorId };
  },
};
