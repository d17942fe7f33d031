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
