import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitFor } from '@wms/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Account, signUp } from './support/accounts.ts';
import { gatewayUrl } from './support/http.ts';
import type { MessageBody } from './support/messages.ts';
import { addMember, createWorkspace, inWorkspace } from './support/workspaces.ts';

// The example agent of docs/agents.md (examples/echo-agent), run as its own command against the cluster: it answers mentions
// of it in their thread, in the conversations it belongs to when it starts and in those it is added to later.

const exampleDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../examples/echo-agent');

let owner: Account;
let human: Account;
let ws: string;
let agentId: string;
let agent: ChildProcess;
let output = '';

const as = (who: Account, method: string, p: string, options: Parameters<typeof inWorkspace>[4] = {}) =>
  inWorkspace(who, ws, method, p, options);

async function privateChannel(members: string[]): Promise<string> {
  const res = await as(human, 'POST', '/channels', {
    body: { name: `echo-${randomBytes(4).toString('hex')}`, kind: 'private', member_actor_ids: members },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return (res.body as { id: string }).id;
}

async function post(conv: string, body: Record<string, unknown>): Promise<MessageBody> {
  const res = await as(human, 'POST', `/conversations/${conv}/messages`, { body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as MessageBody;
}

const replies = async (conv: string, root: string) =>
  (
    (await as(human, 'GET', `/conversations/${conv}/messages?parent_message_id=${root}`)).body as {
      items: MessageBody[];
    }
  ).items;

let first: string;

beforeAll(async () => {
  [owner, human] = await Promise.all([signUp('echo-owner'), signUp('echo-human')]);
  ws = (await createWorkspace(owner)).id;
  await addMember(owner, ws, human);
  agentId = ((await as(owner, 'POST', '/workspace/actors', { body: { display_name: 'Echo' } })).body as { id: string })
    .id;
  const token = (
    (await as(owner, 'POST', '/workspace/tokens', { body: { actor_id: agentId, name: 'echo agent' } })).body as {
      token: string;
    }
  ).token;
  first = await privateChannel([agentId]);
  agent = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: exampleDir,
    env: { ...process.env, WMS_URL: gatewayUrl(), WMS_TOKEN: token },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  agent.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  agent.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await waitFor(
    'the example agent to listen',
    () => /listening to 1 conversation$/m.test(output) || undefined,
    30_000,
    50,
  ).catch((err: unknown) => {
    throw new Error(`${String(err)}\n${output}`);
  });
});

afterAll(async () => {
  if (agent && agent.exitCode === null) {
    const exited = new Promise((resolve) => agent.once('exit', resolve));
    agent.kill('SIGTERM');
    await exited;
  }
});

describe('the example echo agent', () => {
  it('answers a mention in its thread as the agent, and a message without one not at all', async () => {
    const quiet = await post(first, { body_text: 'nobody asked the bot' });
    const asked = await post(first, { body_text: 'are you there?', mentioned_actor_ids: [agentId] });
    const answer = await waitFor('the echo', async () => (await replies(first, asked.id))[0], 15_000, 50);
    expect(answer).toMatchObject({
      author_actor_id: agentId,
      body_text: 'echo: are you there?',
      parent_message_id: asked.id,
    });
    // The mention was posted after the quiet message, so its answer shows the quiet one was seen and passed over.
    expect(await replies(first, quiet.id)).toEqual([]);
    // A mention inside a thread is answered in that thread.
    const inThread = await post(first, {
      body_text: 'and here?',
      parent_message_id: asked.id,
      mentioned_actor_ids: [agentId],
    });
    await waitFor(
      'the echo in the thread',
      async () => (await replies(first, asked.id)).find((m) => m.body_text === 'echo: and here?'),
      15_000,
      50,
    );
    // Newest first.
    expect((await replies(first, asked.id)).map((m) => [m.author_actor_id, m.body_text])).toEqual([
      [agentId, 'echo: and here?'],
      [inThread.author_actor_id, 'and here?'],
      [agentId, 'echo: are you there?'],
    ]);
  });

  it('listens to a conversation it is added to while running', async () => {
    const later = await privateChannel([]);
    expect((await as(human, 'PUT', `/channels/${later}/members/${agentId}`)).status).toBe(200);
    await waitFor(
      'the agent to listen to the new conversation',
      () => output.includes(`listening to ${later}`) || undefined,
      15_000,
      50,
    );
    const asked = await post(later, { body_text: 'welcome', mentioned_actor_ids: [agentId] });
    const answer = await waitFor('the echo', async () => (await replies(later, asked.id))[0], 15_000, 50);
    expect(answer).toMatchObject({ author_actor_id: agentId, body_text: 'echo: welcome' });
  });
});
