import { randomBytes } from 'node:crypto';
import { expect, type Page } from '@playwright/test';

// What the browser tests do through the API, as a second client would: accounts, workspaces, channels, messages.

export const gatewayUrl = () => process.env.WMS_GATEWAY_URL!;
/** Where a person opens the app: the cluster's public URL (`PUBLIC_URL`). */
export const appUrl = () => new URL('/app/', process.env.WMS_PUBLIC_URL).href;

export interface Account {
  email: string;
  password: string;
  token: string;
}

export async function call<T>(
  method: string,
  path: string,
  options: { token?: string; workspaceId?: string; body?: unknown } = {},
): Promise<T> {
  // Each call from an address of its own (the test cluster believes X-Forwarded-For from loopback): no throttle of
  // one address adds up across the tests.
  const address = `198.51.100.${1 + (randomBytes(1)[0]! % 250)}`;
  const headers: Record<string, string> = { 'Content-Type': 'application/json', 'X-Forwarded-For': address };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  if (options.workspaceId) headers['X-Workspace-Id'] = options.workspaceId;
  const res = await fetch(new URL(path, gatewayUrl()), {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

/** Registers, follows the mailed link, and answers the signed-in account. */
export async function signUp(tag: string): Promise<Account> {
  const email = `${tag}-${randomBytes(4).toString('hex')}@example.org`;
  const password = 'correct-horse-1';
  await call('POST', '/auth/register', { body: { email, password, name: `Web ${tag}` } });
  const token = new URL(await mailedLink(email)).searchParams.get('token');
  const auth = await call<{ access_token: string }>('POST', '/auth/verify-email', { body: { token } });
  return { email, password, token: auth.access_token };
}

/** Opens the app and signs in through its form. */
export async function signInThroughTheApp(page: Page, account: Pick<Account, 'email' | 'password'>): Promise<void> {
  await page.goto(appUrl());
  const form = page.getByRole('form', { name: 'Sign in', exact: true });
  await form.getByLabel('Email').fill(account.email);
  await form.getByLabel('Password').fill(account.password);
  await form.getByRole('button', { name: 'Sign in' }).click();
}

/** The link of the newest mail to `to`, waiting for it to arrive. */
export const mailedLink = (to: string): Promise<string> =>
  newestMail(to, 'a link', (mail) => mail.links.find((l) => new URL(l).searchParams.has('token')));

/** The six-digit code of the newest mail to `to`, waiting for it to arrive. */
export const mailedCode = (to: string): Promise<string> => newestMail(to, 'a code', (mail) => mail.codes[0]);

async function newestMail(
  to: string,
  what: string,
  find: (mail: { links: string[]; codes: string[] }) => string | undefined,
): Promise<string> {
  const url = new URL('/messages', process.env.WMS_INBOX_URL);
  url.searchParams.set('to', to);
  for (let tries = 0; tries < 200; tries++) {
    const mails = (await (await fetch(url)).json()) as Array<{ links: string[]; codes: string[] }>;
    const found = mails[0] && find(mails[0]);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no mail with ${what} reached ${to}`);
}

/** A page in a browser context of its own (the `newPage` fixture), signed in, its realtime connection live. */
export async function signedIn(
  newPage: () => Promise<Page>,
  account: Pick<Account, 'email' | 'password'>,
): Promise<Page> {
  const page = await newPage();
  await signInThroughTheApp(page, account);
  await expect(page.getByRole('status')).toHaveText('Live');
  return page;
}

/** A workspace of `owner` with `members` in it and a public channel all of them joined. */
export async function sharedChannel(
  owner: Account,
  members: Account[],
): Promise<{ workspaceId: string; channelId: string }> {
  const ws = await call<{ id: string }>('POST', '/workspaces', {
    token: owner.token,
    body: { name: 'Shared', slug: `shared-${randomBytes(4).toString('hex')}` },
  });
  const caller = { token: owner.token, workspaceId: ws.id };
  const channel = await call<{ id: string }>('POST', '/channels', { ...caller, body: { name: 'general' } });
  for (const who of members) {
    await call('POST', '/workspace/users', { ...caller, body: { email: who.email } });
    const inWorkspace = { token: who.token, workspaceId: ws.id };
    const me = await call<{ id: string }>('GET', '/workspace/actors/me', inWorkspace);
    await call('PUT', `/channels/${channel.id}/members/${me.id}`, inWorkspace);
  }
  return { workspaceId: ws.id, channelId: channel.id };
}
