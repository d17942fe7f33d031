import { createHash, randomBytes } from 'node:crypto';
import type { FieldCheck as Check } from './errors.ts';

// The rules of an account's fields and of the single-use tokens mailed links carry (contract §2), shared by identity
// (accounts, sign-in links) and workspace (invitations: an invitation link registers an account).

export const limits = {
  emailMax: 254,
  passwordMin: 8,
  passwordMax: 128,
  nameMax: 80,
} as const;

// Deliberately permissive (one @, a dot in the domain, no spaces): the mailed link is the real proof of an address.
const emailPattern = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
const tokenPattern = /^[A-Za-z0-9_-]{43}$/;

/** Addresses are compared case-insensitively: stored and looked up trimmed and lowercased. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

export const isValidEmail = (email: string): boolean => email.length <= limits.emailMax && emailPattern.test(email);

export const isValidPassword = (password: string): boolean =>
  password.length >= limits.passwordMin && password.length <= limits.passwordMax;

export const normalizeName = (name: string): string => name.trim();

export const isValidName = (name: string): boolean => name.length >= 1 && name.length <= limits.nameMax;

/** Tokens are 32 random bytes in URL-safe base64 without padding. */
export const isWellFormedToken = (token: string): boolean => tokenPattern.test(token);

export const emailCheck = (email: string, field = 'body.email'): Check => [
  field,
  isValidEmail(email),
  'must be a valid email address of at most 254 characters',
];
export const passwordCheck = (password: string): Check => [
  'body.password',
  isValidPassword(password),
  'must be 8 to 128 characters',
];
export const nameCheck = (name: string): Check => [
  'body.name',
  isValidName(name),
  'must be 1 to 80 characters after trimming',
];
export const tokenCheck = (token: string, field = 'body.token'): Check => [
  field,
  isWellFormedToken(token),
  'must be a token from a mailed link',
];

/** A new single-use token: 32 random bytes, URL-safe base64 (43 characters). */
export const newToken = (): string => randomBytes(32).toString('base64url');

/**
 * Tokens carry 256 random bits, so one fast hash suffices; only the hash is stored. A presented token is found by
 * its hash: what a lookup's timing could reveal is about the SHA-256 of the attacker's own guess, never the secret.
 */
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');
