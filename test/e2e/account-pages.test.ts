import { describe, expect, it } from 'vitest';
import { expectError, signUp } from './support/accounts.ts';
import { api, gatewayUrl, randomIp, uniqueEmail } from './support/http.ts';
import { waitForMail } from './support/mail.ts';

// The pages the mailed links open, used as a browser without JavaScript would: fetch the page, fill in its form,
// submit it, and see the account changed through the API.

interface Form {
  action: string;
  fields: Record<string, string>;
}

const unescape = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The forms of a page, with their hidden fields filled in as a browser would send them. */
function formsOf(html: string): Form[] {
  return [...html.matchAll(/<form method="post" action="([^"]+)">([\s\S]*?)<\/form>/g)].map(([, action, inner]) => ({
    action: action!,
    fields: Object.fromEntries(
      [...inner!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map(([, name, value]) => [
        name!,
        unescape(value!),
      ]),
    ),
  }));
}

async function open(url: string): Promise<{ status: number; html: string; headers: Headers }> {
  const res = await fetch(url, { signal: AbortSignal.timeout(15_000) });
  return { status: res.status, html: await res.text(), headers: res.headers };
}

async function submit(pageUrl: string, form: Form, filled: Record<string, string> = {}, ip = randomIp()) {
  const res = await fetch(new URL(form.action, pageUrl), {
    method: 'POST',
    body: new URLSearchParams({ ...form.fields, ...filled }),
    headers: { 'x-forwarded-for': ip },
    signal: AbortSignal.timeout(15_000),
  });
  return { status: res.status, html: await res.text() };
}

const linkIn = (mail: { links: string[] }, path: string) => {
  const link = mail.links.find((l) => new URL(l).pathname === path);
  if (!link) throw new Error(`no ${path} link in ${mail.links.join(' ')}`);
  return link;
};
const accessTokenIn = (html: string) => /<pre><code>([^<]+)<\/code><\/pre>/.exec(html)?.[1];

describe('account pages', () => {
  it('confirms a new address from the mailed link (a form, so a prefetch uses nothing), signing in', async () => {
    const email = uniqueEmail('page-verify');
    expect(
      (await api('POST', '/auth/register', { body: { email, password: 'correct-horse-1', name: 'Page' } })).status,
    ).toBe(201);
    const link = linkIn(await waitForMail(email), '/verify-email');

    const page = await open(link);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    // Opening the page twice changes nothing: the link still works.
    expect((await open(link)).status).toBe(200);
    const [form] = formsOf(page.html);
    expect(form!.fields.token).toBe(new URL(link).searchParams.get('token'));

    const done = await submit(link, form!);
    expect(done.status, done.html).toBe(200);
    expect(done.html).toContain(`You are signed in as ${email}.`);
    const token = accessTokenIn(done.html)!;
    expect(
      ((await api('GET', '/users/me', { token })).body as { email_verified_at: string | null }).email_verified_at,
    ).not.toBeNull();
    expect((await api('POST', '/auth/login', { body: { email, password: 'correct-horse-1' } })).status).toBe(200);

    // The link works once.
    const again = await submit(link, form!);
    expect(again.status).toBe(401);
    expect(again.html).toContain('That did not work');
  });

  it('sets a new password from the mailed reset link', async () => {
    const account = await signUp('page-reset');
    expect((await api('POST', '/auth/recover', { body: { email: account.email } })).status).toBe(200);
    const link = linkIn(
      await waitForMail(account.email, { match: (m) => m.links.some((l) => l.includes('/reset-password')) }),
      '/reset-password',
    );
    const page = await open(link);
    expect(page.status).toBe(200);
    expect(page.html).toContain('autocomplete="new-password"');

    const short = await submit(link, formsOf(page.html)[0]!, { password: 'short' });
    expect(short.status).toBe(400);
    const done = await submit(link, formsOf(page.html)[0]!, { password: 'a-new-horse-2' });
    expect(done.status, done.html).toBe(200);
    expect(done.html).toContain('Password changed');
    expectError(
      await api('POST', '/auth/login', { body: { email: account.email, password: account.password }, ip: randomIp() }),
      401,
      'invalid_credentials',
    );
    expect(
      (await api('POST', '/auth/login', { body: { email: account.email, password: 'a-new-horse-2' }, ip: randomIp() }))
        .status,
    ).toBe(200);
  });

  it('signs in with a password, and mails sign-in and reset links, from the page the already-registered mail links to', async () => {
    const account = await signUp('page-sign-in');
    expect(
      (
        await api('POST', '/auth/register', {
          body: { email: account.email, password: 'another-horse-3', name: 'Again' },
        })
      ).status,
    ).toBe(201);
    const link = linkIn(
      await waitForMail(account.email, { match: (m) => m.subject.startsWith('Someone tried') }),
      '/sign-in',
    );

    const page = await open(link);
    expect(page.status).toBe(200);
    const [passwordForm, linkForm] = formsOf(page.html);
    const wrong = await submit(link, passwordForm!, { email: account.email, password: 'not-it' });
    expect(wrong.status).toBe(401);
    const done = await submit(link, passwordForm!, { email: account.email, password: account.password });
    expect(done.status, done.html).toBe(200);
    expect((await api('GET', '/users/me', { token: accessTokenIn(done.html)! })).status).toBe(200);

    const after = new Date();
    const mailed = await submit(link, linkForm!, { email: account.email, send: 'link' });
    expect(mailed.status).toBe(200);
    expect(mailed.html).toContain('Check your inbox');
    expect(
      (await waitForMail(account.email, { after, match: (m) => m.subject === 'Your sign-in link' })).links[0],
    ).toContain('/verify-email?token=');
  });

  it('answers a link without a valid token with a 400 page, and the pages stay out of the API', async () => {
    const page = await open(new URL('/verify-email?token=nope', gatewayUrl()).href);
    expect(page.status).toBe(400);
    expect(page.html).toContain('Please check the form.');
    expectError(await api('GET', '/verify-email/extra'), 404, 'not_found');
  });
});
