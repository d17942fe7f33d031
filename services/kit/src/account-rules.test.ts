import { DomainError, ensure } from './errors.ts';
import { describe, expect, it } from 'vitest';
import {
  emailCheck,
  hashToken,
  isValidEmail,
  isValidName,
  isValidPassword,
  isWellFormedToken,
  nameCheck,
  newToken,
  normalizeEmail,
  normalizeName,
  passwordCheck,
} from './account-rules.ts';

describe('account rules', () => {
  it('normalizes addresses by trimming and lowercasing', () => {
    expect(normalizeEmail('  Ada.Lovelace@Example.COM ')).toBe('ada.lovelace@example.com');
  });

  it('accepts ordinary addresses and refuses malformed or overlong ones', () => {
    expect(isValidEmail('a@b.io')).toBe(true);
    expect(isValidEmail('first.last+tag@mail.example.org')).toBe(true);
    for (const bad of ['', 'plain', 'a@b', '@b.io', 'a@.io', 'a b@c.io', 'a@b..io', 'a@@b.io'])
      expect(isValidEmail(bad), bad).toBe(false);
    const local = 'x'.repeat(64);
    const long = `${local}@${'d'.repeat(185)}.com`;
    expect(long.length).toBe(254);
    expect(isValidEmail(long)).toBe(true);
    expect(isValidEmail(`y${long}`)).toBe(false);
  });

  it('bounds passwords to 8..128 characters', () => {
    expect(isValidPassword('1234567')).toBe(false);
    expect(isValidPassword('12345678')).toBe(true);
    expect(isValidPassword('p'.repeat(128))).toBe(true);
    expect(isValidPassword('p'.repeat(129))).toBe(false);
  });

  it('bounds names to 1..80 characters after trimming', () => {
    expect(isValidName(normalizeName('   '))).toBe(false);
    expect(isValidName(normalizeName('  Ada  '))).toBe(true);
    expect(isValidName('n'.repeat(80))).toBe(true);
    expect(isValidName('n'.repeat(81))).toBe(false);
  });

  it('recognizes well-formed tokens only', () => {
    expect(isWellFormedToken('A'.repeat(43))).toBe(true);
    expect(isWellFormedToken('A'.repeat(42))).toBe(false);
    expect(isWellFormedToken(`${'A'.repeat(42)}=`)).toBe(false);
  });

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

  it('reports every failed check as a field detail of one invalid_input error', () => {
    let error: unknown;
    try {
      ensure(emailCheck('nope'), passwordCheck('short'), nameCheck('ok'));
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(DomainError);
    const e = error as DomainError;
    expect(e.code).toBe('invalid_input');
    expect(e.kind).toBe('invalid_argument');
    expect(e.details?.map((d) => d.field)).toEqual(['body.email', 'body.password']);
  });
});
