import { randomInt } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { newToken } from '@wms/kit/account-rules';

/** The kinds of mailed link. */
export type TokenKind = 'register' | 'magic' | 'email_change' | 'reset';

/** How long each mailed link or code lives (spec/contract.md §2). */
export const lifetimesMs = {
  register: 24 * 60 * 60 * 1000,
  magic: 15 * 60 * 1000,
  email_change: 24 * 60 * 60 * 1000,
  reset: 60 * 60 * 1000,
  code: 10 * 60 * 1000,
} as const satisfies Record<TokenKind | 'code', number>;

/** A code is exhausted by this many tries, right or wrong. */
export const codeMaxAttempts = 5;

/** A new 6-digit code, uniformly drawn. */
export const newCode = (): string => randomInt(0, 1_000_000).toString().padStart(6, '0');

// OWASP's minimum for argon2id (m = 19 MiB, t = 2, p = 1); see DESIGN.md for the measurement behind the choice.
const argonOptions = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** Hashes a password or a code with argon2id (codes are only 10^6, so a slow hash guards a leaked table). */
export const hashSecret = (secret: string): Promise<string> => hash(secret, argonOptions);

/** Verifies a secret against an argon2 hash (constant time inside argon2). */
export const verifySecret = (hashed: string, secret: string): Promise<boolean> =>
  verify(hashed, secret).catch(() => false);

let decoy: Promise<string> | undefined;

/** Spends the same time as a real verification, for requests about accounts that do not exist. */
export async function verifyDecoy(secret: string): Promise<false> {
  decoy ??= hashSecret(newToken());
  await verifySecret(await decoy, secret);
  return false;
}
