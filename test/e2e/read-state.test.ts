import { beforeAll, describe, expect, it } from 'vitest';
import { type Account, expectError, signUp } from './support/accounts.ts';
import { recordedEvents } from './support/events.ts';
import type { ApiResponse } from './support/http.ts';
import {
  createChannel,
  MESSAGE_FIELDS,
  type MessageBody,
  type Page,
  postText,
  type ReadStateBody,
  type ThreadBody,
  walk,
} from './support/messages.ts';
import { addMember, createWorkspace, inWorkspace, myActor } from './support/workspaces.ts';

// Contract §5: read state of conversations and threads, thread subscriptions and the thread inbox.

const READ_STATE_FIELDS = [
  'conversation_id',
  'following',
  'last_read_at',
  'last_read_message_id',
  'mention_count',
  'thread_root_id',
  'unread_count',
  'updated_at',
];
const THREAD_FIELDS = [
  'conversation_id',
  'following',
  'id',
  'last_read_message_id',
  'last_reply_at',
  'mention_count',
  'reply_count',
  'root_message',
  'unread_count',
];
const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const UNKNOWN = '00000000-0000-7000-8000-000000000000';

type Role = 'alice' | 'bob' | 'carol' | 'dave';

/** A workspace owned by alice with bob, carol and dave as members, and every account's actor id there. */
interface Team {
  ws: string;
  actor: Record<Role, string>;
}

let alice: Account;
let bob: Account;
let carol: Account;
let dave: Account;
/** Owner of workspace B, never a member of the main workspace. */
let olga: Account;
let ws: string;
let actor: Record<Role, string>;
/** Workspace B: olga's, with alice as a member. */
let wsB: string;

async function team(): Promise<Team> {
  const id = (await createWorkspace(alice, 'Read state')).id;
  await Promise.all([bob, carol, dave].map((who) => addMember(alice, id, who)));
  const [a, b, c, d] = await Promise.all([alice, bob, carol, dave].map((who) => myActor(who, id)));
  return { ws: id, actor: { alice: a!.id, bob: b!.id, carol: c!.id, dave: d!.id } };
}

beforeAll(async () => {
  [alice, bob, carol, dave, olga] = await Promise.all([
    signUp('rs-alice'),
    signUp('rs-bob'),
    signUp('rs-carol'),
    signUp('rs-dave'),
    signUp('rs-olga'),
  ]);
  ({ ws, actor } = await team());
  wsB = (await createWorkspace(olga, 'Elsewhere')).id;
  await addMember(olga, wsB, alice);
});

async function ok<T>(pending: Promise<ApiResponse>): Promise<T> {
  const res = await pending;
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as T;
}

const conversationState = (who: Account, cid: string, wsId = ws) =>
  ok<ReadStateBody>(inWorkspace(who, wsId, 'GET', `/conversations/${cid}/read-state`));
const markConversation = (who: Account, cid: string, messageId: string, wsId = ws) =>
  ok<ReadStateBody>(
    inWorkspace(who, wsId, 'PUT', `/conversations/${cid}/read-state`, { body: { last_read_message_id: messageId } }),
  );
const threadState = (who: Account, rootId: string, wsId = ws) =>
  ok<ReadStateBody>(inWorkspace(who, wsId, 'GET', `/threads/${rootId}/read-state`));
const markThread = (who: Account, rootId: string, messageId: string, wsId = ws) =>
  ok<ReadStateBody>(
    inWorkspace(who, wsId, 'PUT', `/threads/${rootId}/read-state`, { body: { last_read_message_id: messageId } }),
  );
const subscribe = (who: Account, rootId: string, following: boolean, wsId = ws) =>
  ok<ReadStateBody>(inWorkspace(who, wsId, 'PUT', `/threads/${rootId}/subscription`, { body: { following } }));
const threads = (who: Account, query = '', wsId = ws) =>
  ok<Page<ThreadBody>>(inWorkspace(who, wsId, 'GET', `/threads${query}`));
const following = async (who: Account, rootId: string, wsId = ws) => (await threadState(who, rootId, wsId)).following;

const reply = (
  who: Account,
  cid: string,
  root: MessageBody,
  text: string,
  extra: Record<string, unknown> = {},
  wsId = ws,
) => postText(who, wsId, cid, text, { parent_message_id: root.id, ...extra });
const mentioning = (...actorIds: string[]) => ({ mentioned_actor_ids: actorIds });
const remove = async (who: Account, m: MessageBody, wsId = ws) => {
  expect((await inWorkspace(who, wsId, 'DELETE', `/conversations/${m.conversation_id}/messages/${m.id}`)).status).toBe(
    204,
  );
};
const ids = (items: Array<{ id: string }>) => items.map((i) => i.id);

/** Asserts that a timestamp was set during [from, to] (epoch ms), i.e. when the request ran. */
function expectSetDuring(at: string | null, from: number, to: number) {
  expect(at).toMatch(ISO_MS);
  expect(Date.parse(at!)).toBeGreaterThanOrEqual(from - 5);
  expect(Date.parse(at!)).toBeLessThanOrEqual(to + 5);
}

describe('conversation read state', () => {
  it('has exactly its fields and, before any mark, counts every top-level message of others', async () => {
    const cid = await createChannel(alice, ws);
    const first = await postText(alice, ws, cid, 'one');
    await postText(alice, ws, cid, 'two');
    await postText(bob, ws, cid, "bob's own");
    await reply(carol, cid, first, 'replies never count', mentioning(actor.bob));

    const state = await conversationState(bob, cid);
    expect(Object.keys(state).sort()).toEqual(READ_STATE_FIELDS);
    expect(state).toEqual({
      conversation_id: cid,
      thread_root_id: null,
      following: null,
      last_read_message_id: null,
      last_read_at: null,
      updated_at: null,
      unread_count: 2,
      mention_count: 0,
    });
    expect(await conversationState(dave, cid)).toMatchObject({ unread_count: 3, mention_count: 0 });
  });

  it("counts in mention_count the unread messages that mention the caller, not the caller's own", async () => {
    const cid = await createChannel(alice, ws);
    await postText(alice, ws, cid, 'for bob', mentioning(actor.bob));
    await postText(alice, ws, cid, 'for carol', mentioning(actor.carol));
    const both = await postText(carol, ws, cid, 'for both', mentioning(actor.bob, actor.carol));
    await postText(bob, ws, cid, 'note to self', mentioning(actor.bob));
    await reply(alice, cid, both, 'a reply for bob', mentioning(actor.bob));

    expect(await conversationState(bob, cid)).toMatchObject({ unread_count: 3, mention_count: 2 });
    expect(await conversationState(carol, cid)).toMatchObject({ unread_count: 3, mention_count: 1 });
    expect(await conversationState(dave, cid)).toMatchObject({ unread_count: 4, mention_count: 0 });
  });

  it('moves the mark forwards and backwards, counting only the messages after it, and stamps it with the current time', async () => {
    const cid = await createChannel(alice, ws);
    const m1 = await postText(alice, ws, cid, 'm1');
    const m2 = await postText(alice, ws, cid, 'm2');
    await postText(alice, ws, cid, 'm3', mentioning(actor.bob));
    const m4 = await postText(alice, ws, cid, 'm4');

    let before = Date.now();
    const marked = await markConversation(bob, cid, m2.id);
    expect(Object.keys(marked).sort()).toEqual(READ_STATE_FIELDS);
    expect(marked).toMatchObject({
      conversation_id: cid,
      thread_root_id: null,
      following: null,
      last_read_message_id: m2.id,
      unread_count: 2,
      mention_count: 1,
    });
    expectSetDuring(marked.last_read_at, before, Date.now());
    expectSetDuring(marked.updated_at, before, Date.now());
    expect(await conversationState(bob, cid)).toEqual(marked);

    expect(await markConversation(bob, cid, m4.id)).toMatchObject({
      last_read_message_id: m4.id,
      unread_count: 0,
      mention_count: 0,
    });

    // Backwards: mark unread.
    before = Date.now();
    const unread = await markConversation(bob, cid, m1.id);
    expect(unread).toMatchObject({ last_read_message_id: m1.id, unread_count: 3, mention_count: 1 });
    expectSetDuring(unread.last_read_at, before, Date.now());
    expectSetDuring(unread.updated_at, before, Date.now());
    expect(unread.last_read_at).not.toBe(m1.created_at);
    expect(Date.parse(unread.last_read_at!)).toBeGreaterThanOrEqual(Date.parse(marked.last_read_at!));

    // Another reader's state is their own.
    expect(await conversationState(carol, cid)).toMatchObject({
      last_read_message_id: null,
      unread_count: 4,
      mention_count: 0,
    });
  });

  it('accepts a reply of the conversation as the mark', async () => {
    const cid = await createChannel(alice, ws);
    const root = await postText(alice, ws, cid, 'root');
    const r = await reply(carol, cid, root, 'reply');
    await postText(alice, ws, cid, 'after the reply', mentioning(actor.bob));

    expect(await markConversation(bob, cid, r.id)).toMatchObject({
      conversation_id: cid,
      thread_root_id: null,
      last_read_message_id: r.id,
      unread_count: 1,
      mention_count: 1,
    });
  });

  it('stops counting deleted messages', async () => {
    const cid = await createChannel(alice, ws);
    await postText(alice, ws, cid, 'stays');
    const gone = await postText(alice, ws, cid, 'goes', mentioning(actor.bob));
    expect(await conversationState(bob, cid)).toMatchObject({ unread_count: 2, mention_count: 1 });
    await remove(alice, gone);
    expect(await conversationState(bob, cid)).toMatchObject({ unread_count: 1, mention_count: 0 });
  });

  it('is the same state through the channel path form', async () => {
    const cid = await createChannel(alice, ws);
    const m1 = await postText(alice, ws, cid, 'm1');
    const m2 = await postText(alice, ws, cid, 'm2');

    const viaChannel = await ok<ReadStateBody>(
      inWorkspace(bob, ws, 'PUT', `/channels/${cid}/read-state`, { body: { last_read_message_id: m1.id } }),
    );
    expect(viaChannel).toMatchObject({ conversation_id: cid, last_read_message_id: m1.id, unread_count: 1 });
    expect(await conversationState(bob, cid)).toEqual(viaChannel);

    const viaConversation = await markConversation(bob, cid, m2.id);
    expect(await ok<ReadStateBody>(inWorkspace(bob, ws, 'GET', `/channels/${cid}/read-state`))).toEqual(
      viaConversation,
    );
  });

  it('refuses a message of another conversation with 400 wrong_conversation and an unknown one with 404', async () => {
    const cid = await createChannel(alice, ws);
    const elsewhere = await createChannel(alice, ws);
    const mine = await postText(alice, ws, cid, 'here');
    const theirRoot = await postText(alice, ws, elsewhere, 'there');
    const theirReply = await reply(alice, elsewhere, theirRoot, 'there too');
    const markedBefore = await markConversation(bob, cid, mine.id);

    for (const messageId of [theirRoot.id, theirReply.id]) {
      for (const form of ['conversations', 'channels']) {
        expectError(
          await inWorkspace(bob, ws, 'PUT', `/${form}/${cid}/read-state`, {
            body: { last_read_message_id: messageId },
          }),
          400,
          'wrong_conversation',
        );
      }
    }
    expectError(
      await inWorkspace(bob, ws, 'PUT', `/conversations/${cid}/read-state`, {
        body: { last_read_message_id: UNKNOWN },
      }),
      404,
      'not_found',
    );
    expect(await conversationState(bob, cid)).toEqual(markedBefore);
  });

  it('validates last_read_message_id (400 invalid_input), before looking up the conversation', async () => {
    const cid = await createChannel(alice, ws);
    for (const body of [
      {},
      { last_read_message_id: null },
      { last_read_message_id: 'nope' },
      { last_read_message_id: 42 },
    ]) {
      for (const path of [
        `/conversations/${cid}/read-state`,
        `/channels/${cid}/read-state`,
        '/conversations/not-a-uuid/read-state',
      ]) {
        const err = expectError(await inWorkspace(bob, ws, 'PUT', path, { body }), 400, 'invalid_input');
        expect(
          err.details?.map((d) => d.field),
          `${path} ${JSON.stringify(body)}`,
        ).toContain('body.last_read_message_id');
      }
    }
  });

  it('takes a conversation id in capitals as the same id, in both path forms', async () => {
    const cid = await createChannel(alice, ws);
    const m = await postText(alice, ws, cid, 'read in capitals');
    for (const form of ['conversations', 'channels']) {
      const path = `/${form}/${cid.toUpperCase()}/read-state`;
      const put = await inWorkspace(bob, ws, 'PUT', path, { body: { last_read_message_id: m.id.toUpperCase() } });
      expect(put.status, JSON.stringify(put.body)).toBe(200);
      const read = await inWorkspace(bob, ws, 'GET', path);
      expect(read.body).toMatchObject({ conversation_id: cid, last_read_message_id: m.id });
    }
  });

  it('answers 404 for a malformed or unknown conversation id (path ids are strings)', async () => {
    const cid = await createChannel(alice, ws);
    const m = await postText(alice, ws, cid, 'a message, not a conversation');
    for (const bad of ['not-a-uuid', UNKNOWN, m.id]) {
      for (const form of ['conversations', 'channels']) {
        expectError(await inWorkspace(bob, ws, 'GET', `/${form}/${bad}/read-state`), 404, 'not_found');
        expectError(
          await inWorkspace(bob, ws, 'PUT', `/${form}/${bad}/read-state`, { body: { last_read_message_id: m.id } }),
          404,
          'not_found',
        );
      }
    }
  });
});

describe('thread read state', () => {
  it('has exactly its fields, the root and its conversation, a boolean following and counts of replies', async () => {
    const cid = await createChannel(alice, ws);
    const root = await postText(alice, ws, cid, 'root for carol', mentioning(actor.carol));
    await reply(carol, cid, root, 'r1');
    await reply(carol, cid, root, 'r2 for bob', mentioning(actor.bob));
    await reply(bob, cid, root, "r3 bob's own, to himself", mentioning(actor.bob));

    // Dave neither took part nor touched the thread.
    const untouched = await threadState(dave, root.id);
    expect(Object.keys(untouched).sort()).toEqual(READ_STATE_FIELDS);
    expect(untouched).toEqual({
      conversation_id: cid,
      thread_root_id: root.id,
      following: false,
      last_read_message_id: null,
      last_read_at: null,
      updated_at: null,
      unread_count: 3,
      mention_count: 0,
    });
    const state = await threadState(bob, root.id);
    expect(Object.keys(state).sort()).toEqual(READ_STATE_FIELDS);
    expect(state).toMatchObject({
      conversation_id: cid,
      thread_root_id: root.id,
      following: true,
      last_read_message_id: null,
      last_read_at: null,
      unread_count: 2,
      mention_count: 1,
    });
    expect(await threadState(alice, root.id)).toMatchObject({ following: true, unread_count: 3, mention_count: 0 });
    // The root's mention is not a reply's.
    expect(await threadState(carol, root.id)).toMatchObject({ following: true, unread_count: 1, mention_count: 0 });
    // The conversation counts only the root.
    expect(await conversationState(bob, cid)).toMatchObject({ unread_count: 1, mention_count: 0 });
    expect(await conversationState(carol, cid)).toMatchObject({ unread_count: 1, mention_count: 1 });
  });

  it('exists for any top-level message, also one without replies', async () => {
    const cid = await createChannel(alice, ws);
    const root = await postText(alice, ws, cid, 'nobody answered');
    expect(await threadState(alice, root.id)).toMatchObject({
      conversation_id: cid,
      thread_root_id: root.id,
      following: true,
      unread_count: 0,
      mention_count: 0,
    });
    expect(await threadState(bob, root.id)).toMatchObject({
      thread_root_id: root.id,
      following: false,
      last_read_message_id: null,
      unread_count: 0,
    });
    expect(await markThread(bob, root.id, root.id)).toMatchObject({
      thread_root_id: root.id,
      last_read_message_id: root.id,
      unread_count: 0,
    });
    expect(await subscribe(bob, root.id, true)).toMatchObject({
      thread_root_id: root.id,
      following: true,
      last_read_message_id: root.id,
    });
  });

  it('moves the mark over the root and its replies, backwards too', async () => {
    const cid = await createChannel(alice, ws);
    const root = await postText(alice, ws, cid, 'root');
    const r1 = await reply(carol, cid, root, 'r1');
    await reply(carol, cid, root, 'r2 for bob', mentioning(actor.bob));
    const r3 = await reply(dave, cid, root, 'r3');

    const before = Date.now();
    const marked = await markThread(bob, root.id, r1.id);
    expect(Object.keys(marked).sort()).toEqual(READ_STATE_FIELDS);
    expect(marked).toMatchObject({
      conversation_id: cid,
      thread_root_id: root.id,
      last_read_message_id: r1.id,
      unread_count: 2,
      mention_count: 1,
    });
    expectSetDuring(marked.last_read_at, before, Date.now());
    expectSetDuring(marked.updated_at, before, Date.now());
    expect(await threadState(bob, root.id)).toEqual(marked);

    expect(await markThread(bob, root.id, r3.id)).toMatchObject({
      last_read_message_id: r3.id,
      unread_count: 0,
      mention_count: 0,
    });
    expect(await markThread(bob, root.id, root.id)).toMatchObject({
      last_read_message_id: root.id,
      unread_count: 3,
      mention_count: 1,
    });
    // The thread mark is not the conversation mark.
    expect(await conversationState(bob, cid)).toMatchObject({ last_read_message_id: null, unread_count: 1 });
  });

  it('stops counting deleted replies', async () => {
    const cid = await createChannel(alice, ws);
    const root = await postText(alice, ws, cid, 'root');
    const gone = await reply(carol, cid, root, 'r1 for bob', mentioning(actor.bob));
    await reply(carol, cid, root, 'r2');
    expect(await threadState(bob, root.id)).toMatchObject({ unread_count: 2, mention_count: 1 });
    await remove(carol, gone);
    expect(await threadState(bob, root.id)).toMatchObject({ unread_count: 1, mention_count: 0 });
  });

  it('refuses a mark outside the thread with 400 wrong_conversation and an unknown one with 404', async () => {
    const cid = await createChannel(alice, ws);
    const elsewhere = await createChannel(alice, ws);
    const root = await postText(alice, ws, cid, 'root');
    const own = await reply(carol, cid, root, 'r1');
    const sibling = await postText(alice, ws, cid, 'another root');
    const siblingReply = await reply(carol, cid, sibling, 'reply in another thread');
    const foreign = await postText(alice, ws, elsewhere, 'another conversation');
    const markedBefore = await markThread(bob, root.id, own.id);

    for (const messageId of [siblingReply.id, sibling.id, foreign.id]) {
      expectError(
        await inWorkspace(bob, ws, 'PUT', `/threads/${root.id}/read-state`, {
          body: { last_read_message_id: messageId },
        }),
        400,
        'wrong_conversation',
      );
    }
    expectError(
      await inWorkspace(bob, ws, 'PUT', `/threads/${root.id}/read-state`, { body: { last_read_message_id: UNKNOWN } }),
      404,
      'not_found',
    );
    for (const body of [{}, { last_read_message_id: 'nope' }, { last_read_message_id: 7 }]) {
      const err = expectError(
        await inWorkspace(bob, ws, 'PUT', `/threads/${root.id}/read-state`, { body }),
        400,
        'invalid_input',
      );
      expect(err.details?.map((d) => d.field)).toContain('body.last_read_message_id');
    }
    expect(await threadState(bob, root.id)).toEqual(markedBefore);
  });

  it('answers 404 for a reply, an unknown or a malformed root on every thread route', async () => {
    const cid = await createChannel(alice, ws);
    const root = await postText(alice, ws, cid, 'root');
    const r = await reply(carol, cid, root, 'a reply is no root');
    for (const bad of [r.id, UNKNOWN, 'not-a-uuid', cid]) {
      expectError(await inWorkspace(bob, ws, 'GET', `/threads/${bad}/read-state`), 404, 'not_found');
      expectError(
        await inWorkspace(bob, ws, 'PUT', `/threads/${bad}/read-state`, { body: { last_read_message_id: root.id } }),
        404,
        'not_found',
      );
      expectError(
        await inWorkspace(bob, ws, 'PUT', `/threads/${bad}/subscription`, { body: { following: true } }),
        404,
        'not_found',
      );
    }
    // A root id in capitals is the same root.
    expect(await threadState(bob, root.id.toUpperCase())).toEqual(await threadState(bob, root.id));
  });
});

describe('thread subscriptions', () => {
  it('follows automatically the root author, every replier and everyone mentioned in the root or a reply', async () => {
    const cid = await createChannel(alice, ws);
    const root = await postText(alice, ws, cid, 'root for carol', mentioning(actor.carol));
    expect(await following(alice, root.id)).toBe(true);
    expect(await following(carol, root.id)).toBe(true);
    expect(await following(bob, root.id)).toBe(false);
    expect(await following(dave, root.id)).toBe(false);

    await reply(bob, cid, root, 'bob replies');
    expect(await following(bob, root.id)).toBe(true);
    expect(await following(dave, root.id)).toBe(false);

    await reply(carol, cid, root, 'dave, look', mentioning(actor.dave));
    expect(await following(dave, root.id)).toBe(true);
  });

  it('lets a non-participant follow and anyone unfollow explicitly', async () => {
    const cid = await createChannel(alice, ws);
    const root = await postText(alice, ws, cid, 'root');
    await reply(carol, cid, root, 'r1');

    const followed = await subscribe(dave, root.id, true);
    expect(Object.keys(followed).sort()).toEqual(READ_STATE_FIELDS);
    expect(followed).toMatchObject({
      conversation_id: cid,
      thread_root_id: root.id,
      following: true,
      unread_count: 1,
      mention_count: 0,
    });
    expect(await following(dave, root.id)).toBe(true);
    expect(ids((await threads(dave, '?limit=100')).items)).toContain(root.id);

    expect(await subscribe(dave, root.id, false)).toMatchObject({ thread_root_id: root.id, following: false });
    expect(await following(dave, root.id)).toBe(false);
    expect(ids((await threads(dave, '?limit=100')).items)).not.toContain(root.id);

    expect(await subscribe(alice, root.id, false)).toMatchObject({ following: false });
    expect(await following(alice, root.id)).toBe(false);
  });

  it('keeps an explicit unfollow until the actor replies again', async () => {
    const cid = await createChannel(alice, ws);
    const root = await postText(alice, ws, cid, 'root');
    await reply(bob, cid, root, 'bob once');
    await subscribe(bob, root.id, false);
    await subscribe(alice, root.id, false);

    await reply(carol, cid, root, 'carol', mentioning(actor.dave));
    expect(await following(bob, root.id)).toBe(false);
    expect(await following(alice, root.id)).toBe(false);

    await reply(bob, cid, root, 'bob again');
    expect(await following(bob, root.id)).toBe(true);
    expect(await following(alice, root.id)).toBe(false);
  });

  it('keeps an explicit unfollow until the actor is mentioned again in a reply', async () => {
    const cid = await createChannel(alice, ws);
    const root = await postText(alice, ws, cid, 'root for carol', mentioning(actor.carol));
    await subscribe(carol, root.id, false);

    await reply(bob, cid, root, 'no mention');
    await reply(bob, cid, root, 'mentions dave', mentioning(actor.dave));
    expect(await following(carol, root.id)).toBe(false);

    await reply(bob, cid, root, 'carol, again', mentioning(actor.carol));
    expect(await following(carol, root.id)).toBe(true);
  });

  it('requires following to be a boolean', async () => {
    const cid = await createChannel(alice, ws);
    const root = await postText(alice, ws, cid, 'root');
    for (const body of [{}, { following: null }, { following: 'true' }, { following: 1 }, { following: 'yes' }]) {
      const err = expectError(
        await inWorkspace(bob, ws, 'PUT', `/threads/${root.id}/subscription`, { body }),
        400,
        'invalid_input',
      );
      expect(
        err.details?.map((d) => d.field),
        JSON.stringify(body),
      ).toContain('body.following');
    }
    expect(await following(bob, root.id)).toBe(false);
    // Body validation comes before looking up the root.
    expectError(
      await inWorkspace(bob, ws, 'PUT', '/threads/not-a-uuid/subscription', { body: { following: 'yes' } }),
      400,
      'invalid_input',
    );
    expectError(
      await inWorkspace(bob, ws, 'PUT', `/threads/${UNKNOWN}/read-state`, { body: { last_read_message_id: 'nope' } }),
      400,
      'invalid_input',
    );
  });
});

describe('thread inbox (GET /threads)', () => {
  it('lists the threads the caller follows, each with exactly its fields', async () => {
    const t = await team();
    const cid = await createChannel(alice, t.ws);
    const first = await postText(alice, t.ws, cid, 'first root');
    await reply(carol, cid, first, 'r1 for bob', mentioning(t.actor.bob), t.ws);
    const last = await reply(dave, cid, first, 'r2', {}, t.ws);
    const second = await postText(carol, t.ws, cid, 'second root');
    await reply(dave, cid, second, 'dave answers', {}, t.ws);

    const page = await threads(bob, '', t.ws);
    expect(page.next_cursor).toBeNull();
    expect(ids(page.items)).toEqual([first.id]);
    const item = page.items[0]!;
    expect(Object.keys(item).sort()).toEqual(THREAD_FIELDS);
    expect(item).toMatchObject({
      id: first.id,
      conversation_id: cid,
      reply_count: 2,
      last_reply_at: last.created_at,
      following: true,
      last_read_message_id: null,
      unread_count: 2,
      mention_count: 1,
    });
    expect(Object.keys(item.root_message).sort()).toEqual(MESSAGE_FIELDS);
    expect(item.root_message).toEqual(
      await ok<MessageBody>(inWorkspace(bob, t.ws, 'GET', `/conversations/${cid}/messages/${first.id}`)),
    );
    // The root is the caller's view of it: their own bookmark shows.
    const saved = await ok<{ saved_at: string }>(
      inWorkspace(bob, t.ws, 'PUT', `/conversations/${cid}/messages/${first.id}/saved`),
    );
    expect((await threads(bob, '', t.ws)).items[0]!.root_message.saved_at).toBe(saved.saved_at);
    expect((await threads(alice, '', t.ws)).items.find((i) => i.id === first.id)!.root_message.saved_at).toBeNull();

    const forDave = await threads(dave, '', t.ws);
    expect(ids(forDave.items)).toEqual([second.id, first.id]);
    expect(forDave.items.map((i) => [i.unread_count, i.mention_count, i.following])).toEqual([
      [0, 0, true],
      [1, 0, true],
    ]);

    const marked = await markThread(bob, first.id, last.id, t.ws);
    expect((await threads(bob, '', t.ws)).items[0]).toMatchObject({
      last_read_message_id: marked.last_read_message_id,
      unread_count: 0,
      mention_count: 0,
    });
  });

  it('never lists a root without replies, even a followed one', async () => {
    const t = await team();
    const cid = await createChannel(alice, t.ws);
    const lonely = await postText(alice, t.ws, cid, 'no replies', mentioning(t.actor.bob));
    await subscribe(carol, lonely.id, true, t.ws);
    for (const who of [alice, bob, carol]) {
      for (const query of ['', '?following=true', '?following=false']) {
        expect(await threads(who, query, t.ws)).toEqual({ items: [], next_cursor: null });
      }
    }
    await reply(dave, cid, lonely, 'now it is a thread', {}, t.ws);
    expect(ids((await threads(carol, '', t.ws)).items)).toEqual([lonely.id]);
  });

  it('lists every thread of the workspace with following=false, unfollowed ones too', async () => {
    const t = await team();
    const cid = await createChannel(alice, t.ws);
    const other = await createChannel(carol, t.ws);
    const t1 = await postText(alice, t.ws, cid, 't1');
    await reply(bob, cid, t1, 'bob', {}, t.ws);
    const t2 = await postText(carol, t.ws, other, 't2');
    await reply(dave, other, t2, 'dave', {}, t.ws);
    await subscribe(bob, t1.id, false, t.ws);

    expect(await threads(bob, '', t.ws)).toEqual({ items: [], next_cursor: null });
    expect((await threads(bob, '?following=true', t.ws)).items).toEqual([]);
    const all = await threads(bob, '?following=false', t.ws);
    expect(ids(all.items)).toEqual([t2.id, t1.id]);
    expect(all.items.map((i) => [i.conversation_id, i.following])).toEqual([
      [other, false],
      [cid, false],
    ]);
    expect(all.next_cursor).toBeNull();
  });

  it('keeps only threads with unread replies when unread=true', async () => {
    const t = await team();
    const cid = await createChannel(alice, t.ws);
    const t1 = await postText(alice, t.ws, cid, 't1');
    await reply(carol, cid, t1, 'carol', {}, t.ws);
    const t2 = await postText(alice, t.ws, cid, 't2');
    const t2Reply = await reply(carol, cid, t2, 'carol', {}, t.ws);
    const t3 = await postText(alice, t.ws, cid, 't3');
    await reply(alice, cid, t3, "alice's own reply", {}, t.ws);

    expect(ids((await threads(alice, '', t.ws)).items)).toEqual([t3.id, t2.id, t1.id]);
    expect(ids((await threads(alice, '?unread=false', t.ws)).items)).toEqual([t3.id, t2.id, t1.id]);
    expect(ids((await threads(alice, '?unread=true', t.ws)).items)).toEqual([t2.id, t1.id]);

    await markThread(alice, t2.id, t2Reply.id, t.ws);
    const unread = await threads(alice, '?unread=true', t.ws);
    expect(ids(unread.items)).toEqual([t1.id]);
    expect(unread.items[0]!.unread_count).toBeGreaterThan(0);
    expect(ids((await threads(alice, '?following=false&unread=true', t.ws)).items)).toEqual([t1.id]);

    // Bob follows nothing, but every thread has replies unread by him.
    expect((await threads(bob, '?unread=true', t.ws)).items).toEqual([]);
    expect(ids((await threads(bob, '?following=false&unread=true', t.ws)).items)).toEqual([t3.id, t2.id, t1.id]);
  });

  it('does not count a thread whose unread replies were deleted as unread', async () => {
    const t = await team();
    const cid = await createChannel(alice, t.ws);
    const root = await postText(alice, t.ws, cid, 'root');
    const gone = await reply(carol, cid, root, 'soon deleted', mentioning(t.actor.bob), t.ws);
    expect(ids((await threads(alice, '?unread=true', t.ws)).items)).toEqual([root.id]);
    expect(ids((await threads(bob, '?unread=true', t.ws)).items)).toEqual([root.id]);
    await remove(carol, gone, t.ws);
    expect((await threads(alice, '?unread=true', t.ws)).items).toEqual([]);
    expect((await threads(bob, '?following=false&unread=true', t.ws)).items).toEqual([]);
  });

  it('orders by root id descending and pages without gaps or repeats', async () => {
    const t = await team();
    const cid = await createChannel(alice, t.ws);
    const roots: MessageBody[] = [];
    for (let i = 0; i < 5; i++) {
      const root = await postText(alice, t.ws, cid, `root ${i}`);
      await reply(bob, cid, root, `reply ${i}`, {}, t.ws);
      roots.push(root);
    }
    const expected = roots.map((r) => r.id).reverse();
    expect([...expected].sort().reverse()).toEqual(expected);

    const pages = await walk<ThreadBody>((cursor) =>
      inWorkspace(alice, t.ws, 'GET', `/threads?limit=2${cursor ? `&cursor=${cursor}` : ''}`),
    );
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
    expect(pages.flat().map((i) => i.id)).toEqual(expected);

    expect((await threads(alice, '?limit=5', t.ws)).next_cursor).toBeNull();
    const firstFour = await threads(alice, '?limit=4', t.ws);
    expect(ids(firstFour.items)).toEqual(expected.slice(0, 4));
    expect(firstFour.next_cursor).toBe(expected[3]);
    expect(await threads(alice, `?limit=4&cursor=${firstFour.next_cursor}`, t.ws)).toMatchObject({
      next_cursor: null,
      items: [expect.objectContaining({ id: expected[4] })],
    });
    expect(ids((await threads(alice, '', t.ws)).items)).toEqual(expected);
  });

  it('shows on the root and the thread what its replies did', async () => {
    const t = await team();
    const cid = await createChannel(alice, t.ws);
    const root = await postText(alice, t.ws, cid, 'root');
    await reply(carol, cid, root, 'carol', {}, t.ws);
    await reply(bob, cid, root, 'bob', {}, t.ws);
    await reply(carol, cid, root, 'carol again', {}, t.ws);
    const newest = await reply(dave, cid, root, 'dave', {}, t.ws);

    const got = await ok<MessageBody>(inWorkspace(alice, t.ws, 'GET', `/conversations/${cid}/messages/${root.id}`));
    expect(got).toMatchObject({
      reply_count: 4,
      reply_actor_ids: [t.actor.carol, t.actor.bob, t.actor.dave],
      last_reply_at: newest.created_at,
    });
    const [item] = (await threads(alice, '', t.ws)).items;
    expect(item).toMatchObject({ id: root.id, reply_count: 4, last_reply_at: newest.created_at, unread_count: 4 });
    expect(item!.root_message).toEqual(got);
  });

  it('accepts only true and false as booleans and validates limit and cursor', async () => {
    const cases: Array<[string, string]> = [
      ['following=yes', 'query.following'],
      ['following=1', 'query.following'],
      ['following=', 'query.following'],
      ['unread=1', 'query.unread'],
      ['unread=TRUE', 'query.unread'],
      ['limit=0', 'query.limit'],
      ['limit=101', 'query.limit'],
      ['limit=x', 'query.limit'],
      ['limit=1.5', 'query.limit'],
      ['cursor=not-a-uuid', 'query.cursor'],
    ];
    for (const [query, field] of cases) {
      const err = expectError(await inWorkspace(bob, ws, 'GET', `/threads?${query}`), 400, 'invalid_input');
      expect(
        err.details?.map((d) => d.field),
        query,
      ).toContain(field);
    }
    for (const query of [
      'following=true&unread=false',
      'following=false&unread=true',
      'limit=1',
      'limit=100',
      `cursor=${UNKNOWN}`,
    ]) {
      expect((await inWorkspace(bob, ws, 'GET', `/threads?${query}`)).status, query).toBe(200);
    }
  });
});

describe('events', () => {
  it("records read_state.updated on the caller's actor channel for every PUT, and nothing for reads or refusals", async () => {
    const cid = await createChannel(alice, ws);
    const root = await postText(alice, ws, cid, 'root');
    const r = await reply(carol, cid, root, 'reply');
    const foreign = await postText(alice, ws, await createChannel(alice, ws), 'elsewhere');

    const answers = [
      await markConversation(bob, cid, root.id),
      await ok<ReadStateBody>(
        inWorkspace(bob, ws, 'PUT', `/channels/${cid}/read-state`, { body: { last_read_message_id: r.id } }),
      ),
      await markThread(bob, root.id, r.id),
      await subscribe(bob, root.id, true),
    ];
    await conversationState(bob, cid);
    await threadState(bob, root.id);
    await threads(bob);
    expectError(
      await inWorkspace(bob, ws, 'PUT', `/conversations/${cid}/read-state`, {
        body: { last_read_message_id: foreign.id },
      }),
      400,
      'wrong_conversation',
    );

    const rows = await recordedEvents<{ event_id: string; read_state: ReadStateBody }>(
      'messaging',
      `payload -> 'read_state' ->> 'conversation_id' = $1`,
      [cid],
    );
    expect(rows).toHaveLength(answers.length);
    for (const row of rows) {
      expect(row).toMatchObject({ channel: `private-actor-${actor.bob}`, event: 'read_state.updated' });
      expect(Object.keys(row.payload).sort()).toEqual(['event_id', 'read_state']);
      expect(row.payload.event_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    }
    expect(new Set(rows.map((row) => row.payload.event_id)).size).toBe(rows.length);
    expect(rows.map((row) => row.payload.read_state)).toEqual(expect.arrayContaining(answers));
  });
});

describe('workspace isolation', () => {
  it("answers 404 to a member of another workspace for this workspace's read states and threads", async () => {
    const cid = await createChannel(alice, ws);
    const root = await postText(alice, ws, cid, 'root');
    const r = await reply(bob, cid, root, 'reply');

    // With A's header she is no member of A at all.
    expectError(await inWorkspace(olga, ws, 'GET', `/conversations/${cid}/read-state`), 404, 'workspace_not_found');
    expectError(await inWorkspace(olga, ws, 'GET', '/threads'), 404, 'workspace_not_found');

    const asOlga = (method: string, path: string, body?: unknown) =>
      inWorkspace(olga, wsB, method, path, body === undefined ? {} : { body });
    for (const form of ['conversations', 'channels']) {
      expectError(await asOlga('GET', `/${form}/${cid}/read-state`), 404, 'not_found');
      expectError(
        await asOlga('PUT', `/${form}/${cid}/read-state`, { last_read_message_id: root.id }),
        404,
        'not_found',
      );
    }
    expectError(await asOlga('GET', `/threads/${root.id}/read-state`), 404, 'not_found');
    expectError(
      await asOlga('PUT', `/threads/${root.id}/read-state`, { last_read_message_id: r.id }),
      404,
      'not_found',
    );
    expectError(await asOlga('PUT', `/threads/${root.id}/subscription`, { following: true }), 404, 'not_found');
    expect(ids((await threads(olga, '?following=false&limit=100', wsB)).items)).not.toContain(root.id);
    // Nothing was recorded for the outsider.
    expect(
      await recordedEvents(
        'messaging',
        `event = 'read_state.updated' AND payload -> 'read_state' ->> 'conversation_id' = $1`,
        [cid],
      ),
    ).toEqual([]);
  });

  it("treats another workspace's message as unknown when marking (404)", async () => {
    const cidB = await createChannel(olga, wsB);
    const rootB = await postText(olga, wsB, cidB, 'root in B');
    const cid = await createChannel(alice, ws);
    const root = await postText(alice, ws, cid, 'root in A');
    expectError(
      await inWorkspace(alice, ws, 'PUT', `/conversations/${cid}/read-state`, {
        body: { last_read_message_id: rootB.id },
      }),
      404,
      'not_found',
    );
    expectError(
      await inWorkspace(alice, ws, 'PUT', `/threads/${root.id}/read-state`, {
        body: { last_read_message_id: rootB.id },
      }),
      404,
      'not_found',
    );
  });

  it('never lists threads of another workspace', async () => {
    const cidB = await createChannel(olga, wsB);
    const rootB = await postText(olga, wsB, cidB, 'root in B');
    await reply(alice, cidB, rootB, 'alice answers in B', {}, wsB);
    const cid = await createChannel(alice, ws);
    const rootA = await postText(alice, ws, cid, 'root in A');
    await reply(bob, cid, rootA, 'bob answers in A');

    expect(ids((await threads(alice, '?limit=100', wsB)).items)).toEqual([rootB.id]);
    const everyPageInA = await walk<ThreadBody>((cursor) =>
      inWorkspace(alice, ws, 'GET', `/threads?following=false&limit=100${cursor ? `&cursor=${cursor}` : ''}`),
    );
    const inA = everyPageInA.flat().map((i) => i.id);
    expect(inA).toContain(rootA.id);
    expect(inA).not.toContain(rootB.id);
    expect(everyPageInA.flat().every((i) => i.root_message.workspace_id === ws)).toBe(true);
  });
});
