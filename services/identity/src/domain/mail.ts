import type { TokenKind } from './secrets.ts';

/** A mail ready to send; bodies hold links or codes and are never logged. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
}

const lines = (...parts: string[]) => parts.join('\n');
/** A name people chose (a workspace's, a profile's), on one line: control characters, line breaks included, are spaces. */
// eslint-disable-next-line no-control-regex -- the control characters are what is replaced
const oneLine = (text: string) => text.replace(/[\u0000-\u001f\u007f]+/g, ' ');

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
  /** An invitation's page (contract §12); the workspace service keeps the token's hash. */
  invitation: (publicUrl: string, token: string): string => `${publicUrl}/invite?token=${token}`,
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
  invitation: (to: string, invite: { workspaceName: string; inviterName: string; link: string }): Mail => {
    const [inviter, workspace] = [oneLine(invite.inviterName), oneLine(invite.workspaceName)];
    return {
      to,
      subject: `${inviter} invited you to ${workspace} on wms`,
      text: lines(
        `${inviter} invited you to join the workspace ${workspace} on wms.`,
        '',
        'Join with this link (it works for 7 days; if you have no account yet, it makes one):',
        invite.link,
        '',
        'If you do not know them, ignore this mail.',
      ),
    };
  },
  emailChangeTaken: (to: string): Mail => ({
    to,
    subject: 'Someone tried to use your address',
    text: lines(
      'Someone asked to move another wms account to this address, which already has an account. Nothing was changed.',
    ),
  }),
};
