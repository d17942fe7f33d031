import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newTokenSecret, TOKEN_KINDS, tokenHash, tokenKindOf, tokenPrefixOf } from './tokens.ts';

describe('tokens', () => {
  it('makes secrets of 32 random bytes behind the kind prefix, and tells the kind back from the shape alone', () => {
    for (const kind of TOKEN_KINDS) {
      const secret = newTokenSecret(kind);
      expect(secret).toMatch(kind === 'conversation' ? /^wms_ct_[A-Za-z0-9_-]{43}$/ : /^wms_wt_[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(secret.slice(7), 'base64url')).toHaveLength(32);
      expect(tokenKindOf(secret)).toBe(kind);
      expect(tokenPrefixOf(secret)).toBe(secret.slice(0, 12));
      expect(newTokenSecret(kind)).not.toBe(secret);
    }
  });

  it('stores the SHA-256 of a secret, never the secret', () => {
    const secret = newTokenSecret('workspace');
    expect(tokenHash(secret).toString('hex')).toMatch(/^[0-9a-f]{64}$/);
    expect(tokenHash(secret)).toEqual(tokenHash(secret));
    expect(tokenHash(secret).toString('latin1')).not.toContain(secret.slice(7));
  });

  it('takes nothing else for a token: a JWT, another prefix, a wrong length or alphabet (property)', () => {
    expect(tokenKindOf('eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJ4In0.c2ln')).toBeUndefined();
    const body = newTokenSecret('workspace').slice(7);
    for (const bad of [
      `wms_xt_${body}`,
      `wms_wt_${body}x`,
      `wms_wt_${body.slice(1)}`,
      `wms_wt_${body.slice(1)}=`,
      ` wms_wt_${body}`,
      `WMS_WT_${body}`,
    ]) {
      expect(tokenKindOf(bad), bad).toBeUndefined();
    }
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (value) => {
        const kind = tokenKindOf(value);
        expect(kind === undefined || /^wms_(ct|wt)_[A-Za-z0-9_-]{43}$/.test(value)).toBe(true);
      }),
    );
  });
});
