import { describe, expect, it } from 'vitest';
import { bucketsFor, countsEveryAttempt, type ThrottleLimits } from './throttle.ts';

const limits: ThrottleLimits = { perEmailIp: 10, perEmail: 100, resetPerIp: 10, perIp: 100, windowSeconds: 900 };

describe('auth throttling policy', () => {
  it('checks sign-in attempts per email and IP, per email, and per IP', () => {
    expect(bucketsFor('login', { email: 'a@b.io', ip: '10.0.0.1' }, limits)).toEqual([
      { key: 'throttle:login:email-ip:a@b.io:10.0.0.1', limit: 10 },
      { key: 'throttle:login:email:a@b.io', limit: 100 },
      { key: 'throttle:ip:10.0.0.1', limit: 100 },
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
      { key: 'throttle:reset_password:ip:10.0.0.1', limit: 10 },
      { key: 'throttle:ip:10.0.0.1', limit: 100 },
    ]);
  });

  it('counts every attempt of mail-sending actions and only failures of credential checks', () => {
    expect(['register', 'recover', 'magic_link', 'email_code', 'email_change'].every((a) => countsEveryAttempt(a as never))).toBe(true);
    expect(['login', 'verify_code', 'reset_password', 'verify_email'].some((a) => countsEveryAttempt(a as never))).toBe(false);
  });
});
