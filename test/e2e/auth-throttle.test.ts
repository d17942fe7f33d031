import { describe, expect, it } from 'vitest';
import { expectError, signUp } from './support/accounts.ts';
import { api, randomIp, uniqueEmail } from './support/http.ts';

// The test cluster runs with the contract's default limits: 10 per email and IP, 100 per email, 10 resets per IP,
// 100 per IP, in 15-minute windows. Each test uses its own client addresses (X-Forwarded-For, TRUST_PROXY=loopback).

function expectLimited(res: Awaited<ReturnType<typeof api>>) {
  expectError(res, 429, 'rate_limited');
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(900);
}

describe('auth throttling', () => {
  it('locks password sign-in for an email from one address after 10 failures, even with the right password', async () => {
    const account = await signUp('login-limit');
    const attacker = randomIp();
    for (let i = 0; i < 10; i++) {
      expectError(
        await api('POST', '/auth/login', {
          body: { email: account.email, password: `wrong-guess-${i}` },
          ip: attacker,
        }),
        401,
        'invalid_credentials',
      );
    }
    const limited = await api('POST', '/auth/login', {
      body: { email: account.email, password: account.password },
      ip: attacker,
    });
    expectLimited(limited);
    // The answer says which limit was reached and when it frees.
    const seconds = limited.headers.get('retry-after');
    expect(expectError(limited, 429, 'rate_limited').details).toEqual([
      {
        field: 'body.email',
        message: `at most 10 failed attempts for this address from this client address in 15 minutes; the next is allowed in ${seconds} s`,
      },
    ]);
    // The owner, from elsewhere, is not locked out.
    expect(
      (await api('POST', '/auth/login', { body: { email: account.email, password: account.password }, ip: randomIp() }))
        .status,
    ).toBe(200);
  });

  it('admits no more than 10 of a burst of parallel wrong passwords', async () => {
    const account = await signUp('login-burst');
    const attacker = randomIp();
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        api('POST', '/auth/login', { body: { email: account.email, password: `burst-guess-${i}` }, ip: attacker }),
      ),
    );
    expect(answers.filter((res) => res.status === 401)).toHaveLength(10);
    answers.filter((res) => res.status !== 401).forEach(expectLimited);
    // The budget is spent on real failures, so the right password is refused too.
    expectLimited(
      await api('POST', '/auth/login', { body: { email: account.email, password: account.password }, ip: attacker }),
    );
  });

  it('does not count successful sign-ins', async () => {
    const account = await signUp('login-ok');
    for (let i = 0; i < 12; i++) {
      expect(
        (
          await api('POST', '/auth/login', {
            body: { email: account.email, password: account.password },
            ip: account.ip,
          })
        ).status,
      ).toBe(200);
    }
  });

  it('never refuses a right password while failures stay under the limit, however many sign-ins run in parallel', async () => {
    const account = await signUp('login-parallel-ok');
    const client = randomIp();
    // Five typos first: half the budget is spent, so the eight parallel sign-ins below often fill the rest in flight.
    for (let i = 0; i < 5; i++) {
      expectError(
        await api('POST', '/auth/login', { body: { email: account.email, password: `typo-${i}` }, ip: client }),
        401,
        'invalid_credentials',
      );
    }
    const statuses: number[] = [];
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let i = 0; i < 60; i++) {
          const res = await api('POST', '/auth/login', {
            body: { email: account.email, password: account.password },
            ip: client,
          });
          statuses.push(res.status);
        }
      }),
    );
    expect(statuses).toHaveLength(480);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
  }, 180_000);

  it('lets right passwords through a parallel mix with wrong ones, and counts only the wrong ones', async () => {
    const account = await signUp('login-mixed');
    const client = randomIp();
    const login = (password: string) =>
      api('POST', '/auth/login', { body: { email: account.email, password }, ip: client });
    const mixed = await Promise.all(
      Array.from({ length: 16 }, (_, i) => login(i % 2 === 0 ? account.password : `mixed-guess-${i}`)),
    );
    expect(mixed.filter((_, i) => i % 2 === 0).map((res) => res.status)).toEqual(Array(8).fill(200));
    mixed.filter((_, i) => i % 2 === 1).forEach((res) => expectError(res, 401, 'invalid_credentials'));
    // Eight failures so far: of four more parallel guesses two are checked, two refused.
    const more = await Promise.all(Array.from({ length: 4 }, (_, i) => login(`late-guess-${i}`)));
    expect(more.filter((res) => res.status === 401)).toHaveLength(2);
    more.filter((res) => res.status !== 401).forEach(expectLimited);
    expectLimited(await login(account.password));
  });

  it('limits registrations of one address from one client to 10', async () => {
    const ip = randomIp();
    const email = uniqueEmail('register-limit');
    for (let i = 0; i < 10; i++) {
      expect(
        (await api('POST', '/auth/register', { body: { email, password: 'correct-horse-1', name: 'R' }, ip })).status,
      ).toBe(201);
    }
    expectLimited(await api('POST', '/auth/register', { body: { email, password: 'correct-horse-1', name: 'R' }, ip }));
    expect(
      (await api('POST', '/auth/register', { body: { email, password: 'correct-horse-1', name: 'R' }, ip: randomIp() }))
        .status,
    ).toBe(201);
  });

  it('limits recovery requests for one address from one client to 10', async () => {
    const ip = randomIp();
    const email = uniqueEmail('recover-limit');
    for (let i = 0; i < 10; i++) expect((await api('POST', '/auth/recover', { body: { email }, ip })).status).toBe(200);
    expectLimited(await api('POST', '/auth/recover', { body: { email }, ip }));
  });

  it('limits failed password resets per client to 10', async () => {
    const ip = randomIp();
    for (let i = 0; i < 10; i++) {
      const token = `${'C'.repeat(40)}${String(i).padStart(3, '0')}`;
      expectError(
        await api('POST', '/auth/reset-password', { body: { token, password: 'long-enough-1' }, ip }),
        401,
        'invalid_token',
      );
    }
    expectLimited(
      await api('POST', '/auth/reset-password', { body: { token: 'D'.repeat(43), password: 'long-enough-1' }, ip }),
    );
  });

  it('limits one client to 100 attempts over all auth endpoints', async () => {
    const ip = randomIp();
    for (let i = 0; i < 100; i++) {
      const res = await api('POST', '/auth/recover', { body: { email: uniqueEmail(`spray${i}`) }, ip });
      expect(res.status).toBe(200);
    }
    expectLimited(
      await api('POST', '/auth/login', { body: { email: uniqueEmail('after-spray'), password: 'whatever-1' }, ip }),
    );
    expectLimited(
      await api('POST', '/auth/register', {
        body: { email: uniqueEmail('after-spray'), password: 'whatever-1', name: 'x' },
        ip,
      }),
    );
  });

  it('limits failed sign-ins for one address from all clients together to 100', async () => {
    const account = await signUp('botnet-target');
    for (let i = 0; i < 100; i++) {
      expectError(
        await api('POST', '/auth/login', { body: { email: account.email, password: `botnet-${i}` }, ip: randomIp() }),
        401,
        'invalid_credentials',
      );
    }
    expectLimited(
      await api('POST', '/auth/login', { body: { email: account.email, password: account.password }, ip: randomIp() }),
    );
  });
});
