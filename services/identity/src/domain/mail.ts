import type { TokenKind } from './secrets.ts';

/** A mail ready to send; bodies hold links or codes and are never logged. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
}

const lines = (...parts: string[]) => parts.join('\n');

const linkPaths: Record<TokenKind, string> = {
  register: '/verify-email',
  magic: '/verify-email',
  email_change: '/verify-email',
  reset: '/reset-password',
};

/** The links mails carry, on the app's public address. */
export const links = {
  token: (publicUrl: string, kind: TokenKind, token: string): string => `${publicUrl}${linkPaths[kind]}?token=${token}`,
  signIn: (publicUrl: string): string => `${publicUrl}/sign-in`,
};

export const mails = {
  verifyRegistration: (to: string, link: string): Mail => ({
    to,
    subject: 'Confirm your email address',
    text: lines('Welcome to wms.', '', 'Confirm your address and sign in (the link works once, for 24 hours):', link),
  }),
  alreadyRegistered: (to: string, signInLink: string): Mail => ({
    to,
    subject: 'Someone tried to sign up with your address',
    text: lines(
      'Someone tried to create a wms account with this address, which already has one. Nothing was changed.',
      '',
      'If it was you, sign in, or reset your password from the sign-in page:',
      signInLink,
    ),
  }),
  magicLink: (to: string, link: string): Mail => ({
    to,
    subject: 'Your sign-in link',
    text: lines('Sign in to wms with this link (it works once, for 15 minutes):', link),
  }),
  resetPassword: (to: string, link: string): Mail => ({
    to,
    subject: 'Reset your password',
    text: lines(
      'Choose a new password with this link (it works once, for 1 hour):',
      link,
      '',
      'If you did not ask for this, ignore this mail.',
    ),
  }),
  emailCode: (to: string, code: string): Mail => ({
    to,
    subject: `Your wms sign-in code: ${code}`,
    text: lines(`Your sign-in code is ${code}.`, '', 'It works once, for 10 minutes.'),
  }),
  confirmEmailChange: (to: string, link: string): Mail => ({
    to,
    subject: 'Confirm your new email address',
    text: lines('Confirm this address for your wms account (the link works once, for 24 hours):', link),
  }),
  emailChangeTaken: (to: string): Mail => ({
    to,
    subject: 'Someone tried to use your address',
    text: lines(
      'Someone asked to move another wms account to this address, which already has an account. Nothing was changed.',
    ),
  }),
};
