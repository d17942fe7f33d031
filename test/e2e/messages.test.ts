import { beforeAll, describe, expect, it } from 'vitest';
import { type Account, expectError, signUp } from './support/accounts.ts';
import { sql } from './support/db.ts';
import { createChannel, MESSAGE_FIELDS, type MessageBody, type Page, post, postText } from './support/messages.ts';
import { addMember, createWorkspace, inWorkspace, myActor } from './support/workspaces.ts';

let owner: Account;
let admin: Account;
let member: Account;
let other: Account;
let ws: string;
let conv: string;
let actors: { owner: string; admin: string; member: string; other: string };

beforeAll(async () => {
  [owner, admin, member, other] = await Promise.all([signUp('msg-owner'), signUp('msg-admin'), signUp('msg-member'), signUp('msg-other')]);
  ws = (await createWorkspace(owner)).id;
  await addMember(owner, ws, admin, 'admin');
  await addMember(owner, ws, member);
  await addMember(owner, ws, other);
  conv = await createChannel(owner, ws);
  const [o, a, m, x] = await Promise.all([owner, admin, member, other].map((acc) => myActor(acc, ws)));
  actors = { owner: o!.id, admin: a!.id, member: m!.id, other: x!.id };
});

const path = (conversationId: string, rest = '') => `/conversations/${conversationId}/messages${rest}`;

describe('posting', () => {
  it('answers 201 with every field of the Message, a UUIDv7 id and text children', async () => {
    const m = await postText(member, ws, conv, 'hello world');
    expect(Object.keys(m).sort()).toEqual(MESSAGE_FIELDS);
    expect(m.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(m).toMatchObject({
      workspace_id: ws,
      conversation_id: conv,
      author_actor_id: actors.member,
      body_text: 'hello world',
      children: [{ type: 'text', text: 'hello world' }],
      parent_message_id: null,
      reply_count: 0,
      reply_actor_ids: [],
      last_reply_at: null,
      reactions: [],
      reactions_version: 0,
      assets: [],
      mentioned_actor_ids: [],
      saved_at: null,
      loading_expires_at: null,
      edited_at: null,
      deleted_at: null,
    });
    expect(m.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const got = await inWorkspace(owner, ws, 'GET', path(conv, `/${m.id}`));
    expect(got.status).toBe(200);
    expect(got.body).toEqual(m);
  });

  it('serves the channel path form from the same messages', async () => {
    const viaChannel = await inWorkspace(member, ws, 'POST', `/channels/${conv}/messages`, { body: { body_text: 'via channel' } });
    expect(viaChannel.status).toBe(201);
    const m = viaChannel.body as MessageBody;
    expect((await inWorkspace(owner, ws, 'GET', path(conv, `/${m.id}`))).body).toEqual(m);
    expect((await inWorkspace(owner, ws, 'GET', `/channels/${conv}/messages/${m.id}`)).body).toEqual(m);
    const page = (await inWorkspace(owner, ws, 'GET', `/channels/${conv}/messages?limit=5`)).body as Page<MessageBody>;
    expect(page.items[0]).toEqual(m);
  });

  it('sets loading_expires_at five minutes after creation, cleared by the first edit', async () => {
    const m = await postText(member, ws, conv, 'thinking…', { loading: true });
    expect(Date.parse(m.loading_expires_at!) - Date.parse(m.created_at)).toBe(5 * 60 * 1000);
    const edited = await inWorkspace(member, ws, 'PATCH', path(conv, `/${m.id}`), { body: { body_text: 'done' } });
    expect(edited.body).toMatchObject({ loading_expires_at: null, body_text: 'done' });
  });

  it('validates the body', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, 'body.body_text'],
      [{ body_text: '' }, 'body.body_text'],
      [{ body_text: 'x'.repeat(40_001) }, 'body.body_text'],
      [{ body_text: 42 }, 'body.body_text'],
      [{ body_text: 'x', parent_message_id: 'nope' }, 'body.parent_message_id'],
      [{ body_text: 'x', mentioned_actor_ids: ['nope'] }, 'body.mentioned_actor_ids.0'],
      [{ body_text: 'x', client_message_id: 'c'.repeat(65) }, 'body.client_message_id'],
      [{ body_text: 'x', loading: 'yes' }, 'body.loading'],
    ];
    for (const [body, field] of cases) {
      const err = expectError(await inWorkspace(member, ws, 'POST', path(conv), { body }), 400, 'invalid_input');
      expect(err.details?.map((d) => d.field), JSON.stringify(body).slice(0, 80)).toContain(field);
    }
    expect((await inWorkspace(member, ws, 'POST', path(conv), { body: { body_text: 'y'.repeat(40_000) } })).status).toBe(201);
  });

  it('answers 404 for an unknown conversation and 400 for a malformed id', async () => {
    expectError(await inWorkspace(member, ws, 'POST', path('00000000-0000-7000-8000-000000000000'), { body: { body_text: 'x' } }), 404, 'not_found');
    expectError(await inWorkspace(member, ws, 'POST', path('not-a-uuid'), { body: { body_text: 'x' } }), 400, 'invalid_input');
  });
});

describe('mentions', () => {
  it('keeps mentions of actors of the workspace, without repeats', async () => {
    const m = await postText(member, ws, conv, 'hi both', { mentioned_actor_ids: [actors.owner, actors.admin, actors.owner] });
    expect(m.mentioned_actor_ids).toEqual([actors.owner, actors.admin]);
  });

  it('refuses actors of another workspace or unknown ones with 400', async () => {
    const elsewhere = await createWorkspace(other, 'Elsewhere');
    const foreign = (await myActor(other, elsewhere.id)).id;
    for (const id of [foreign, '00000000-0000-7000-8000-000000000000']) {
      const err = expectError(await inWorkspace(member, ws, 'POST', path(conv), { body: { body_text: 'x', mentioned_actor_ids: [actors.owner, id] } }), 400, 'invalid_input');
      expect(err.details?.[0]?.field).toBe('body.mentioned_actor_ids');
    }
    const tooMany = Array.from({ length: 51 }, (_, i) => `00000000-0000-7000-8000-${String(i).padStart(12, '0')}`);
    expectError(await inWorkspace(member, ws, 'POST', path(conv), { body: { body_text: 'x', mentioned_actor_ids: tooMany } }), 400, 'invalid_input');
  });
});

describe('editing', () => {
  it('lets only the author edit, setting edited_at', async () => {
    const m = await postText(member, ws, conv, 'draft');
    expectError(await inWorkspace(owner, ws, 'PATCH', path(conv, `/${m.id}`), { body: { body_text: 'hijack' } }), 403, 'forbidden');
    const res = await inWorkspace(member, ws, 'PATCH', path(conv, `/${m.id}`), { body: { body_text: 'final' } });
    expect(res.status).toBe(200);
    const edited = res.body as MessageBody;
    expect(edited).toMatchObject({ id: m.id, body_text: 'final', children: [{ type: 'text', text: 'final' }] });
    expect(edited.edited_at).not.toBeNull();
    expect(Date.parse(edited.updated_at)).toBeGreaterThanOrEqual(Date.parse(m.updated_at));
    expectError(await inWorkspace(member, ws, 'PATCH', path(conv, `/${m.id}`), { body: { body_text: '' } }), 400, 'invalid_input');
  });

  it('answers 409 message_deleted for a deleted message', async () => {
    const m = await postText(member, ws, conv, 'soon gone');
    expect((await inWorkspace(member, ws, 'DELETE', path(conv, `/${m.id}`))).status).toBe(204);
    expectError(await inWorkspace(member, ws, 'PATCH', path(conv, `/${m.id}`), { body: { body_text: 'again' } }), 409, 'message_deleted');
  });
});

describe('deleting', () => {
  it('lets the author, owners and admins delete, not other members', async () => {
    const [a, b, c] = await Promise.all([postText(member, ws, conv, 'a'), postText(member, ws, conv, 'b'), postText(member, ws, conv, 'c')]);
    expectError(await inWorkspace(other, ws, 'DELETE', path(conv, `/${a!.id}`)), 403, 'forbidden');
    expect((await inWorkspace(member, ws, 'DELETE', path(conv, `/${a!.id}`))).status).toBe(204);
    expect((await inWorkspace(owner, ws, 'DELETE', path(conv, `/${b!.id}`))).status).toBe(204);
    expect((await inWorkspace(admin, ws, 'DELETE', path(conv, `/${c!.id}`))).status).toBe(204);
    // Again: still 204.
    expect((await inWorkspace(member, ws, 'DELETE', path(conv, `/${a!.id}`))).status).toBe(204);
  });

  it('leaves a placeholder that keeps its place and its thread', async () => {
    const root = await postText(member, ws, conv, 'root text', { mentioned_actor_ids: [actors.owner] });
    await postText(owner, ws, conv, 'reply', { parent_message_id: root.id });
    await inWorkspace(owner, ws, 'PUT', path(conv, `/${root.id}/reactions/${encodeURIComponent('👍')}`));
    expect((await inWorkspace(member, ws, 'DELETE', path(conv, `/${root.id}`))).status).toBe(204);
    const got = (await inWorkspace(member, ws, 'GET', path(conv, `/${root.id}`))).body as MessageBody;
    expect(got).toMatchObject({ body_text: '', children: [], mentioned_actor_ids: [], reactions: [], assets: [], reply_count: 1, reply_actor_ids: [actors.owner] });
    expect(got.deleted_at).not.toBeNull();
    const page = (await inWorkspace(member, ws, 'GET', path(conv, '?limit=100'))).body as Page<MessageBody>;
    expect(page.items.find((m) => m.id === root.id)).toEqual(got);
    const replies = (await inWorkspace(member, ws, 'GET', path(conv, `?parent_message_id=${root.id}`))).body as Page<MessageBody>;
    expect(replies.items.map((m) => m.body_text)).toEqual(['reply']);
    // The text is gone from storage, not only from answers.
    const [row] = await sql<{ body_text: string }>('SELECT body_text FROM messaging.messages WHERE id = $1', [root.id]);
    expect(row?.body_text).toBe('');
  });
});
