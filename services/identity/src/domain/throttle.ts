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
  action === 'register' || action === 'recover' || action === 'magic_link' || action === 'email_code' || action === 'email_change';

/** One sliding-window counter: its key (under the Redis prefix) and how many attempts it allows per window. */
export interface Bucket {
  key: string;
  limit: number;
}

/**
 * The counters an attempt is checked against: per action and email from one client IP, per action and email from
 * all addresses together, and per client IP over every auth endpoint. Reset and link verification name no email,
 * so they have only IP counters.
 */
export function bucketsFor(action: ThrottledAction, subject: { email?: string; ip: string }, limits: ThrottleLimits): Bucket[] {
  const ip = { key: `throttle:ip:${subject.ip}`, limit: limits.perIp };
  if (action === 'reset_password' || action === 'verify_email' || subject.email === undefined) {
    return [{ key: `throttle:${action}:ip:${subject.ip}`, limit: limits.resetPerIp }, ip];
  }
  return [
    { key: `throttle:${action}:email-ip:${subject.email}:${subject.ip}`, limit: limits.perEmailIp },
    { key: `throttle:${action}:email:${subject.email}`, limit: limits.perEmail },
    ip,
  ];
}
