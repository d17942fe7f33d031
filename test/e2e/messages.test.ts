import { beforeAll, describe, expect, it } from 'vitest';
import { type Account, expectError, signUp } from './support/accounts.ts';
import { sql } from './support/db.ts';
import { gatewayUrl } from './support/http.ts';
import { recordedEvents } from './support/events.ts';
import { runJob } from './support/jobs.ts';
import { createChannel, MESSAGE_FIELDS, type MessageBody, type Page, postText, walk } from './support/messages.ts';
import { addMember, createWorkspace, inWorkspace, myActor } from './support/workspaces.ts';

let owner: Account;
let admin: Account;
let member: Account;
let other: Account;
let ws: string;
let conv: string;
let actors: { owner: string; admin: string; member: string; other: string };

beforeAll(async () => {
  [owner, admin, member, other] = await Promise.all([
    signUp('msg-owner'),
    signUp('msg-admin'),
    signUp('msg-member'),
    signUp('msg-other'),
  ]);
  ws = (await createWorkspace(owner)).id;
  await addMember(owner, ws, admin, 'admin');
  await addMember(owner, ws, member);
  await addMember(owner, ws, other);
  conv = await createChannel(owner, ws);
  const [o, a, m, x] = await Promise.all([owner, admin, member, other].map((acc) => myActor(acc, ws)));
  actors = { owner: o!.id, admin: a!.id, member: m!.id, other: x!.id };
});

const path = (conversationId: string, rest = '') => `/conversations/${conversationId}/messages${rest}`;
/** A message of `conv` read back through the API, as its author reads it. */
const readBack = async (id: string): Promise<MessageBody> => {
  const res = await inWorkspace(member, ws, 'GET', path(conv, `/${id}`));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as MessageBody;
};

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
      children: [
        { type: 'text', text: 'hello world', style: { bold: false, italic: false, strike: false, code: false } },
      ],
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
    const viaChannel = await inWorkspace(member, ws, 'POST', `/channels/${conv}/messages`, {
      body: { body_text: 'via channel' },
    });
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
      expect(
        err.details?.map((d) => d.field),
        JSON.stringify(body).slice(0, 80),
      ).toContain(field);
    }
    expect(
      (await inWorkspace(member, ws, 'POST', path(conv), { body: { body_text: 'y'.repeat(40_000) } })).status,
    ).toBe(201);
  });

  it('answers 404 for an unknown conversation and 400 for a malformed id', async () => {
    expectError(
      await inWorkspace(member, ws, 'POST', path('00000000-0000-7000-8000-000000000000'), { body: { body_text: 'x' } }),
      404,
      'not_found',
    );
    expectError(
      await inWorkspace(member, ws, 'POST', path('not-a-uuid'), { body: { body_text: 'x' } }),
      400,
      'invalid_input',
    );
  });
});

describe('messages of another conversation', () => {
  it('are not found (404) through a conversation they do not belong to, in both path forms', async () => {
    const m = await postText(member, ws, conv, 'lives in conv');
    const otherConv = await createChannel(owner, ws);
    for (const base of [`/conversations/${otherConv}`, `/channels/${otherConv}`]) {
      expectError(await inWorkspace(member, ws, 'GET', `${base}/messages/${m.id}`), 404, 'not_found');
      expectError(
        await inWorkspace(member, ws, 'PATCH', `${base}/messages/${m.id}`, { body: { body_text: 'moved?' } }),
        404,
        'not_found',
      );
      expectError(await inWorkspace(member, ws, 'DELETE', `${base}/messages/${m.id}`), 404, 'not_found');
    }
    expect(await readBack(m.id)).toEqual(m);
  });

  it('refuses more than 10 asset_ids', async () => {
    const ids = Array.from({ length: 11 }, (_, i) => `00000000-0000-7000-8000-${String(i).padStart(12, '0')}`);
    const err = expectError(
      await inWorkspace(member, ws, 'POST', path(conv), { body: { body_text: 'x', asset_ids: ids } }),
      400,
      'invalid_input',
    );
    expect(err.details?.map((d) => d.field)).toEqual(['body.asset_ids']);
  });
});

describe('mentions', () => {
  it('keeps mentions of actors of the workspace, without repeats', async () => {
    const m = await postText(member, ws, conv, 'hi both', {
      mentioned_actor_ids: [actors.owner, actors.admin, actors.owner],
    });
    expect(m.mentioned_actor_ids).toEqual([actors.owner, actors.admin]);
  });

  it('refuses actors of another workspace or unknown ones with 400', async () => {
    const elsewhere = await createWorkspace(other, 'Elsewhere');
    const foreign = (await myActor(other, elsewhere.id)).id;
    for (const id of [foreign, '00000000-0000-7000-8000-000000000000']) {
      const err = expectError(
        await inWorkspace(member, ws, 'POST', path(conv), {
          body: { body_text: 'x', mentioned_actor_ids: [actors.owner, id] },
        }),
        400,
        'invalid_input',
      );
      expect(err.details?.[0]?.field).toBe('body.mentioned_actor_ids');
    }
    const tooMany = Array.from({ length: 51 }, (_, i) => `00000000-0000-7000-8000-${String(i).padStart(12, '0')}`);
    expectError(
      await inWorkspace(member, ws, 'POST', path(conv), { body: { body_text: 'x', mentioned_actor_ids: tooMany } }),
      400,
      'invalid_input',
    );
  });
});

describe('editing', () => {
  it('lets only the author edit, setting edited_at; a refused edit changes nothing', async () => {
    const m = await postText(member, ws, conv, 'draft');
    expectError(
      await inWorkspace(owner, ws, 'PATCH', path(conv, `/${m.id}`), { body: { body_text: 'hijack' } }),
      403,
      'forbidden',
    );
    expect(await readBack(m.id)).toEqual(m);
    const res = await inWorkspace(member, ws, 'PATCH', path(conv, `/${m.id}`), { body: { body_text: 'final' } });
    expect(res.status).toBe(200);
    const edited = res.body as MessageBody;
    expect(edited).toMatchObject({
      id: m.id,
      body_text: 'final',
      children: [{ type: 'text', text: 'final', style: { bold: false, italic: false, strike: false, code: false } }],
    });
    expect(edited.edited_at).not.toBeNull();
    expect(Date.parse(edited.updated_at)).toBeGreaterThanOrEqual(Date.parse(m.updated_at));
    expect(await readBack(m.id)).toEqual(edited);
    expectError(
      await inWorkspace(member, ws, 'PATCH', path(conv, `/${m.id}`), { body: { body_text: '' } }),
      400,
      'invalid_input',
    );
    expectError(
      await inWorkspace(member, ws, 'PATCH', path(conv, `/${m.id}`), { body: { body_text: 'x'.repeat(40_001) } }),
      400,
      'invalid_input',
    );
    expect(await readBack(m.id)).toEqual(edited);
    expect(
      (await inWorkspace(member, ws, 'PATCH', path(conv, `/${m.id}`), { body: { body_text: 'x'.repeat(40_000) } }))
        .status,
    ).toBe(200);
  });

  it('answers 409 message_deleted for a deleted message, and leaves it deleted', async () => {
    const m = await postText(member, ws, conv, 'soon gone');
    expect((await inWorkspace(member, ws, 'DELETE', path(conv, `/${m.id}`))).status).toBe(204);
    const gone = await readBack(m.id);
    expect(gone).toMatchObject({ body_text: '', edited_at: null, deleted_at: expect.any(String) });
    expectError(
      await inWorkspace(member, ws, 'PATCH', path(conv, `/${m.id}`), { body: { body_text: 'again' } }),
      409,
      'message_deleted',
    );
    // The role check comes before the state: someone else's deleted message is 403.
    expectError(
      await inWorkspace(owner, ws, 'PATCH', path(conv, `/${m.id}`), { body: { body_text: 'again' } }),
      403,
      'forbidden',
    );
    expect(await readBack(m.id)).toEqual(gone);
    // Answers show a deleted message's placeholder whatever is stored: the stored text must still be gone too.
    expect(await sql('SELECT body_text FROM messaging.messages WHERE id = $1', [m.id])).toEqual([{ body_text: '' }]);
  });
});

describe('deleting', () => {
  it('lets the author, owners and admins delete, not other members', async () => {
    const [a, b, c] = await Promise.all([
      postText(member, ws, conv, 'a'),
      postText(member, ws, conv, 'b'),
      postText(member, ws, conv, 'c'),
    ]);
    expectError(await inWorkspace(other, ws, 'DELETE', path(conv, `/${a.id}`)), 403, 'forbidden');
    expect(await readBack(a.id)).toEqual(a);
    expect((await inWorkspace(member, ws, 'DELETE', path(conv, `/${a.id}`))).status).toBe(204);
    expect((await inWorkspace(owner, ws, 'DELETE', path(conv, `/${b.id}`))).status).toBe(204);
    expect((await inWorkspace(admin, ws, 'DELETE', path(conv, `/${c.id}`))).status).toBe(204);
    // Again: still 204.
    expect((await inWorkspace(member, ws, 'DELETE', path(conv, `/${a.id}`))).status).toBe(204);
  });

  it('leaves a placeholder that keeps its place and its thread', async () => {
    const root = await postText(member, ws, conv, 'root text', { mentioned_actor_ids: [actors.owner] });
    await postText(owner, ws, conv, 'reply', { parent_message_id: root.id });
    await inWorkspace(owner, ws, 'PUT', path(conv, `/${root.id}/reactions/${encodeURIComponent('👍')}`));
    expect((await inWorkspace(member, ws, 'DELETE', path(conv, `/${root.id}`))).status).toBe(204);
    const got = (await inWorkspace(member, ws, 'GET', path(conv, `/${root.id}`))).body as MessageBody;
    expect(got).toMatchObject({
      body_text: '',
      children: [],
      mentioned_actor_ids: [],
      reactions: [],
      assets: [],
      reply_count: 1,
      reply_actor_ids: [actors.owner],
    });
    expect(got.deleted_at).not.toBeNull();
    const page = (await inWorkspace(member, ws, 'GET', path(conv, '?limit=100'))).body as Page<MessageBody>;
    expect(page.items.find((m) => m.id === root.id)).toEqual(got);
    const replies = (await inWorkspace(member, ws, 'GET', path(conv, `?parent_message_id=${root.id}`)))
      .body as Page<MessageBody>;
    expect(replies.items.map((m) => m.body_text)).toEqual(['reply']);
    // The text is gone from storage, not only from answers.
    const [row] = await sql<{ body_text: string }>('SELECT body_text FROM messaging.messages WHERE id = $1', [root.id]);
    expect(row?.body_text).toBe('');
  });
});

describe('replies and thread counters', () => {
  it('counts replies on the root: reply_count, distinct reply_actor_ids in order of first reply, last_reply_at', async () => {
    const root = await postText(owner, ws, conv, 'root');
    const r1 = await postText(member, ws, conv, 'one', { parent_message_id: root.id });
    await postText(admin, ws, conv, 'two', { parent_message_id: root.id });
    const r3 = await postText(member, ws, conv, 'three', { parent_message_id: root.id });
    expect(r1).toMatchObject({ parent_message_id: root.id, reply_count: 0 });
    const got = (await inWorkspace(owner, ws, 'GET', path(conv, `/${root.id}`))).body as MessageBody;
    expect(got).toMatchObject({
      reply_count: 3,
      reply_actor_ids: [actors.member, actors.admin],
      last_reply_at: r3.created_at,
    });
    // Replies are listed under their root only, newest first.
    const top = (await inWorkspace(owner, ws, 'GET', path(conv, '?limit=100'))).body as Page<MessageBody>;
    expect(top.items.some((m) => m.parent_message_id !== null)).toBe(false);
    const replies = (await inWorkspace(owner, ws, 'GET', path(conv, `?parent_message_id=${root.id}`)))
      .body as Page<MessageBody>;
    expect(replies.items.map((m) => m.body_text)).toEqual(['three', 'two', 'one']);
    expect(replies.next_cursor).toBeNull();
  });

  it('refuses a reply to a reply (400 not_a_root_message), to a deleted root (409) and to an unknown root (404)', async () => {
    const root = await postText(owner, ws, conv, 'root');
    const reply = await postText(member, ws, conv, 'reply', { parent_message_id: root.id });
    expectError(
      await inWorkspace(member, ws, 'POST', path(conv), { body: { body_text: 'x', parent_message_id: reply.id } }),
      400,
      'not_a_root_message',
    );
    expectError(
      await inWorkspace(member, ws, 'POST', path(conv), {
        body: { body_text: 'x', parent_message_id: '00000000-0000-7000-8000-000000000000' },
      }),
      404,
      'not_found',
    );
    const otherConv = await createChannel(owner, ws);
    expectError(
      await inWorkspace(member, ws, 'POST', path(otherConv), { body: { body_text: 'x', parent_message_id: root.id } }),
      404,
      'not_found',
    );
    await inWorkspace(owner, ws, 'DELETE', path(conv, `/${root.id}`));
    expectError(
      await inWorkspace(member, ws, 'POST', path(conv), { body: { body_text: 'x', parent_message_id: root.id } }),
      409,
      'thread_root_deleted',
    );
    const after = (await inWorkspace(owner, ws, 'GET', path(conv, `/${root.id}`))).body as MessageBody;
    expect(after.reply_count).toBe(1);
  });

  it('lists replies of a root only in its own conversation', async () => {
    const root = await postText(owner, ws, conv, 'root');
    const otherConv = await createChannel(owner, ws);
    expectError(
      await inWorkspace(owner, ws, 'GET', path(otherConv, `?parent_message_id=${root.id}`)),
      404,
      'not_found',
    );
    expectError(await inWorkspace(owner, ws, 'GET', path(conv, '?parent_message_id=zzz')), 400, 'invalid_input');
  });

  it('pages a thread newest first like the conversation, and refuses listing the replies of a reply', async () => {
    const root = await postText(owner, ws, conv, 'paged root');
    const replies: MessageBody[] = [];
    for (let i = 0; i < 5; i++)
      replies.push(await postText(member, ws, conv, `reply ${i}`, { parent_message_id: root.id }));
    const pages = await walk<MessageBody>((cursor) =>
      inWorkspace(
        owner,
        ws,
        'GET',
        path(conv, `?parent_message_id=${root.id}&limit=2${cursor ? `&cursor=${cursor}` : ''}`),
      ),
    );
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
    expect(pages.flat().map((m) => m.id)).toEqual(replies.map((r) => r.id).reverse());
    expectError(
      await inWorkspace(owner, ws, 'GET', path(conv, `?parent_message_id=${replies[0]!.id}`)),
      400,
      'not_a_root_message',
    );
  });
});

describe('client_message_id', () => {
  it('returns the original message (201) for a retry by the same actor in the same conversation', async () => {
    const key = `retry-${Math.random()}`;
    const first = await postText(member, ws, conv, 'once', { client_message_id: key });
    const retry = await inWorkspace(member, ws, 'POST', path(conv), {
      body: { body_text: 'once', client_message_id: key },
    });
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first);
    // Another actor, or another conversation, with the same key makes a new message.
    expect((await postText(admin, ws, conv, 'once', { client_message_id: key })).id).not.toBe(first.id);
    expect(
      (await postText(member, ws, await createChannel(owner, ws), 'once', { client_message_id: key })).id,
    ).not.toBe(first.id);
    const [{ count }] = (await sql<{ count: string }>(
      'SELECT count(*) FROM messaging.messages WHERE conversation_id = $1 AND author_actor_id = $2 AND body_text = $3',
      [conv, actors.member, 'once'],
    )) as [{ count: string }];
    expect(Number(count)).toBe(1);
  });

  it('counts a retried reply once on its root', async () => {
    const root = await postText(owner, ws, conv, 'root');
    const key = `reply-${Math.random()}`;
    await postText(member, ws, conv, 'r', { parent_message_id: root.id, client_message_id: key });
    await postText(member, ws, conv, 'r', { parent_message_id: root.id, client_message_id: key });
    expect(((await inWorkspace(owner, ws, 'GET', path(conv, `/${root.id}`))).body as MessageBody).reply_count).toBe(1);
  });

  it('allows the key again after 24 hours', async () => {
    const key = `old-${Math.random()}`;
    const first = await postText(member, ws, conv, 'day one', { client_message_id: key });
    await sql("UPDATE messaging.client_messages SET created_at = now() - interval '25 hours' WHERE message_id = $1", [
      first.id,
    ]);
    const next = await postText(member, ws, conv, 'day two', { client_message_id: key });
    expect(next.id).not.toBe(first.id);
    expect(next.body_text).toBe('day two');
  });

  it('has claims past 24 hours swept by the messaging worker, and keeps the others', async () => {
    const old = await postText(member, ws, conv, 'old claim', { client_message_id: `swept-${Math.random()}` });
    const fresh = await postText(member, ws, conv, 'fresh claim', { client_message_id: `kept-${Math.random()}` });
    await sql("UPDATE messaging.client_messages SET created_at = now() - interval '25 hours' WHERE message_id = $1", [
      old.id,
    ]);
    expect(
      (await runJob<{ expiredClientIds: number }>('messaging-cleanup', 'sweep')).expiredClientIds,
    ).toBeGreaterThanOrEqual(1);
    const left = await sql<{ message_id: string }>(
      'SELECT message_id FROM messaging.client_messages WHERE message_id = ANY ($1::uuid[])',
      [[old.id, fresh.id]],
    );
    expect(left.map((r) => r.message_id)).toEqual([fresh.id]);
  });
});

describe('events', () => {
  it('records message.created, thread.updated, message.updated and message.deleted with the change, relayed in order', async () => {
    const root = await postText(member, ws, conv, 'evented');
    const reply = await postText(owner, ws, conv, 'a reply', { parent_message_id: root.id });
    await inWorkspace(member, ws, 'PATCH', path(conv, `/${root.id}`), { body: { body_text: 'evented, edited' } });
    await inWorkspace(member, ws, 'DELETE', path(conv, `/${root.id}`));
    const events = await recordedEvents(
      'messaging',
      `payload -> 'message' ->> 'id' IN ($1, $2) OR payload ->> 'root_id' = $1`,
      [root.id, reply.id],
    );
    expect(events.map((e) => e.event)).toEqual([
      'message.created',
      'message.created',
      'thread.updated',
      'message.updated',
      'message.deleted',
    ]);
    expect(new Set(events.map((e) => e.channel))).toEqual(new Set([`private-conversation-${conv}`]));
    expect(new Set(events.map((e) => e.payload.event_id)).size).toBe(5);
    expect(events[0]!.payload.message).toEqual({ ...root, saved_at: null });
    expect(events[2]!.payload).toMatchObject({
      conversation_id: conv,
      root_id: root.id,
      reply_count: 1,
      reply_actor_ids: [actors.owner],
      last_reply_at: reply.created_at,
    });
    expect(events[4]!.payload.message).toMatchObject({ id: root.id, body_text: '', reply_count: 1 });
  });

  it('sends a reference instead of a payload over the 10 KB provider limit', async () => {
    const big = await postText(member, ws, conv, 'ü'.repeat(20_000));
    const [event] = await recordedEvents('messaging', "event = 'message.created' AND payload -> 'ref' ->> 'id' = $1", [
      big.id,
    ]);
    expect(event?.payload).toEqual({
      event_id: expect.any(String),
      ref: { type: 'message', id: big.id, conversation_id: conv },
      truncated: true,
    });
  });
});

describe('isolation between workspaces', () => {
  it('answers 404 to a member of another workspace for its conversations, messages and threads, never data, and changes nothing', async () => {
    const root = await postText(member, ws, conv, 'secret');
    await postText(owner, ws, conv, 'secret reply', { parent_message_id: root.id });
    // The newest message of the conversation: the root, unless the intrusion was posted, edited or deleted.
    const newest = async () =>
      ((await inWorkspace(member, ws, 'GET', path(conv, '?limit=1'))).body as Page<MessageBody>).items;
    const before = await newest();
    expect(before).toMatchObject([{ id: root.id, body_text: 'secret', reply_count: 1 }]);
    const theirs = (await createWorkspace(other, 'Theirs')).id;
    const probes: Array<[string, string, unknown?]> = [
      ['GET', path(conv)],
      ['POST', path(conv), { body_text: 'intrusion' }],
      ['GET', path(conv, `/${root.id}`)],
      ['PATCH', path(conv, `/${root.id}`), { body_text: 'x' }],
      ['DELETE', path(conv, `/${root.id}`)],
      ['GET', `/channels/${conv}`],
      ['GET', `/channels/${conv}/messages`],
      ['GET', path(conv, `?parent_message_id=${root.id}`)],
      ['GET', `/threads/${root.id}/read-state`],
      ['PUT', `/threads/${root.id}/subscription`, { following: true }],
      ['GET', `/conversations/${conv}/read-state`],
    ];
    for (const [method, url, body] of probes) {
      const res = await inWorkspace(other, theirs, method, url, body === undefined ? {} : { body });
      expectError(res, 404, 'not_found');
      expect(JSON.stringify(res.body)).not.toContain('secret');
    }
    const threads = (await inWorkspace(other, theirs, 'GET', '/threads?following=false')).body as Page<unknown>;
    expect(threads.items).toEqual([]);
    expect(await newest()).toEqual(before);
  });
});

describe('a page of messages', () => {
  /** The body's exact text and its Content-Type. */
  const rawGet = async (path: string) => {
    const res = await fetch(new URL(path, gatewayUrl()), {
      headers: { authorization: `Bearer ${member.token}`, 'x-workspace-id': ws },
    });
    expect(res.status).toBe(200);
    return { text: await res.text(), type: res.headers.get('content-type') };
  };

  it('is, byte for byte, the JSON its messages make one at a time (messaging renders it once, the gateway passes it on)', async () => {
    const channel = await createChannel(owner, ws, 'bytes');
    await postText(owner, ws, channel, 'oldest, on the next page');
    const root = await postText(
      owner,
      ws,
      channel,
      'a **root** with [a link](https://example.org) and <@' + actors.member + '>',
    );
    await postText(member, ws, channel, 'a reply', { parent_message_id: root.id });
    const edited = await postText(member, ws, channel, 'first "text" \u2028 ✓');
    expect(
      (await inWorkspace(member, ws, 'PATCH', path(channel, `/${edited.id}`), { body: { body_text: 'edited' } }))
        .status,
    ).toBe(200);
    const gone = await postText(member, ws, channel, 'to delete');
    expect((await inWorkspace(member, ws, 'DELETE', path(channel, `/${gone.id}`))).status).toBe(204);
    expect(
      (await inWorkspace(member, ws, 'PUT', path(channel, `/${root.id}/reactions/${encodeURIComponent('👍')}`))).status,
    ).toBe(200);
    expect((await inWorkspace(member, ws, 'PUT', path(channel, `/${root.id}/saved`))).status).toBe(200);
    await postText(owner, ws, channel, 'newest');

    const page = await rawGet(path(channel, '?limit=4'));
    const parsed = JSON.parse(page.text) as Page<MessageBody>;
    expect(parsed.items.map((m) => m.id).at(-1)).toBe(root.id);
    expect(parsed.next_cursor).not.toBeNull();
    const one = await Promise.all(parsed.items.map((m) => rawGet(path(channel, `/${m.id}`))));
    expect(page.text).toBe(
      JSON.stringify({ items: one.map((m) => JSON.parse(m.text) as unknown), next_cursor: parsed.next_cursor }),
    );
    expect(page.type).toBe(one[0]!.type);
    expect(page.type).toBe('application/json; charset=utf-8');

    const saved = await rawGet('/saved-messages?limit=1');
    const root1 = await rawGet(path(channel, `/${root.id}`));
    const savedCursor = (JSON.parse(saved.text) as Page<MessageBody>).next_cursor;
    expect(saved.text).toBe(JSON.stringify({ items: [JSON.parse(root1.text) as unknown], next_cursor: savedCursor }));
  });
});

describe('the largest page', () => {
  it('of 50 messages of 40,000 characters that JSON escapes six bytes each (24 MB) is served whole', async () => {
    const channel = await createChannel(owner, ws, 'large');
    const text = '\u0001'.repeat(40_000);
    for (let i = 0; i < 50; i++) await postText(owner, ws, channel, text);
    const res = await inWorkspace(member, ws, 'GET', path(channel, '?limit=50'));
    expect(res.status).toBe(200);
    const items = (res.body as Page<MessageBody>).items;
    expect(items).toHaveLength(50);
    expect(items.every((m) => m.body_text === text)).toBe(true);
  });
});
