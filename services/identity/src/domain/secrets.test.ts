import { describe, expect, it } from 'vitest';
import { isWellFormedCode } from './rules.ts';
import { hashSecret, lifetimesMs, newCode, verifyDecoy, verifySecret } from './secrets.ts';

describe('identity secrets', () => {
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
