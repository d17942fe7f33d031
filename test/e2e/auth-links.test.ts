import { describe, expect, it } from 'vitest';
import { type Account, expectError, logIn, signUp } from './support/accounts.ts';
import { expireCodes, expireLinks, linkLifetimeMinutes } from './support/db.ts';
import { api, randomIp, uniqueEmail } from './support/http.ts';
import { code, expectNoMail, linkToken, waitForMail } from './support/mail.ts';

const wrongCode = (right: string) => (right === '000000' ? '111111' : '000000');

/** Asks for a sign-in code and returns the one mailed for this request. */
async function mailedCode(account: Account): Promise<string> {
  const since = new Date();
  await api('POST', '/auth/email-code', { body: { email: account.email }, ip: account.ip });
  return code(await waitForMail(account.email, { match: (m) => /code/i.test(m.subject), after: since }));
}

describe('magic links', () => {
  it('signs in once with a 15-minute link, and answers the same for unknown addresses without mailing', async () => {
    const account = await signUp('magic');
    const known = await api('POST', '/auth/magic-link', { body: { email: account.email }, ip: account.ip });
    const nobody = uniqueEmail('magic-nobody');
    const unknown = await api('POST', '/auth/magic-link', { body: { email: nobody }, ip: account.ip });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.body).toEqual({ status: 'email_pending', email: account.email });
    expect(unknown.body).toEqual({ status: 'email_pending', email: nobody });

    const token = linkToken(await waitForMail(account.email, { match: (m) => /sign-in link/i.test(m.subject) }));
    expect(await linkLifetimeMinutes(account.email, 'magic')).toBe(15);
    const signedIn = await api('POST', '/auth/verify-email', { body: { token }, ip: account.ip });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toMatchObject({ token_type: 'Bearer', user: { id: account.userId } });
    expectError(await api('POST', '/auth/verify-email', { body: { token }, ip: account.ip }), 401, 'invalid_token');
    await expectNoMail(nobody);
  });

  it('verifies an unverified address when used, and dies when expired', async () => {
    const ip = randomIp();
    const email = uniqueEmail('magic-unverified');
    await api('POST', '/auth/register', { body: { email, password: 'correct-horse-1', name: 'M' }, ip });
    await waitForMail(email);
    await api('POST', '/auth/magic-link', { body: { email }, ip });
    const token = linkToken(await waitForMail(email, { match: (m) => /sign-in link/i.test(m.subject) }));
    const res = await api('POST', '/auth/verify-email', { body: { token }, ip });
    expect(res.status).toBe(200);
    expect((res.body as { user: { email_verified_at: string | null } }).user.email_verified_at).not.toBeNull();

    await api('POST', '/auth/magic-link', { body: { email }, ip });
    const late = linkToken(
      await waitForMail(email, { match: (m) => /sign-in link/i.test(m.subject) && !m.text.includes(token) }),
    );
    await expireLinks(email);
    expectError(await api('POST', '/auth/verify-email', { body: { token: late }, ip }), 401, 'invalid_token');
  });
});

describe('email codes', () => {
  it('signs in once with a mailed code that lives 10 minutes', async () => {
    const account = await signUp('code');
    const res = await api('POST', '/auth/email-code', { body: { email: account.email }, ip: account.ip });
    expect(res.status).toBe(200);
    const pending = res.body as { status: string; email: string; expires_at: string };
    expect(pending).toMatchObject({ status: 'code_pending', email: account.email });
    const minutes = (Date.parse(pending.expires_at) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(9.5);
    expect(minutes).toBeLessThanOrEqual(10);

    const mail = await waitForMail(account.email, { match: (m) => /code/i.test(m.subject) });
    const c = code(mail);
    expect(mail.subject).toContain(c);
    expect(mail.text).toContain(c);
    const signedIn = await api('POST', '/auth/verify-code', {
      body: { email: account.email.toUpperCase(), code: c },
      ip: account.ip,
    });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toMatchObject({ token_type: 'Bearer', user: { id: account.userId } });
    expectError(
      await api('POST', '/auth/verify-code', { body: { email: account.email, code: c }, ip: account.ip }),
      401,
      'invalid_code',
    );
  });

  it('exhausts a code on the fifth wrong try, then refuses even the right one', async () => {
    const account = await signUp('code-exhaust');
    await api('POST', '/auth/email-code', { body: { email: account.email }, ip: account.ip });
    const c = code(await waitForMail(account.email, { match: (m) => /code/i.test(m.subject) }));
    for (let i = 0; i < 5; i++) {
      expectError(
        await api('POST', '/auth/verify-code', { body: { email: account.email, code: wrongCode(c) }, ip: account.ip }),
        401,
        'invalid_code',
      );
    }
    expectError(
      await api('POST', '/auth/verify-code', { body: { email: account.email, code: c }, ip: account.ip }),
      401,
      'invalid_code',
    );
  });

  it('accepts the right code after four wrong tries', async () => {
    const account = await signUp('code-four');
    await api('POST', '/auth/email-code', { body: { email: account.email }, ip: account.ip });
    const c = code(await waitForMail(account.email, { match: (m) => /code/i.test(m.subject) }));
    for (let i = 0; i < 4; i++) {
      await api('POST', '/auth/verify-code', { body: { email: account.email, code: wrongCode(c) }, ip: account.ip });
    }
    expect(
      (await api('POST', '/auth/verify-code', { body: { email: account.email, code: c }, ip: account.ip })).status,
    ).toBe(200);
  });

  it('refuses an expired code, a superseded code, and malformed input', async () => {
    const account = await signUp('code-expire');
    await api('POST', '/auth/email-code', { body: { email: account.email }, ip: account.ip });
    const first = code(await waitForMail(account.email, { match: (m) => /code/i.test(m.subject) }));
    await expireCodes(account.email);
    expectError(
      await api('POST', '/auth/verify-code', { body: { email: account.email, code: first }, ip: account.ip }),
      401,
      'invalid_code',
    );

    const older = await mailedCode(account);
    // Codes are random, so the next may repeat this one (one in a million); a repeat is asked again, so that the
    // superseded code refused below is never also the valid one.
    let newer: string;
    do newer = await mailedCode(account);
    while (newer === older);
    expectError(
      await api('POST', '/auth/verify-code', { body: { email: account.email, code: older }, ip: account.ip }),
      401,
      'invalid_code',
    );
    expect(
      (await api('POST', '/auth/verify-code', { body: { email: account.email, code: newer }, ip: account.ip })).status,
    ).toBe(200);

    for (const bad of ['12345', '1234567', 'abcdef', '']) {
      const e = expectError(
        await api('POST', '/auth/verify-code', { body: { email: account.email, code: bad }, ip: account.ip }),
        400,
        'invalid_input',
      );
      expect(e.details?.[0]?.field).toBe('body.code');
    }
  });

  it('answers the same for an unknown address and mails nothing', async () => {
    const ip = randomIp();
    const nobody = uniqueEmail('code-nobody');
    const res = await api('POST', '/auth/email-code', { body: { email: nobody }, ip });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'code_pending', email: nobody, expires_at: expect.any(String) });
    expectError(
      await api('POST', '/auth/verify-code', { body: { email: nobody, code: '123456' }, ip }),
      401,
      'invalid_code',
    );
    await expectNoMail(nobody);
  });
});

describe('account recovery', () => {
  it('resets the password with a one-hour link and revokes every session, link and code', async () => {
    const account = await signUp('reset');
    const other = await logIn(account);
    // Outstanding links and codes from before the reset must die with it.
    await api('POST', '/auth/magic-link', { body: { email: account.email }, ip: account.ip });
    const magic = linkToken(await waitForMail(account.email, { match: (m) => /sign-in link/i.test(m.subject) }));
    await api('POST', '/auth/email-code', { body: { email: account.email }, ip: account.ip });
    const pendingCode = code(await waitForMail(account.email, { match: (m) => /code/i.test(m.subject) }));

    const asked = await api('POST', '/auth/recover', { body: { email: account.email }, ip: account.ip });
    expect(asked.status).toBe(200);
    expect(asked.body).toEqual({ status: 'email_pending', email: account.email });
    const reset = linkToken(await waitForMail(account.email, { match: (m) => /reset/i.test(m.subject) }));
    expect(await linkLifetimeMinutes(account.email, 'reset')).toBe(60);

    const done = await api('POST', '/auth/reset-password', {
      body: { token: reset, password: 'brand-new-pass-2' },
      ip: account.ip,
    });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ status: 'password_reset' });

    expectError(await api('GET', '/users/me', { token: account.token }), 401, 'unauthenticated');
    expectError(await api('GET', '/users/me', { token: other }), 401, 'unauthenticated');
    expectError(
      await api('POST', '/auth/verify-email', { body: { token: magic }, ip: account.ip }),
      401,
      'invalid_token',
    );
    expectError(
      await api('POST', '/auth/verify-code', { body: { email: account.email, code: pendingCode }, ip: account.ip }),
      401,
      'invalid_code',
    );
    expectError(
      await api('POST', '/auth/reset-password', { body: { token: reset, password: 'another-pass-3' }, ip: account.ip }),
      401,
      'invalid_token',
    );
    expectError(
      await api('POST', '/auth/login', { body: { email: account.email, password: account.password }, ip: account.ip }),
      401,
      'invalid_credentials',
    );
    expect(await logIn({ ...account, password: 'brand-new-pass-2' })).toBeTruthy();
  });

  it('answers the same for an unknown address and mails nothing', async () => {
    const ip = randomIp();
    const nobody = uniqueEmail('recover-nobody');
    const res = await api('POST', '/auth/recover', { body: { email: nobody }, ip });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'email_pending', email: nobody });
    await expectNoMail(nobody);
  });

  it('refuses expired, unknown and malformed reset links and weak passwords', async () => {
    const account = await signUp('reset-bad');
    await api('POST', '/auth/recover', { body: { email: account.email }, ip: account.ip });
    const reset = linkToken(await waitForMail(account.email, { match: (m) => /reset/i.test(m.subject) }));
    const weak = expectError(
      await api('POST', '/auth/reset-password', { body: { token: reset, password: 'short' }, ip: account.ip }),
      400,
      'invalid_input',
    );
    expect(weak.details?.[0]?.field).toBe('body.password');
    expectError(
      await api('POST', '/auth/reset-password', { body: { token: 'nope', password: 'long-enough-1' }, ip: account.ip }),
      400,
      'invalid_input',
    );
    expectError(
      await api('POST', '/auth/reset-password', {
        body: { token: 'B'.repeat(43), password: 'long-enough-1' },
        ip: account.ip,
      }),
      401,
      'invalid_token',
    );
    // A reset link is not a sign-in link.
    expectError(
      await api('POST', '/auth/verify-email', { body: { token: reset }, ip: account.ip }),
      401,
      'invalid_token',
    );
    await expireLinks(account.email);
    expectError(
      await api('POST', '/auth/reset-password', { body: { token: reset, password: 'long-enough-1' }, ip: account.ip }),
      401,
      'invalid_token',
    );
    expect((await api('GET', '/users/me', { token: account.token })).status).toBe(200);
  });
});
