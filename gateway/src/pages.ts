import { DomainError } from '@wms/kit/errors';
import type { Logger } from '@wms/kit/logger';
import express, { type Request, type Response, Router } from 'express';
import { z } from 'zod';
import type { Clients } from './clients.ts';
import { httpStatusOf } from './middleware/errors.ts';
import * as s from './schemas.ts';

/**
 * Minimal pages at the paths mailed links point to when `PUBLIC_URL` is the gateway itself (`/verify-email`,
 * `/reset-password`, `/sign-in`, `/invite`). Plain HTML forms, no script, that complete the action through the identity
 * and workspace services. A link opened in a browser only shows a form: a mail scanner that fetches it does not use
 * up the single-use token.
 */
export function accountPages({ identity, workspace }: Clients, log: Logger): Router {
  const router = Router();
  const form = express.urlencoded({ extended: false, limit: '16kb' });
  const handle = pageHandler(log);
  router.get('/verify-email', handle(verifyEmailForm));
  router.post('/verify-email', form, handle(verifyEmail(identity)));
  router.get('/reset-password', handle(resetPasswordForm));
  router.post('/reset-password', form, handle(resetPassword(identity)));
  router.get('/sign-in', handle(signInForm));
  router.post('/sign-in', form, handle(signIn(identity)));
  router.post('/sign-in/link', form, handle(mailLink(identity)));
  router.get('/invite', handle(invitationForms(workspace)));
  router.post('/invite', form, handle(registerInvited(workspace)));
  router.post('/invite/accept', form, handle(signInAndAccept(identity, workspace)));
  return router;
}

type Identity = Clients['identity'];
type Workspace = Clients['workspace'];
type PageWork = (req: Request) => Promise<Page>;

/** Sends the page `work` makes; a domain error is its status's page, anything else a logged 500 page. */
function pageHandler(log: Logger) {
  return (work: PageWork) => async (req: Request, res: Response) => {
    let page: Page;
    try {
      page = await work(req);
    } catch (err) {
      if (err instanceof DomainError)
        page = { status: httpStatusOf(err), title: 'That did not work', body: [p(err.message), ...detailsOf(err)] };
      else {
        log.error({ err }, 'page failed');
        page = {
          status: 500,
          title: 'Something went wrong',
          body: [p('Something went wrong on our side; try again in a moment.')],
        };
      }
    }
    send(res, page);
  };
}

const verifyEmailForm: PageWork = async (req) => {
  const { token } = parse(z.object({ token: linkToken }), req.query);
  return {
    title: 'Confirm your email address',
    body: [
      p('Confirm the address this link was sent to.'),
      `<form method="post" action="/verify-email">${hidden('token', token)}<button type="submit">Confirm</button></form>`,
    ],
  };
};

const verifyEmail =
  (identity: Identity): PageWork =>
  async (req) => {
    const { token } = parse(z.object({ token: linkToken }), req.body);
    const verified = await identity.VerifyEmail({ token }, req.ctx);
    if (!verified.auth)
      return {
        title: 'Address confirmed',
        body: [p(`${verified.user?.email ?? 'Your new address'} is now the address of your account.`)],
      };
    return {
      title: 'Address confirmed',
      body: [p(`You are signed in as ${verified.auth.user?.email ?? ''}.`), ...accessToken(verified.auth.access_token)],
    };
  };

const resetPasswordForm: PageWork = async (req) => {
  const { token } = parse(z.object({ token: linkToken }), req.query);
  return {
    title: 'Choose a new password',
    body: [
      `<form method="post" action="/reset-password">${hidden('token', token)}` +
        '<label for="password">New password (8 to 128 characters)</label>' +
        '<input id="password" name="password" type="password" autocomplete="new-password" minlength="8" maxlength="128" required>' +
        '<button type="submit">Set the password</button></form>',
    ],
  };
};

const resetPassword =
  (identity: Identity): PageWork =>
  async (req) => {
    const body = parse(z.object({ token: linkToken, password: s.password }), req.body);
    await identity.ResetPassword(body, req.ctx);
    return {
      title: 'Password changed',
      body: [p('Every session of your account was signed out.'), '<p><a href="/sign-in">Sign in</a></p>'],
    };
  };

const signInForm: PageWork = async () => ({
  title: 'Sign in',
  body: [
    '<form method="post" action="/sign-in">' +
      '<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="email" required>' +
      '<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>' +
      '<button type="submit">Sign in</button></form>',
    '<h2>No password at hand?</h2>',
    '<form method="post" action="/sign-in/link">' +
      '<label for="link-email">Email</label><input id="link-email" name="email" type="email" autocomplete="email" required>' +
      '<button type="submit" name="send" value="link">Email me a sign-in link</button>' +
      '<button type="submit" name="send" value="reset">Email me a password reset link</button></form>',
  ],
});

const signIn =
  (identity: Identity): PageWork =>
  async (req) => {
    const body = parse(z.object({ email: s.email, password: s.loginPassword }), req.body);
    const signedIn = await identity.Login(body, req.ctx);
    return {
      title: 'Signed in',
      body: [p(`You are signed in as ${signedIn.user?.email ?? ''}.`), ...accessToken(signedIn.access_token)],
    };
  };

const mailLink =
  (identity: Identity): PageWork =>
  async (req) => {
    const { email, send: what } = parse(
      z.object({ email: s.email, send: z.enum(['link', 'reset']).default('link') }),
      req.body,
    );
    const mailed =
      what === 'reset'
        ? await identity.RecoverAccount({ email }, req.ctx)
        : await identity.RequestMagicLink({ email }, req.ctx);
    return {
      title: 'Check your inbox',
      body: [
        p(
          `If ${mailed.email} has an account, a ${what === 'reset' ? 'password reset' : 'sign-in'} link is on its way to it.`,
        ),
      ],
    };
  };

/**
 * An invitation's link (contract §12): the workspace and who invited, a form for a newcomer to register, and one for
 * someone with an account to sign in and accept. Both are shown alike: the page tells nothing about the address.
 */
const invitationForms =
  (workspace: Workspace): PageWork =>
  async (req) => {
    const { token } = parse(z.object({ token: linkToken }), req.query);
    const { invitation, workspace: joined, invited_by } = await workspace.GetInvitationByToken({ token }, req.ctx);
    return {
      title: `Join ${joined?.name ?? ''}`,
      body: [
        p(
          `${invited_by?.display_name ?? ''} invited ${invitation?.email ?? ''} to the workspace ${joined?.name ?? ''}.`,
        ),
        '<h2>New to wms?</h2>',
        `<form method="post" action="/invite">${hidden('token', token)}` +
          '<label for="name">Your name</label><input id="name" name="name" autocomplete="name" maxlength="80" required>' +
          '<label for="password">Choose a password (8 to 128 characters)</label>' +
          '<input id="password" name="password" type="password" autocomplete="new-password" minlength="8" maxlength="128" required>' +
          '<button type="submit">Create my account and join</button></form>',
        '<h2>Have an account?</h2>',
        `<form method="post" action="/invite/accept">${hidden('token', token)}` +
          '<label for="current-password">Your password</label>' +
          '<input id="current-password" name="password" type="password" autocomplete="current-password" required>' +
          '<button type="submit">Sign in and join</button></form>',
      ],
    };
  };

const joined = (workspaceName: string, email: string, token: string): Page => ({
  title: `You joined ${workspaceName}`,
  body: [p(`You are signed in as ${email}.`), ...accessToken(token)],
});

const registerInvited =
  (workspace: Workspace): PageWork =>
  async (req) => {
    const body = parse(z.object({ token: linkToken, name: s.name, password: s.password }), req.body);
    const { workspace: joining } = await workspace.GetInvitationByToken({ token: body.token }, req.ctx);
    const signedIn = await workspace.RegisterFromInvitation(body, req.ctx);
    return joined(joining?.name ?? '', signedIn.user?.email ?? '', signedIn.access_token);
  };

const signInAndAccept =
  (identity: Identity, workspace: Workspace): PageWork =>
  async (req) => {
    const { token, password } = parse(z.object({ token: linkToken, password: s.loginPassword }), req.body);
    const found = await workspace.GetInvitationByToken({ token }, req.ctx);
    const signedIn = await identity.Login({ email: found.invitation?.email ?? '', password }, req.ctx);
    await workspace.AcceptInvitation(
      { invitation_id: found.invitation?.id ?? '' },
      { ...req.ctx, userId: signedIn.user?.id },
    );
    return joined(found.workspace?.name ?? '', signedIn.user?.email ?? '', signedIn.access_token);
  };

// A page for a mailed link is shown without asking the identity service, so the link's token is checked here: a
// malformed one gets the 400 page, not a form that cannot work.
const linkToken = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'must be a token from a mailed link');

interface Page {
  status?: number;
  title: string;
  body: string[];
}

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const p = (text: string) => `<p>${escape(text)}</p>`;
const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${escape(value)}">`;
/**
 * The session a page signed in: a link that hands it to the web client (in the fragment, which no server sees; the app
 * takes it out of the address at once), and the token itself for API requests.
 */
const accessToken = (value: string) => [
  `<p><a href="/app/#session=${escape(encodeURIComponent(value))}">Open the web app</a></p>`,
  p('Your access token, for API requests (Authorization: Bearer …):'),
  `<pre><code>${escape(value)}</code></pre>`,
];
const detailsOf = (err: DomainError) =>
  err.details?.length
    ? [`<ul>${err.details.map((d) => `<li>${escape(`${d.field}: ${d.message}`)}</li>`).join('')}</ul>`]
    : [];

/** Parses a submitted form; problems become the page's 400 with one line per field. */
function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  throw new DomainError('invalid_argument', 'invalid_input', 'Please check the form.', {
    details: result.error.issues.map((issue) => ({ field: issue.path.join('.'), message: issue.message })),
  });
}

function send(res: Response, { status = 200, title, body }: Page): void {
  // The token of a mailed link is in this page's address: it must not travel on in a Referer, nor be cached.
  res.set({
    'Content-Security-Policy':
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  res
    .status(status)
    .type('html')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
        `<title>${escape(title)} · wms</title><style>${STYLE}</style></head><body><main><h1>${escape(title)}</h1>${body.join('')}</main></body></html>`,
    );
}

const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1a1a1a;background:#f6f6f4}main{max-width:28rem;margin:3rem auto;padding:0 1rem}' +
  'label{display:block;margin-top:1rem;font-weight:600}input{display:block;width:100%;box-sizing:border-box;padding:.5rem;font:inherit;border:1px solid #767676;border-radius:4px}' +
  'button{margin:1rem .5rem 0 0;padding:.5rem 1rem;font:inherit;border:0;border-radius:4px;background:#1f4fbf;color:#fff;cursor:pointer}' +
  'button:focus-visible,input:focus-visible,a:focus-visible{outline:3px solid #f5a623;outline-offset:2px}pre{white-space:pre-wrap;word-break:break-all;background:#fff;padding:.5rem;border:1px solid #ddd}';
