import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Account, expectError, signUp } from './support/accounts.ts';
import { recordedEvents } from './support/events.ts';
import { connectRealtime, disconnectAll } from './support/realtime.ts';
import { type AssetBody, createChannel, type MessageBody, postText, type ReadStateBody } from './support/messages.ts';
import { addMember, createWorkspace, inWorkspace, myActor } from './support/workspaces.ts';

// Rich messages through the gateway (contract §13): children parsed from Markdown when a message is written, mentions
// found in the text and counted, the edit history, and the events of §13 at a pusher-js client.

let alice: Account;
let bob: Account;
let carol: Account;
let outsider: Account;
let ws: string;
let cid: string;
const actor: Record<'alice' | 'bob' | 'carol', { id: string; name: string }> = {} as never;
let foreignActor: string;

const plain = { bold: false, italic: false, strike: false, code: false };

beforeAll(async () => {
  [alice, bob, carol, outsider] = await Promise.all([
    signUp('rich-alice'),
    signUp('rich-bob'),
    signUp('rich-carol'),
    signUp('rich-outsider'),
  ]);
  ws = (await createWorkspace(alice)).id;
  await addMember(alice, ws, bob);
  await addMember(alice, ws, carol);
  cid = await createChannel(alice, ws);
  for (const [key, acc] of [
    ['alice', alice],
    ['bob', bob],
    ['carol', carol],
  ] as const) {
    const me = await myActor(acc, ws);
    actor[key] = { id: me.id, name: me.display_name };
  }
  const elsewhere = (await createWorkspace(outsider)).id;
  foreignActor = (await myActor(outsider, elsewhere)).id;
});

const ok = async <T>(p: Promise<{ status: number; body: unknown }>, status = 200): Promise<T> => {
  const res = await p;
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body as T;
};
const readState = (who: Account, conversationId = cid) =>
  ok<ReadStateBody>(inWorkspace(who, ws, 'GET', `/conversations/${conversationId}/read-state`));
const history = (who: Account, m: MessageBody, form = 'conversations') =>
  inWorkspace(who, ws, 'GET', `/${form}/${m.conversation_id}/messages/${m.id}/history`);
const edit = (who: Account, m: MessageBody, text: string) =>
  ok<MessageBody>(
    inWorkspace(who, ws, 'PATCH', `/conversations/${m.conversation_id}/messages/${m.id}`, {
      body: { body_text: text },
    }),
  );

describe('formatting', () => {
  it('answers children parsed from the Markdown of body_text, the same when read back', async () => {
    const text = '**Ship** it, see [the docs](https://example.org/docs)\n\n> looks *good*\n\n```sh\npnpm test\n```';
    const m = await postText(alice, ws, cid, text);
    expect(m.children).toEqual([
      { type: 'text', text: 'Ship', style: { ...plain, bold: true } },
      { type: 'text', text: ' it, see ', style: plain },
      { type: 'link', text: 'the docs', url: 'https://example.org/docs', style: plain },
      { type: 'text', text: '\n\n', style: plain },
      { type: 'quote', text: 'looks ', style: plain },
      { type: 'quote', text: 'good', style: { ...plain, italic: true } },
      { type: 'text', text: '\n\n', style: plain },
      { type: 'code_block', text: 'pnpm test', language: 'sh' },
    ]);
    expect(await ok<MessageBody>(inWorkspace(bob, ws, 'GET', `/conversations/${cid}/messages/${m.id}`))).toEqual(m);
  });

  it('keeps raw HTML and links of other schemes as text', async () => {
    const text = '<img src=x onerror=alert(1)> [click](javascript:alert(1)) <script>x</script>';
    const m = await postText(alice, ws, cid, text);
    expect(m.children).toEqual([{ type: 'text', text, style: plain }]);
  });
});

describe('mentions in the text', () => {
  it('makes <@actor_id> of the workspace a mention, after the ids sent, counted for the one mentioned', async () => {
    const before = await readState(bob);
    const m = await postText(alice, ws, cid, `hey <@${actor.bob.id}>, see <@${foreignActor}> and <@${randomUUID()}>`, {
      mentioned_actor_ids: [actor.carol.id],
    });
    expect(m.mentioned_actor_ids).toEqual([actor.carol.id, actor.bob.id]);
    expect(m.children[0]).toEqual({ type: 'text', text: 'hey ', style: plain });
    expect(m.children[1]).toEqual({ type: 'mention', text: `@${actor.bob.name}`, actor_id: actor.bob.id });
    // Another workspace's actor and an unknown id stay text and mention nobody.
    expect(m.children.slice(2)).toHaveLength(1);
    expect(m.children[2]).toMatchObject({ type: 'text', text: expect.stringContaining(`<@${foreignActor}>`) });
    expect((await readState(bob)).mention_count).toBe(before.mention_count + 1);
  });

  it('makes a reply mentioning someone in its text followed by them, and an edit adds the mentions it finds', async () => {
    const root = await postText(alice, ws, cid, 'a thread');
    await postText(alice, ws, cid, `for <@${actor.bob.id}>`, { parent_message_id: root.id });
    const thread = await ok<ReadStateBody>(inWorkspace(bob, ws, 'GET', `/threads/${root.id}/read-state`));
    expect(thread).toMatchObject({ following: true, mention_count: 1 });

    const before = await readState(carol);
    const edited = await edit(alice, root, `now for <@${actor.carol.id}>`);
    expect(edited.mentioned_actor_ids).toEqual([actor.carol.id]);
    expect(edited.children[1]).toEqual({ type: 'mention', text: `@${actor.carol.name}`, actor_id: actor.carol.id });
    expect((await readState(carol)).mention_count).toBe(before.mention_count + 1);
    // Taking the mention out of the text keeps it (a mention, once made, stays made).
    expect((await edit(alice, root, 'for nobody')).mentioned_actor_ids).toEqual([actor.carol.id]);

    // A reply's edit that mentions someone makes them follow its thread.
    const other = await postText(alice, ws, cid, 'another thread');
    const reply = await postText(alice, ws, cid, 'a reply', { parent_message_id: other.id });
    const carolsThread = () => ok<ReadStateBody>(inWorkspace(carol, ws, 'GET', `/threads/${other.id}/read-state`));
    expect(await carolsThread()).toMatchObject({ following: false, mention_count: 0 });
    await edit(alice, reply, `a reply for <@${actor.carol.id}>`);
    expect(await carolsThread()).toMatchObject({ following: true, mention_count: 1 });
  });

  it('reads the same mention many times over as one', async () => {
    const text = Array.from({ length: 60 }, () => `<@${actor.bob.id}>`).join(' ');
    const m = await postText(alice, ws, cid, text);
    expect(m.mentioned_actor_ids).toEqual([actor.bob.id]);
    expect(m.children.filter((c) => c.type === 'mention')).toHaveLength(60);
  });
});

describe('edit history', () => {
  it('answers every text, oldest first, the current last, on both path forms', async () => {
    const m = await postText(bob, ws, cid, 'first *draft*');
    const second = await edit(bob, m, 'second');
    const third = await edit(bob, m, `third for <@${actor.carol.id}>`);
    const versions = await ok<unknown[]>(history(carol, m));
    expect(versions).toEqual([
      { body_text: 'first *draft*', children: m.children, mentioned_actor_ids: [], written_at: m.created_at },
      { body_text: 'second', children: second.children, mentioned_actor_ids: [], written_at: second.edited_at },
      {
        body_text: third.body_text,
        children: third.children,
        mentioned_actor_ids: [actor.carol.id],
        written_at: third.edited_at,
      },
    ]);
    expect(await ok(history(alice, m, 'channels'))).toEqual(versions);
  });

  it('is [] once the message is deleted, and 404 to whoever may not read the conversation', async () => {
    const m = await postText(bob, ws, cid, 'to go');
    await edit(bob, m, 'going');
    const secret = await ok<{ id: string }>(
      inWorkspace(alice, ws, 'POST', '/channels', {
        body: { name: `secret-${randomUUID().slice(0, 8)}`, kind: 'private' },
      }),
      201,
    );
    const hidden = await postText(alice, ws, secret.id, 'hidden');
    expectError(await history(bob, hidden), 404, 'not_found');
    expectError(
      await inWorkspace(bob, ws, 'GET', `/conversations/${cid}/messages/${randomUUID()}/history`),
      404,
      'not_found',
    );
    expect((await inWorkspace(bob, ws, 'DELETE', `/conversations/${cid}/messages/${m.id}`)).status).toBe(204);
    expect(await ok(history(alice, m))).toEqual([]);
  });
});

describe('events (§13)', () => {
  afterAll(disconnectAll);

  it('sends message.updated when an asset attached before its upload becomes ready, as GET reads it', async () => {
    const reader = await connectRealtime(bob, ws);
    const channel = `private-conversation-${cid}`;
    await reader.subscribe(channel);
    const bytes = Buffer.from('the report');
    const asset = await ok<AssetBody>(
      inWorkspace(alice, ws, 'POST', `/conversations/${cid}/assets`, {
        body: { name: 'report.txt', content_type: 'text/plain', size_bytes: bytes.length },
      }),
      201,
    );
    const m = await postText(alice, ws, cid, 'attached first', { asset_ids: [asset.id] });
    const created = await reader.waitForEvent(
      channel,
      'message.created',
      (d) => (d.message as MessageBody).id === m.id,
    );
    expect((created.message as MessageBody).assets).toMatchObject([{ id: asset.id, status: 'pending' }]);

    const file = new FormData();
    file.append('file', new Blob([bytes]), 'report.txt');
    await ok(inWorkspace(alice, ws, 'PUT', `/conversations/${cid}/assets/${asset.id}/content`, { body: file }));
    const updated = await reader.waitForEvent(
      channel,
      'message.updated',
      (d) => (d.message as MessageBody).id === m.id,
    );
    const read = await ok<MessageBody>(inWorkspace(bob, ws, 'GET', `/conversations/${cid}/messages/${m.id}`));
    expect(read.assets).toMatchObject([{ id: asset.id, status: 'ready' }]);
    expect(updated.message).toEqual({ ...read, saved_at: null });
    // In the catch-up log too.
    const logged = await recordedEvents('messaging', "event = 'message.updated' AND payload->'message'->>'id' = $1", [
      m.id,
    ]);
    expect(logged.map((e) => e.payload.event_id)).toEqual([updated.event_id]);
  });

  it('sends workspace.deleted to the members on the workspace channel when the workspace is deleted', async () => {
    const doomed = (await createWorkspace(alice, 'Doomed')).id;
    await addMember(alice, doomed, carol);
    const member = await connectRealtime(carol, doomed);
    const channel = `private-workspace-${doomed}`;
    await member.subscribe(channel);
    expect((await inWorkspace(alice, doomed, 'DELETE', '/workspace')).status).toBe(204);
    const deleted = await member.waitForEvent(channel, 'workspace.deleted');
    expect(deleted).toEqual({ event_id: expect.stringMatching(/^[0-9a-f-]{36}$/), workspace_id: doomed });
    const logged = await recordedEvents('workspace', 'channel = $1', [channel]);
    expect(logged.map((e) => e.event).at(-1)).toBe('workspace.deleted');
    expect(logged.at(-1)!.payload).toEqual(deleted);
    expectError(await inWorkspace(carol, doomed, 'GET', '/events'), 404, 'workspace_not_found');
  });
});
