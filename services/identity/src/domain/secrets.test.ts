import { describe, expect, it } from 'vitest';
import { isWellFormedCode, isWellFormedToken } from './rules.ts';
import { hashSecret, hashToken, lifetimesMs, newCode, newToken, verifyDecoy, verifySecret } from './secrets.ts';

describe('identity secrets', () => {
  it('makes distinct URL-safe tokens of 32 random bytes', () => {
    const tokens = new Set(Array.from({ length: 200 }, newToken));
    expect(tokens.size).toBe(200);
    for (const t of tokens) {
      expect(isWellFormedToken(t)).toBe(true);
      expect(Buffer.from(t, 'base64url')).toHaveLength(32);
    }
  });

  it('stores tokens as SHA-256 hashes, the same for the same token only', () => {
    const t = newToken();
    const h = hashToken(t);
    expect(h).toMatch(/^[0-9a-f]{64}$/);
    expect(h).not.toContain(t);
    expect(hashToken(t)).toBe(h);
    expect(hashToken(newToken())).not.toBe(h);
    expect(hashToken(t.slice(0, -1))).not.toBe(h);
  });

  it('draws six-digit codes over the whole range', () => {
    const codes = Array.from({ length: 2000 }, newCode);
    for (const c of codes) expect(isWellFormedCode(c)).toBe(true);
    expect(codes.some((c) => c.startsWith('0'))).toBe(true);
    expect(new Set(codes).size).toBeGreaterThan(1900);
  });

  it('hashes secrets with argon2id at OWASP minimum parameters', async () => {
    const hashed = await hashSecret('correct horse');
    expect(hashed).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifySecret(hashed, 'correct horse')).toBe(true);
    expect(await verifySecret(hashed, 'wrong horse')).toBe(false);
    expect(await verifySecret('not a hash', 'x')).toBe(false);
    expect(await verifyDecoy('anything')).toBe(false);
  });

  it('gives each mailed secret the contract lifetime', () => {
    const minutes = (ms: number) => ms / 60_000;
    expect(minutes(lifetimesMs.register)).toBe(24 * 60);
    expect(minutes(lifetimesMs.email_change)).toBe(24 * 60);
    expect(minutes(lifetimesMs.magic)).toBe(15);
    expect(minutes(lifetimesMs.reset)).toBe(60);
    expect(minutes(lifetimesMs.code)).toBe(10);
  });
});
