import { describe, expect, it } from 'vitest';
import { links, mails } from './mail.ts';

describe('links', () => {
  it('sends reset tokens to the reset page and every other kind to the verification page', () => {
    expect(links.token('https://app.test', 'reset', 'abc')).toBe('https://app.test/reset-password?token=abc');
    for (const kind of ['register', 'magic', 'email_change'] as const) {
      expect(links.token('https://app.test', kind, 'abc'), kind).toBe('https://app.test/verify-email?token=abc');
    }
    expect(links.signIn('https://app.test')).toBe('https://app.test/sign-in');
    expect(links.invitation('https://app.test', 'abc')).toBe('https://app.test/invite?token=abc');
  });
});

describe('the invitation mail', () => {
  it('names the workspace and the inviter in its subject and body, and carries the link', () => {
    const mail = mails.invitation('grace@example.org', {
      workspaceName: 'Acme',
      inviterName: 'Ada',
      link: 'https://app.test/invite?token=abc',
    });
    expect(mail.to).toBe('grace@example.org');
    expect(mail.subject).toBe('Ada invited you to Acme on wms');
    expect(mail.text).toContain('Ada invited you to join the workspace Acme on wms.');
    expect(mail.text.split('\n')).toContain('https://app.test/invite?token=abc');
  });

  it('keeps names on one line, so that no name can add a header or a line of its own', () => {
    const mail = mails.invitation('grace@example.org', {
      workspaceName: 'Acme\r\nBcc: eve@example.org',
      inviterName: 'Ada\n\nClick here',
      link: 'https://app.test/invite?token=abc',
    });
    expect(mail.subject).toBe('Ada Click here invited you to Acme Bcc: eve@example.org on wms');
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.text.split('\n')[0]).toBe(
      'Ada Click here invited you to join the workspace Acme Bcc: eve@example.org on wms.',
    );
  });
});
