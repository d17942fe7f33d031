import { describe, expect, it } from 'vitest';
import { bucketsFor, countsEveryAttempt, limitReached, type ThrottleLimits } from './throttle.ts';

const limits: ThrottleLimits = { perEmailIp: 10, perEmail: 100, resetPerIp: 10, perIp: 100, windowSeconds: 900 };

describe('auth throttling policy', () => {
  it('checks sign-in attempts per email and IP, per email, and per IP', () => {
    expect(bucketsFor('login', { email: 'a@b.io', ip: '10.0.0.1' }, limits)).toEqual([
      { key: 'throttle:login:email-ip:a@b.io:10.0.0.1', limit: 10, scope: 'email-ip' },
      { key: 'throttle:login:email:a@b.io', limit: 100, scope: 'email' },
      { key: 'throttle:ip:10.0.0.1', limit: 100, scope: 'ip' },
    ]);
  });

  it('keeps separate per-email counters for each action but one per-IP counter for all', () => {
    const register = bucketsFor('register', { email: 'a@b.io', ip: '1.1.1.1' }, limits);
    const recover = bucketsFor('recover', { email: 'a@b.io', ip: '1.1.1.1' }, limits);
    expect(register[0]!.key).not.toBe(recover[0]!.key);
    expect(register[1]!.key).not.toBe(recover[1]!.key);
    expect(register[2]!.key).toBe(recover[2]!.key);
  });

  it('checks reset-password per IP only, with its own limit, and the shared IP counter', () => {
    expect(bucketsFor('reset_password', { ip: '10.0.0.1' }, limits)).toEqual([
      { key: 'throttle:reset_password:ip:10.0.0.1', limit: 10, scope: 'action-ip' },
      { key: 'throttle:ip:10.0.0.1', limit: 100, scope: 'ip' },
    ]);
  });

  it('counts every attempt of mail-sending actions and only failures of credential checks', () => {
    expect(
      ['register', 'recover', 'magic_link', 'email_code', 'email_change'].every((a) => countsEveryAttempt(a as never)),
    ).toBe(true);
    expect(['login', 'verify_code', 'reset_password', 'verify_email'].some((a) => countsEveryAttempt(a as never))).toBe(
      false,
    );
  });

  it('names the limit a 429 reached and when it frees', () => {
    const [emailIp, , ip] = bucketsFor('login', { email: 'a@b.io', ip: '10.0.0.1' }, limits);
    expect(limitReached(emailIp, 'login', 900, 242)).toEqual({
      field: 'body.email',
      message:
        'at most 10 failed attempts for this address from this client address in 15 minutes; the next is allowed in 242 s',
    });
    expect(limitReached(ip, 'register', 900, 5)).toEqual({
      field: 'client_ip',
      message:
        'at most 100 attempts from this client address over all sign-in endpoints in 15 minutes; the next is allowed in 5 s',
    });
    expect(limitReached(undefined, 'login', 900, 1).message).toBe('too many attempts at once; try again in 1 s');
  });
});
