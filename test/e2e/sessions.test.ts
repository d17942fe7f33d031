import { generateKeyPairSync } from 'node:crypto';
import { decodeJwt, importPKCS8, SignJWT } from 'jose';
import { describe, expect, inject, it } from 'vitest';
import { expectError, signUp } from './support/accounts.ts';
import { api } from './support/http.ts';

async function resign(token: string, pem: string, claims: { exp?: number; sid?: string }) {
  const payload = decodeJwt(token);
  const jwt = new SignJWT({ sid: claims.sid ?? payload.sid })
    .setProtectedHeader({ alg: 'EdDSA' })
    .setSubject(payload.sub!)
    .setIssuer('wms')
    .setIssuedAt();
  if (claims.exp !== undefined) jwt.setExpirationTime(claims.exp);
  return jwt.sign(await importPKCS8(pem, 'EdDSA'));
}

describe('session checks at the gateway', () => {
  it('refuses missing, garbled, foreign, expired and unknown-session tokens with 401', async () => {
    const account = await signUp('tokens');
    const ownKey = inject('jwtPrivateKey');
    const foreignKey = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

    const cases: Array<[string, Record<string, string>]> = [
      ['missing', {}],
      ['empty bearer', { Authorization: 'Bearer ' }],
      ['other scheme', { Authorization: `Basic ${account.token}` }],
      ['garbled', { Authorization: 'Bearer not.a.jwt' }],
      ['truncated', { Authorization: `Bearer ${account.token.slice(0, -4)}` }],
      ['foreign key', { Authorization: `Bearer ${await resign(account.token, foreignKey, {})}` }],
      [
        'expired',
        { Authorization: `Bearer ${await resign(account.token, ownKey, { exp: Math.floor(Date.now() / 1000) - 10 })}` },
      ],
      [
        'unknown session',
        {
          Authorization: `Bearer ${await resign(account.token, ownKey, { sid: '00000000-0000-4000-8000-000000000000' })}`,
        },
      ],
    ];
    for (const [name, headers] of cases) {
      const res = await api('GET', '/users/me', { headers });
      expect(res.status, name).toBe(401);
      expectError(res, 401, 'unauthenticated');
    }
    // The genuine token, and the same session re-signed by the real key, still work: only the above were refused.
    expect((await api('GET', '/users/me', { token: account.token })).status).toBe(200);
    expect((await api('GET', '/users/me', { token: await resign(account.token, ownKey, {}) })).status).toBe(200);
  });
});
