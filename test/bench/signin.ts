import { type Account, eachLimited, registerAccount } from './api.ts';
import { Failures, type Load, type Measurement, summarize } from './measure.ts';

const SIGNIN_TIMEOUT_MS = 10_000;

/** A sign-in run: a Measurement whose failures also say how many were refused for the attempt limits. */
export interface SignInMeasurement extends Measurement {
  rateLimited: number;
}

/**
 * One account per concurrent loop, each registered from a client address of its own (TEST-NET, sent as
 * X-Forwarded-For): the contract's limits are per email and address, per email, and per address over every auth
 * endpoint (registrations count in full), and an attempt in flight holds a place in each until it settles. One
 * loop per account and address keeps every bucket at one attempt in flight at most, so a refusal here means the
 * limits turned away a right password, not that the bench ran into them.
 */
export async function signInAccounts(gatewayUrl: string, inboxUrl: string, count: number): Promise<Account[]> {
  const accounts: Account[] = [];
  await eachLimited(
    Array.from({ length: count }, (_, i) => i),
    4,
    async (i) => {
      accounts.push(await registerAccount(gatewayUrl, inboxUrl, `198.51.100.${10 + i}`));
    },
  );
  return accounts;
}

/** POST /auth/login in a closed loop per account, with the right password, until the time is up. */
export async function measureSignIn(
  name: string,
  load: Pick<Load, 'seconds'>,
  gatewayUrl: string,
  accounts: readonly Account[],
): Promise<SignInMeasurement> {
  const url = new URL('/auth/login', gatewayUrl);
  const latenciesMs: number[] = [];
  const failures = new Failures();
  const started = performance.now();
  const end = started + load.seconds * 1000;
  await Promise.all(
    accounts.map(async ({ email, password, clientIp }) => {
      const headers = {
        'content-type': 'application/json',
        ...(clientIp === undefined ? {} : { 'x-forwarded-for': clientIp }),
      };
      const body = JSON.stringify({ email, password });
      while (performance.now() < end) {
        const sent = performance.now();
        try {
          const res = await fetch(url, {
            method: 'POST',
            headers,
            body,
            signal: AbortSignal.timeout(SIGNIN_TIMEOUT_MS),
          });
          await res.arrayBuffer();
          if (res.status === 200) latenciesMs.push(performance.now() - sent);
          else failures.add(`HTTP ${res.status}`);
        } catch (err) {
          failures.add(err instanceof Error ? err.message : String(err));
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return {
    ...summarize(name, seconds, latenciesMs, failures.total, failures.toString()),
    rateLimited: failures.count('HTTP 429'),
  };
}
