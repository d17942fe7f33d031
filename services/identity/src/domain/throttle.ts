import type { FieldIssue } from '@wms/kit/errors';
import type { ThrottleBucket } from '@wms/kit/throttle';

/** Attempt limits of the auth endpoints (spec/contract.md §2), from `AUTH_RATE_LIMIT_*`. */
export interface ThrottleLimits {
  perEmailIp: number;
  perEmail: number;
  resetPerIp: number;
  perIp: number;
  windowSeconds: number;
}

/**
 * What is throttled. Mail-sending actions count every attempt (checked and counted in one step, so parallel
 * requests cannot overshoot); credential-checking actions count only failures.
 */
export type ThrottledAction =
  | 'register'
  | 'recover'
  | 'magic_link'
  | 'email_code'
  | 'email_change'
  | 'login'
  | 'verify_code'
  | 'reset_password'
  | 'verify_email';

export const countsEveryAttempt = (action: ThrottledAction): boolean =>
  action === 'register' ||
  action === 'recover' ||
  action === 'magic_link' ||
  action === 'email_code' ||
  action === 'email_change';

/** One sliding-window counter (@wms/kit/throttle) and whom it counts. */
export interface Bucket extends ThrottleBucket {
  scope: 'email-ip' | 'email' | 'action-ip' | 'ip';
}

/**
 * The counters an attempt is checked against: per action and email from one client IP, per action and email from
 * all addresses together, and per client IP over every auth endpoint. Reset and link verification name no email,
 * so they have only IP counters.
 */
export function bucketsFor(
  action: ThrottledAction,
  subject: { email?: string; ip: string },
  limits: ThrottleLimits,
): Bucket[] {
  const ip: Bucket = { key: `throttle:ip:${subject.ip}`, limit: limits.perIp, scope: 'ip' };
  if (action === 'reset_password' || action === 'verify_email' || subject.email === undefined) {
    return [{ key: `throttle:${action}:ip:${subject.ip}`, limit: limits.resetPerIp, scope: 'action-ip' }, ip];
  }
  return [
    { key: `throttle:${action}:email-ip:${subject.email}:${subject.ip}`, limit: limits.perEmailIp, scope: 'email-ip' },
    { key: `throttle:${action}:email:${subject.email}`, limit: limits.perEmail, scope: 'email' },
    ip,
  ];
}

const whom: Record<Bucket['scope'], string> = {
  'email-ip': 'for this address from this client address',
  email: 'for this address from all client addresses together',
  'action-ip': 'from this client address',
  ip: 'from this client address over all sign-in endpoints',
};

/**
 * The detail of a 429: which limit was reached and when the next attempt is allowed; without a bucket, the attempt
 * waited in vain for parallel attempts to settle.
 */
export function limitReached(
  bucket: Bucket | undefined,
  action: ThrottledAction,
  windowSeconds: number,
  retryAfterSeconds: number,
): FieldIssue {
  const field = bucket?.scope === 'email-ip' || bucket?.scope === 'email' ? 'body.email' : 'client_ip';
  if (!bucket) return { field, message: `too many attempts at once; try again in ${retryAfterSeconds} s` };
  const counted = countsEveryAttempt(action) ? 'attempts' : 'failed attempts';
  const window = windowSeconds % 60 === 0 ? `${windowSeconds / 60} minutes` : `${windowSeconds} s`;
  return {
    field,
    message: `at most ${bucket.limit} ${counted} ${whom[bucket.scope]} in ${window}; the next is allowed in ${retryAfterSeconds} s`,
  };
}
