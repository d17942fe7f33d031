import { randomBytes } from 'node:crypto';

/** A signed-in account acting inside one workspace, as the benchmark's requests send it. */
export interface Session {
  gatewayUrl: string;
  token: string;
  workspaceId: string;
}

/** The headers of every request made inside the workspace. */
export const sessionHeaders = ({ token, workspaceId }: Session): Record<string, string> => ({
  authorization: `Bearer ${token}`,
  'x-workspace-id': workspaceId,
  'content-type': 'application/json',
});

/** One JSON request to the gateway; throws unless the answer has the expected status. */
export async function call<T>(
  gatewayUrl: string,
  method: string,
  path: string,
  expected: number,
  options: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<T> {
  const res = await fetch(new URL(path, gatewayUrl), {
    method,
    headers: { 'content-type': 'application/json', ...options.headers },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  if (res.status !== expected)
    throw new Error(`${method} ${path} answered ${res.status} (expected ${expected}): ${text.slice(0, 300)}`);
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

/** A request inside the session's workspace. */
export const callIn = <T>(
  session: Session,
  method: string,
  path: string,
  expected: number,
  body?: unknown,
): Promise<T> => call<T>(session.gatewayUrl, method, path, expected, { body, headers: sessionHeaders(session) });

interface CaughtMail {
  links: string[];
}

async function mailedToken(inboxUrl: string, email: string): Promise<string> {
  const url = new URL('/messages', inboxUrl);
  url.searchParams.set('to', email);
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const mails = (await (await fetch(url, { signal: AbortSignal.timeout(5000) })).json()) as CaughtMail[];
    const token = mails
      .flatMap((mail) => mail.links)
      .map((link) => new URL(link).searchParams.get('token'))
      .find(Boolean);
    if (token) return token;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no verification mail to ${email} within 10 s`);
}

/** An account that can sign in, from the client address it registered from. */
export interface Account {
  email: string;
  password: string;
  /** Sent as X-Forwarded-For, which a test-mode cluster believes from loopback. */
  clientIp: string | undefined;
  token: string;
}

/** Registers an account (from `clientIp` when given), follows the mailed link and returns it signed in. */
export async function registerAccount(gatewayUrl: string, inboxUrl: string, clientIp?: string): Promise<Account> {
  const email = `bench-${randomBytes(6).toString('hex')}@example.test`;
  const password = 'correct-horse-1';
  const headers: Record<string, string> = clientIp === undefined ? {} : { 'x-forwarded-for': clientIp };
  await call(gatewayUrl, 'POST', '/auth/register', 201, { body: { email, password, name: 'Bench' }, headers });
  const token = await mailedToken(inboxUrl, email);
  const verified = await call<{ access_token: string }>(gatewayUrl, 'POST', '/auth/verify-email', 200, {
    body: { token },
    headers,
  });
  return { email, password, clientIp, token: verified.access_token };
}

/** Registers an account, follows the mailed link and returns its access token. */
export async function signUp(gatewayUrl: string, inboxUrl: string): Promise<string> {
  return (await registerAccount(gatewayUrl, inboxUrl)).token;
}

/** Creates a workspace owned by the token's account and returns the session inside it. */
export async function createWorkspace(gatewayUrl: string, token: string): Promise<Session> {
  const slug = `bench-${randomBytes(4).toString('hex')}`;
  const workspace = await call<{ id: string }>(gatewayUrl, 'POST', '/workspaces', 201, {
    body: { name: 'Benchmark', slug },
    headers: { authorization: `Bearer ${token}` },
  });
  return { gatewayUrl, token, workspaceId: workspace.id };
}

/** Runs `work` for each item with at most `concurrency` at a time. */
export async function eachLimited<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, lane));
}
