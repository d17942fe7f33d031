import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { type Cluster, startCluster } from '../launcher/cluster.ts';
import { components } from '../launcher/components.ts';
import type { CaughtMail } from '../launcher/smtp-catcher.ts';
import { isAlive, launcherLog, processesOf, waitFor } from '../launcher/testing.ts';

// The whole cluster under supervision (test mode asks for it): a service killed outright comes back on its own.
let cluster: Cluster | undefined;
afterAll(() => cluster?.stop());

interface Response {
  status: number;
  body: unknown;
}

async function call(method: string, path: string, { token, workspaceId, body }: { token?: string; workspaceId?: string; body?: unknown } = {}): Promise<Response> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (workspaceId) headers['x-workspace-id'] = workspaceId;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(new URL(path, cluster!.gatewayUrl), {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  return { status: res.status, body: text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
}

async function expectStatus(res: Promise<Response>, status: number): Promise<Record<string, unknown>> {
  const { status: actual, body } = await res;
  expect(actual, JSON.stringify(body)).toBe(status);
  return body as Record<string, unknown>;
}

async function signUp(): Promise<string> {
  const email = `restart-${randomBytes(6).toString('hex')}@example.test`;
  await expectStatus(call('POST', '/auth/register', { body: { email, password: 'correct-horse-1', name: 'Restart' } }), 201);
  const url = new URL('/messages', cluster!.inboxUrl);
  url.searchParams.set('to', email);
  const token = await waitFor('the verification mail', async () => {
    const mails = (await (await fetch(url)).json()) as CaughtMail[];
    return mails.flatMap((mail) => mail.links).map((link) => new URL(link).searchParams.get('token') ?? undefined).find(Boolean);
  });
  const verified = await expectStatus(call('POST', '/auth/verify-email', { body: { token } }), 200);
  return verified.access_token as string;
}

describe('startCluster with restart', () => {
  it('relaunches a messaging server killed with SIGKILL while the others keep serving; the API answers again and stop() leaves nothing behind', async () => {
    cluster = await startCluster({ mode: 'test', logs: 'files', restart: true });
    const token = await signUp();
    const workspace = await expectStatus(call('POST', '/workspaces', { token, body: { name: 'Restart', slug: `restart-${randomBytes(4).toString('hex')}` } }), 201);
    const inWorkspace = { token, workspaceId: workspace.id as string };
    const channel = await expectStatus(call('POST', '/channels', { ...inWorkspace, body: { name: `restart-${randomBytes(4).toString('hex')}` } }), 201);
    const messages = `/conversations/${channel.id as string}/messages`;
    const posted = await expectStatus(call('POST', messages, { ...inWorkspace, body: { body_text: 'before the crash' } }), 201);

    const killed = cluster.pidOf('messaging')!;
    process.kill(killed, 'SIGKILL');
    // Identity alone answers this one, crash or not.
    await expectStatus(call('GET', '/users/me', { token }), 200);

    const relaunched = await waitFor('messaging to be relaunched', () => {
      const pid = cluster!.pidOf('messaging');
      return pid !== undefined && pid !== killed ? pid : undefined;
    });
    expect(isAlive(killed)).toBe(false);
    const page = await waitFor(
      'the messages route to answer 200 again',
      async () => {
        const res = await call('GET', messages, inWorkspace);
        return res.status === 200 ? (res.body as { items: Array<{ id: string }> }) : undefined;
      },
      60_000,
    );
    expect(page.items.map((m) => m.id)).toEqual([posted.id]);
    await expectStatus(call('POST', messages, { ...inWorkspace, body: { body_text: 'after the restart' } }), 201);
    expect(await launcherLog(cluster.logDir)).toMatch(/^messaging exited \(signal SIGKILL\); restarting in \d+ ms; last output: .+$/m);
    expect(cluster.pidOf('messaging')).toBe(relaunched);

    const pids = components.map((c) => cluster!.pidOf(c.name));
    expect(pids).toEqual(components.map(() => expect.any(Number)));
    await cluster.stop();
    expect(processesOf(cluster.databaseUrl)).toEqual([]);
    expect([killed, ...pids].filter((pid) => isAlive(pid!))).toEqual([]);
  });
});
