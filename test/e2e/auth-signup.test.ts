import { describe, expect, it } from 'vitest';
import { expectError, logIn, signUp } from './support/accounts.ts';
import { expireLinks, linkLifetimeMinutes } from './support/db.ts';
import { api, randomIp, uniqueEmail } from './support/http.ts';
import { linkToken, waitForMail } from './support/mail.ts';

describe('sign-up, sign-in and sign-out through the gateway', () => {
  it('serves sign-up → mail → verify → /users/me → logout → 401', async () => {
    const ip = randomIp();
    const email = uniqueEmail('flow');
    const registered = await api('POST', '/auth/register', {
      body: { email: `  ${email.toUpperCase()}`, password: 'correct-horse-1', name: '  Ada Lovelace ' },
      ip,
    });
    expect(registered.status).toBe(201);
    expect(registered.body).toEqual({ status: 'email_pending', email });

    const mail = await waitForMail(email);
    const token = linkToken(mail);
    expect(mail.links.some((l) => l.includes('/verify-email?token='))).toBe(true);
    expect(await linkLifetimeMinutes(email, 'register')).toBe(24 * 60);

    const verified = await api('POST', '/auth/verify-email', { body: { token }, ip });
    expect(verified.status).toBe(200);
    const auth = verified.body as {
      access_token: string;
      token_type: string;
      expires_at: string | null;
      user: Record<string, unknown>;
    };
    expect(auth.token_type).toBe('Bearer');
    expect(Object.keys(auth.user).sort()).toEqual([
      'created_at',
      'email',
      'email_verified_at',
      'id',
      'name',
      'pending_email',
      'updated_at',
    ]);
    expect(auth.user).toMatchObject({ email, name: 'Ada Lovelace', pending_email: null });
    expect(auth.user.email_verified_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    // SESSION_TTL_SECONDS defaults to 30 days.
    const ttlDays = (Date.parse(auth.expires_at!) - Date.now()) / 86_400_000;
    expect(ttlDays).toBeGreaterThan(29.9);
    expect(ttlDays).toBeLessThanOrEqual(30);

    const me = await api('GET', '/users/me', { token: auth.access_token });
    expect(me.status).toBe(200);
    expect(me.body).toEqual(auth.user);

    const out = await api('POST', '/auth/logout', { token: auth.access_token });
    expect(out.status).toBe(204);
    expect(out.body).toBe('');
    expectError(await api('GET', '/users/me', { token: auth.access_token }), 401, 'unauthenticated');
    expectError(await api('POST', '/auth/logout', { token: auth.access_token }), 401, 'unauthenticated');
  });

  it('refuses a registration link a second time, unknown, malformed or expired', async () => {
    const ip = randomIp();
    const email = uniqueEmail('once');
    await api('POST', '/auth/register', { body: { email, password: 'correct-horse-1', name: 'Once' }, ip });
    const token = linkToken(await waitForMail(email));
    expect((await api('POST', '/auth/verify-email', { body: { token }, ip })).status).toBe(200);
    expectError(await api('POST', '/auth/verify-email', { body: { token }, ip }), 401, 'invalid_token');
    expectError(await api('POST', '/auth/verify-email', { body: { token: 'A'.repeat(43) }, ip }), 401, 'invalid_token');
    const malformed = expectError(
      await api('POST', '/auth/verify-email', { body: { token: 'short!' }, ip }),
      400,
      'invalid_input',
    );
    expect(malformed.details?.[0]?.field).toBe('body.token');
    expectError(await api('POST', '/auth/verify-email', { body: { token: '' }, ip }), 400, 'invalid_input');

    const late = uniqueEmail('late');
    await api('POST', '/auth/register', { body: { email: late, password: 'correct-horse-1', name: 'Late' }, ip });
    const lateToken = linkToken(await waitForMail(late));
    await expireLinks(late);
    expectError(await api('POST', '/auth/verify-email', { body: { token: lateToken }, ip }), 401, 'invalid_token');
  });

  it('validates registration fields with details, ignoring unknown fields', async () => {
    const ip = randomIp();
    const bad = expectError(
      await api('POST', '/auth/register', { body: { email: 'not-an-email', password: 'short', name: '   ' }, ip }),
      400,
      'invalid_input',
    );
    expect(bad.details?.map((d) => d.field).sort()).toEqual(['body.email', 'body.name', 'body.password']);
    const long = expectError(
      await api('POST', '/auth/register', {
        body: { email: `${'a'.repeat(250)}@x.io`, password: 'p'.repeat(129), name: 'n'.repeat(81) },
        ip,
      }),
      400,
      'invalid_input',
    );
    expect(long.details?.map((d) => d.field).sort()).toEqual(['body.email', 'body.name', 'body.password']);
    expectError(await api('POST', '/auth/register', { body: [], ip }), 400, 'invalid_input');
    expectError(await api('POST', '/auth/register', { raw: '{"email": "a@b.io",', ip }), 400, 'invalid_json');

    const email = uniqueEmail('extra');
    const ok = await api('POST', '/auth/register', {
      body: { email, password: 'correct-horse-1', name: 'Extra', admin: true },
      ip,
    });
    expect(ok.status).toBe(201);
  });

  it('answers a registration of a taken address like any other, mails its owner, and changes nothing', async () => {
    const owner = await signUp('owner');
    const attacker = randomIp();
    const again = await api('POST', '/auth/register', {
      body: { email: owner.email, password: 'attacker-pass-1', name: 'Mallory' },
      ip: attacker,
    });
    const fresh = await api('POST', '/auth/register', {
      body: { email: uniqueEmail('fresh'), password: 'attacker-pass-1', name: 'Mallory' },
      ip: attacker,
    });
    expect(again.status).toBe(201);
    expect(fresh.status).toBe(201);
    expect(Object.keys(again.body as object)).toEqual(Object.keys(fresh.body as object));
    expect(again.body).toEqual({ status: 'email_pending', email: owner.email });

    const notice = await waitForMail(owner.email, { match: (m) => /tried to sign up/i.test(m.subject) });
    expect(notice.links.some((l) => l.includes('token='))).toBe(false);
    expectError(
      await api('POST', '/auth/login', { body: { email: owner.email, password: 'attacker-pass-1' }, ip: attacker }),
      401,
      'invalid_credentials',
    );
    const me = await api('GET', '/users/me', { token: await logIn(owner) });
    expect(me.body).toMatchObject({ name: 'Test owner' });
  });

  it('requires a verified address for password sign-in', async () => {
    const ip = randomIp();
    const email = uniqueEmail('unverified');
    await api('POST', '/auth/register', { body: { email, password: 'correct-horse-1', name: 'Later' }, ip });
    expectError(
      await api('POST', '/auth/login', { body: { email, password: 'correct-horse-1' }, ip }),
      401,
      'email_not_verified',
    );
    expectError(
      await api('POST', '/auth/login', { body: { email, password: 'wrong-horse-1' }, ip }),
      401,
      'invalid_credentials',
    );
    const token = linkToken(await waitForMail(email));
    await api('POST', '/auth/verify-email', { body: { token }, ip });
    expect(
      (await api('POST', '/auth/login', { body: { email: email.toUpperCase(), password: 'correct-horse-1' }, ip }))
        .status,
    ).toBe(200);
  });

  it('gives the same answer for a wrong password and an unknown address', async () => {
    const account = await signUp('enum');
    const wrong = expectError(
      await api('POST', '/auth/login', { body: { email: account.email, password: 'wrong-horse-1' }, ip: account.ip }),
      401,
      'invalid_credentials',
    );
    const unknown = expectError(
      await api('POST', '/auth/login', {
        body: { email: uniqueEmail('nobody'), password: 'wrong-horse-1' },
        ip: account.ip,
      }),
      401,
      'invalid_credentials',
    );
    expect(wrong.message).toBe(unknown.message);
    const missing = expectError(
      await api('POST', '/auth/login', { body: { email: account.email }, ip: account.ip }),
      400,
      'invalid_input',
    );
    expect(missing.details?.[0]?.field).toBe('body.password');
  });

  it('ends only the current session on logout', async () => {
    const account = await signUp('two-sessions');
    const second = await logIn(account);
    expect((await api('POST', '/auth/logout', { token: account.token })).status).toBe(204);
    expectError(await api('GET', '/users/me', { token: account.token }), 401, 'unauthenticated');
    expect((await api('GET', '/users/me', { token: second })).status).toBe(200);
  });

  it('renames the user and validates the update', async () => {
    const account = await signUp('rename');
    const renamed = await api('PATCH', '/users/me', { token: account.token, body: { name: '  Grace Hopper ' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Grace Hopper', email: account.email, pending_email: null });
    const bad = expectError(
      await api('PATCH', '/users/me', { token: account.token, body: { name: '', email: 'nope' } }),
      400,
      'invalid_input',
    );
    expect(bad.details?.map((d) => d.field).sort()).toEqual(['body.email', 'body.name']);
    expect((await api('GET', '/users/me', { token: account.token })).body).toMatchObject({ name: 'Grace Hopper' });
  });

  it('changes the address only once the new mailbox confirms it', async () => {
    const account = await signUp('mover');
    const next = uniqueEmail('moved');
    const pending = await api('PATCH', '/users/me', { token: account.token, body: { email: next.toUpperCase() } });
    expect(pending.status).toBe(200);
    expect(pending.body).toMatchObject({ email: account.email, pending_email: next });
    expect(await linkLifetimeMinutes(next, 'email_change')).toBe(24 * 60);

    // A sign-in link to the old address, still unused when the move is confirmed.
    expect((await api('POST', '/auth/magic-link', { body: { email: account.email }, ip: account.ip })).status).toBe(
      200,
    );
    const oldLink = linkToken(await waitForMail(account.email, { match: (m) => m.subject === 'Your sign-in link' }));

    const token = linkToken(await waitForMail(next));
    const confirmed = await api('POST', '/auth/verify-email', { body: { token }, ip: account.ip });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({
      status: 'email_verified',
      user: { id: account.userId, email: next, pending_email: null },
    });
    expect(confirmed.body).not.toHaveProperty('access_token');
    expectError(await api('POST', '/auth/verify-email', { body: { token }, ip: account.ip }), 401, 'invalid_token');
    expectError(
      await api('POST', '/auth/verify-email', { body: { token: oldLink }, ip: account.ip }),
      401,
      'invalid_token',
    );

    expect((await api('GET', '/users/me', { token: account.token })).body).toMatchObject({ email: next });
    expect(
      (await api('POST', '/auth/login', { body: { email: next, password: account.password }, ip: account.ip })).status,
    ).toBe(200);
    expectError(
      await api('POST', '/auth/login', { body: { email: account.email, password: account.password }, ip: account.ip }),
      401,
      'invalid_credentials',
    );
  });

  it('does not reveal that a new address belongs to someone else', async () => {
    const taker = await signUp('taker');
    const taken = await signUp('taken');
    const res = await api('PATCH', '/users/me', { token: taker.token, body: { email: taken.email } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ email: taker.email, pending_email: taken.email });
    const notice = await waitForMail(taken.email, { match: (m) => /use your address/i.test(m.subject) });
    expect(notice.links.some((l) => l.includes('token='))).toBe(false);
  });
});
