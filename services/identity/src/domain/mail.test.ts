import { describe, expect, it } from 'vitest';
import { links } from './mail.ts';

describe('links', () => {
  it('sends reset tokens to the reset page and every other kind to the verification page', () => {
    expect(links.token('https://app.test', 'reset', 'abc')).toBe('https://app.test/reset-password?token=abc');
    for (const kind of ['register', 'magic', 'email_change'] as const) {
      expect(links.token('https://app.test', kind, 'abc'), kind).toBe('https://app.test/verify-email?token=abc');
    }
    expect(links.signIn('https://app.test')).toBe('https://app.test/sign-in');
  });
});
