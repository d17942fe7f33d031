import { beforeAll, describe, expect, it } from 'vitest';
import { type Account, expectError, signUp } from './support/accounts.ts';
import { recordedEvents } from './support/events.ts';
import type { ApiResponse } from './support/http.ts';
import { createChannel, MESSAGE_FIELDS, type MessageBody, type Page, postText, walk } from './support/messages.ts';
import { addMember, createWorkspace, inWorkspace, myActor } from './support/workspaces.ts';

interface ReactionsBody {
  message_id: string;
  reactions: Array<{ emoji: string; actor_ids: string[] }>;
  reactions_version: number;
}

interface SavedBody {
  message_id: string;
  saved: boolean;
  saved_at: string | null;
}

let owner: Account;
let member: Account;
let other: Account;
let ws: string;
let conv: string;
let otherConv: string;
let actors: { owner: string; member: string; other: string };

beforeAll(async () => {
  [owner, member, other] = await Promise.all([signUp('act-owner'), signUp('act-member'), signUp('act-other')]);
  ws = (await createWorkspace(owner)).id;
  await addMember(owner, ws, member);
  await addMember(owner, ws, other);
  [conv, otherConv] = [await createChannel(owner, ws, 'actions'), await createChannel(owner, ws, 'elsewhere')];
  const [o, m, x] = await Promise.all([owner, member, other].map((acc) => myActor(acc, ws)));
  actors = { owner: o!.id, member: m!.id, other: x!.id };
});

const UNKNOWN_ID = '00000000-0000-7000-8000-000000000000';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

const messagePath = (conversationId: string, messageId: string, rest = '') =>
  `/conversations/${conversationId}/messages/${messageId}${rest}`;
const reactionPath = (messageId: string, emoji: string, conversationId = conv) =>
  messagePath(conversationId, messageId, `/reactions/${encodeURIComponent(emoji)}`);
const savedPath = (messageId: string, conversationId = conv) => messagePath(conversationId, messageId, '/saved');

/** PUT (or DELETE) the caller's reaction and expect 200 with exactly the MessageReactions fields. */
async function react(
  account: Account,
  messageId: string,
  emoji: string,
  method: 'PUT' | 'DELETE' = 'PUT',
): Promise<ReactionsBody> {
  const res = await inWorkspace(account, ws, method, reactionPath(messageId, emoji));
  expect(res.status, `${method} ${emoji}: ${JSON.stringify(res.body)}`).toBe(200);
  expect(Object.keys(res.body as object).sort()).toEqual(['message_id', 'reactions', 'reactions_version']);
  expect((res.body as ReactionsBody).message_id).toBe(messageId);
  return res.body as ReactionsBody;
}
const unreact = (account: Account, messageId: string, emoji: string) => react(account, messageId, emoji, 'DELETE');

/** PUT (or DELETE) the caller's bookmark and expect 200 with exactly the SavedMessageState fields. */
async function save(
  account: Account,
  messageId: string,
  method: 'PUT' | 'DELETE' = 'PUT',
  workspaceId = ws,
  conversationId = conv,
): Promise<SavedBody> {
  const res = await inWorkspace(account, workspaceId, method, savedPath(messageId, conversationId));
  expect(res.status, `${method} saved: ${JSON.stringify(res.body)}`).toBe(200);
  expect(Object.keys(res.body as object).sort()).toEqual(['message_id', 'saved', 'saved_at']);
  expect((res.body as SavedBody).message_id).toBe(messageId);
  return res.body as SavedBody;
}
const unsave = (account: Account, messageId: string) => save(account, messageId, 'DELETE');

async function getMessage(account: Account, messageId: string, conversationId = conv): Promise<MessageBody> {
  const res = await inWorkspace(account, ws, 'GET', messagePath(conversationId, messageId));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as MessageBody;
}

/** The message as the conversation's list shows it to the account. */
async function listedMessage(account: Account, messageId: string): Promise<MessageBody | undefined> {
  const res = await inWorkspace(account, ws, 'GET', `/conversations/${conv}/messages?limit=100`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as Page<MessageBody>).items.find((m) => m.id === messageId);
}

const savedMessages = (account: Account, query = '', workspaceId = ws): Promise<ApiResponse> =>
  inWorkspace(account, workspaceId, 'GET', `/saved-messages${query}`);

async function savedIds(account: Account, workspaceId = ws): Promise<string[]> {
  const res = await savedMessages(account, '?limit=100', workspaceId);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as Page<MessageBody>).items.map((m) => m.id);
}

/** A member of `ws` with no saves yet, so that its saved list holds only what a test puts there. */
async function freshMember(tag: string): Promise<Account> {
  const account = await signUp(tag);
  await addMember(owner, ws, account);
  return account;
}

/** Recorded events of one kind about one message, oldest first (the key holds the payload's `message_id`). */
const outbox = <P>(event: string, key: 'reactions' | 'saved', messageId: string) =>
  recordedEvents<P>('messaging', `event = $1 AND payload -> '${key}' ->> 'message_id' = $2`, [event, messageId]);

describe('reactions', () => {
  it('adds reactions ordered by first reaction, actors in reaction order, one version step per change', async () => {
    const m = await postText(member, ws, conv, 'react to me');
    expect(await react(owner, m.id, '👍')).toEqual({
      message_id: m.id,
      reactions: [{ emoji: '👍', actor_ids: [actors.owner] }],
      reactions_version: 1,
    });
    await react(member, m.id, '🎉');
    await react(other, m.id, '👍');
    const last = await react(member, m.id, '👍');
    expect(last).toEqual({
      message_id: m.id,
      reactions: [
        { emoji: '👍', actor_ids: [actors.owner, actors.other, actors.member] },
        { emoji: '🎉', actor_ids: [actors.member] },
      ],
      reactions_version: 4,
    });
  });

  it('treats a repeated PUT and a DELETE of an absent reaction as no change', async () => {
    const m = await postText(member, ws, conv, 'idempotent');
    const first = await react(owner, m.id, '🚀');
    expect(await react(owner, m.id, '🚀')).toEqual(first);
    expect(await unreact(member, m.id, '🚀')).toEqual(first);
    expect(await unreact(owner, m.id, '🎉')).toEqual(first);
    expect(first.reactions_version).toBe(1);
    const removed = await unreact(owner, m.id, '🚀');
    expect(removed).toEqual({ message_id: m.id, reactions: [], reactions_version: 2 });
    expect(await unreact(owner, m.id, '🚀')).toEqual(removed);
  });

  it("removes only the caller's reaction, and a re-added reaction goes to the end of its actors", async () => {
    const m = await postText(member, ws, conv, 'mine only');
    await react(owner, m.id, '👀');
    await react(member, m.id, '👀');
    expect((await unreact(owner, m.id, '👀')).reactions).toEqual([{ emoji: '👀', actor_ids: [actors.member] }]);
    const readded = await react(owner, m.id, '👀');
    expect(readded).toEqual({
      message_id: m.id,
      reactions: [{ emoji: '👀', actor_ids: [actors.member, actors.owner] }],
      reactions_version: 4,
    });
  });

  it('shows the same reactions and version on the message, fetched alone or listed, to every member', async () => {
    const m = await postText(member, ws, conv, 'visible');
    expect(m).toMatchObject({ reactions: [], reactions_version: 0 });
    await react(owner, m.id, '🎉');
    const state = await react(other, m.id, '🇫🇷');
    for (const viewer of [owner, member, other]) {
      expect(await getMessage(viewer, m.id)).toMatchObject({
        reactions: state.reactions,
        reactions_version: state.reactions_version,
      });
      expect(await listedMessage(viewer, m.id)).toMatchObject({
        reactions: state.reactions,
        reactions_version: state.reactions_version,
      });
    }
  });

  it('accepts one RGI emoji of every kind and keeps it as sent', async () => {
    const m = await postText(member, ws, conv, 'all kinds');
    const kinds = ['👍🏽', '👨‍👩‍👧', '🇫🇷', '1️⃣', '🏴󠁧󠁢󠁳󠁣󠁴󠁿', '❤️'];
    for (const emoji of kinds) await react(owner, m.id, emoji);
    const got = await getMessage(member, m.id);
    expect(got.reactions).toEqual(kinds.map((emoji) => ({ emoji, actor_ids: [actors.owner] })));
    expect(got.reactions_version).toBe(kinds.length);
  });

  it('stores a text-style character in its emoji form, so both spellings are one reaction', async () => {
    const m = await postText(member, ws, conv, 'hearts');
    expect(await react(owner, m.id, '❤')).toEqual({
      message_id: m.id,
      reactions: [{ emoji: '❤️', actor_ids: [actors.owner] }],
      reactions_version: 1,
    });
    // The emoji form by the same actor is a repeat; by another actor it joins the same reaction.
    expect((await react(owner, m.id, '❤️')).reactions_version).toBe(1);
    expect((await react(member, m.id, '❤️')).reactions).toEqual([
      { emoji: '❤️', actor_ids: [actors.owner, actors.member] },
    ]);
    // Removing with the text form removes the emoji-form reaction.
    expect(await unreact(owner, m.id, '❤')).toEqual({
      message_id: m.id,
      reactions: [{ emoji: '❤️', actor_ids: [actors.member] }],
      reactions_version: 3,
    });
  });

  it('refuses anything but exactly one emoji with 400 invalid_emoji, on PUT and DELETE', async () => {
    const m = await postText(member, ws, conv, 'not emoji');
    for (const text of ['a', 'thumbsup', ':+1:', '👍👍', '🇫', '👍 ', '1']) {
      expectError(await inWorkspace(owner, ws, 'PUT', reactionPath(m.id, text)), 400, 'invalid_emoji');
      expectError(await inWorkspace(owner, ws, 'DELETE', reactionPath(m.id, text)), 400, 'invalid_emoji');
    }
    expect(await getMessage(owner, m.id)).toMatchObject({ reactions: [], reactions_version: 0 });
  });

  it('answers a malformed percent-encoding of the emoji with a 400 error body, not a 500', async () => {
    const m = await postText(member, ws, conv, 'bad encoding');
    const cases = ['%E0%A4%A', '%FF', '%'].flatMap((encoded) =>
      ['PUT', 'DELETE'].map((method) => ({ method, encoded })),
    );
    const answers = await Promise.all(
      cases.map(({ method, encoded }) =>
        inWorkspace(owner, ws, method, messagePath(conv, m.id, `/reactions/${encoded}`)),
      ),
    );
    // All cases at once first, so that a failure names every one that is wrong.
    expect(answers.map((res, i) => ({ ...cases[i], status: res.status }))).toEqual(
      cases.map((c) => ({ ...c, status: 400 })),
    );
    for (const res of answers) expectError(res, 400, 'invalid_input');
    expect(await getMessage(owner, m.id)).toMatchObject({ reactions: [], reactions_version: 0 });
  });

  it('holds at most 50 distinct emoji: the 51st is 400 too_many_reactions, more actors on one still fine', async () => {
    const m = await postText(member, ws, conv, 'crowded');
    const fifty = Array.from({ length: 50 }, (_, i) => String.fromCodePoint(0x1f600 + i));
    for (const emoji of fifty) await react(owner, m.id, emoji);
    const full = await getMessage(owner, m.id);
    expect(full.reactions.map((r) => r.emoji)).toEqual(fifty);
    expect(full.reactions_version).toBe(50);

    const fiftyFirst = String.fromCodePoint(0x1f600 + 50);
    expectError(await inWorkspace(member, ws, 'PUT', reactionPath(m.id, fiftyFirst)), 400, 'too_many_reactions');
    expectError(await inWorkspace(owner, ws, 'PUT', reactionPath(m.id, fiftyFirst)), 400, 'too_many_reactions');
    expect((await react(owner, m.id, fifty[0]!)).reactions_version).toBe(50);
    expect((await react(member, m.id, fifty[49]!)).reactions.at(-1)).toEqual({
      emoji: fifty[49],
      actor_ids: [actors.owner, actors.member],
    });

    // Once an emoji is gone entirely there is room again.
    await unreact(owner, m.id, fifty[1]!);
    const room = await react(member, m.id, fiftyFirst);
    expect(room.reactions).toHaveLength(50);
    expect(room.reactions.at(-1)).toEqual({ emoji: fiftyFirst, actor_ids: [actors.member] });
  });

  it('refuses to react to a deleted message with 409, lets DELETE answer 200, and empties reactions on delete', async () => {
    const m = await postText(member, ws, conv, 'to be deleted');
    await react(owner, m.id, '👍');
    await react(other, m.id, '🎉');
    expect((await inWorkspace(member, ws, 'DELETE', messagePath(conv, m.id))).status).toBe(204);

    const deleted = await getMessage(owner, m.id);
    expect(deleted.deleted_at).not.toBeNull();
    expect(deleted.reactions).toEqual([]);
    expect((await listedMessage(other, m.id))?.reactions).toEqual([]);

    expectError(await inWorkspace(owner, ws, 'PUT', reactionPath(m.id, '👍')), 409, 'message_deleted');
    expectError(await inWorkspace(member, ws, 'PUT', reactionPath(m.id, '🚀')), 409, 'message_deleted');
    for (const [who, emoji] of [
      [owner, '👍'],
      [other, '🎉'],
      [member, '🚀'],
    ] as const) {
      expect(await unreact(who, m.id, emoji)).toEqual({
        message_id: m.id,
        reactions: [],
        reactions_version: deleted.reactions_version,
      });
    }
    expect(await getMessage(owner, m.id)).toMatchObject({
      reactions: [],
      reactions_version: deleted.reactions_version,
    });
  });

  it('answers 404 for an unknown message or one of another conversation, 400 for malformed ids', async () => {
    const m = await postText(member, ws, otherConv, 'in the other channel');
    for (const method of ['PUT', 'DELETE']) {
      expectError(await inWorkspace(owner, ws, method, reactionPath(UNKNOWN_ID, '👍')), 404, 'not_found');
      expectError(await inWorkspace(owner, ws, method, reactionPath(m.id, '👍', conv)), 404, 'not_found');
      expectError(await inWorkspace(owner, ws, method, reactionPath(m.id, '👍', UNKNOWN_ID)), 404, 'not_found');
      const badMessage = expectError(
        await inWorkspace(owner, ws, method, reactionPath('not-a-uuid', '👍')),
        400,
        'invalid_input',
      );
      expect(badMessage.details?.map((d) => d.field)).toContain('path.message_id');
      const badConversation = expectError(
        await inWorkspace(owner, ws, method, reactionPath(m.id, '👍', 'not-a-uuid')),
        400,
        'invalid_input',
      );
      expect(badConversation.details?.map((d) => d.field)).toContain('path.conversation_id');
    }
    expect(await getMessage(owner, m.id, otherConv)).toMatchObject({ reactions: [], reactions_version: 0 });
  });
});

describe('saved messages', () => {
  it('saves with 200 SavedMessageState, keeps the first save on repeat, and unsaves idempotently', async () => {
    const m = await postText(other, ws, conv, 'bookmark me');
    const saved = await save(member, m.id);
    expect(saved).toEqual({ message_id: m.id, saved: true, saved_at: expect.stringMatching(TIMESTAMP) });
    expect(await save(member, m.id)).toEqual(saved);
    expect(await unsave(member, m.id)).toEqual({ message_id: m.id, saved: false, saved_at: null });
    expect(await unsave(member, m.id)).toEqual({ message_id: m.id, saved: false, saved_at: null });
    expect((await getMessage(member, m.id)).saved_at).toBeNull();
  });

  it("shows saved_at only to the saver, and unsaving removes only the caller's bookmark", async () => {
    const m = await postText(other, ws, conv, 'private bookmark');
    const mine = await save(member, m.id);
    expect((await getMessage(member, m.id)).saved_at).toBe(mine.saved_at);
    expect((await listedMessage(member, m.id))?.saved_at).toBe(mine.saved_at);
    for (const viewer of [owner, other]) {
      expect((await getMessage(viewer, m.id)).saved_at).toBeNull();
      expect((await listedMessage(viewer, m.id))?.saved_at).toBeNull();
    }

    const theirs = await save(owner, m.id);
    await unsave(member, m.id);
    expect((await getMessage(member, m.id)).saved_at).toBeNull();
    expect((await getMessage(owner, m.id)).saved_at).toBe(theirs.saved_at);
  });

  it('refuses to save a deleted message with 409 and lets its bookmark be removed with 200', async () => {
    const m = await postText(member, ws, conv, 'saved then deleted');
    const fresh = await postText(member, ws, conv, 'deleted unsaved');
    await save(owner, m.id);
    for (const id of [m.id, fresh.id])
      expect((await inWorkspace(member, ws, 'DELETE', messagePath(conv, id))).status).toBe(204);
    expectError(await inWorkspace(owner, ws, 'PUT', savedPath(m.id)), 409, 'message_deleted');
    expectError(await inWorkspace(owner, ws, 'PUT', savedPath(fresh.id)), 409, 'message_deleted');
    expect(await unsave(owner, m.id)).toEqual({ message_id: m.id, saved: false, saved_at: null });
    expect(await unsave(owner, fresh.id)).toEqual({ message_id: fresh.id, saved: false, saved_at: null });
  });

  it('answers 404 for an unknown message or one of another conversation, 400 for malformed ids', async () => {
    const m = await postText(member, ws, otherConv, 'not here');
    for (const method of ['PUT', 'DELETE']) {
      expectError(await inWorkspace(owner, ws, method, savedPath(UNKNOWN_ID)), 404, 'not_found');
      expectError(await inWorkspace(owner, ws, method, savedPath(m.id, conv)), 404, 'not_found');
      const badMessage = expectError(
        await inWorkspace(owner, ws, method, savedPath('not-a-uuid')),
        400,
        'invalid_input',
      );
      expect(badMessage.details?.map((d) => d.field)).toContain('path.message_id');
      const badConversation = expectError(
        await inWorkspace(owner, ws, method, savedPath(m.id, 'not-a-uuid')),
        400,
        'invalid_input',
      );
      expect(badConversation.details?.map((d) => d.field)).toContain('path.conversation_id');
    }
    expect((await getMessage(owner, m.id, otherConv)).saved_at).toBeNull();
  });
});

describe('GET /saved-messages', () => {
  it('lists full Messages newest save first, in save order rather than message order', async () => {
    const reader = await freshMember('saved-order');
    const [a, b, c] = [
      await postText(owner, ws, conv, 'a'),
      await postText(owner, ws, conv, 'b'),
      await postText(owner, ws, conv, 'c'),
    ];
    const savedAt = new Map<string, string | null>();
    for (const m of [c, a, b]) savedAt.set(m.id, (await save(reader, m.id)).saved_at);
    await save(reader, c.id); // a repeat keeps c's first save, so its place too

    const res = await savedMessages(reader);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const page = res.body as Page<MessageBody>;
    expect(Object.keys(page).sort()).toEqual(['items', 'next_cursor']);
    expect(page.next_cursor).toBeNull();
    expect(page.items.map((m) => m.id)).toEqual([b.id, a.id, c.id]);
    for (const item of page.items) {
      expect(Object.keys(item).sort()).toEqual(MESSAGE_FIELDS);
      expect(item.saved_at).toBe(savedAt.get(item.id));
      expect(item).toEqual(await getMessage(reader, item.id));
    }
  });

  it("omits unsaved and deleted messages, other users' saves and other workspaces' saves", async () => {
    const reader = await freshMember('saved-scope');
    const [kept, unsaved, deleted] = [
      await postText(owner, ws, conv, 'kept'),
      await postText(owner, ws, conv, 'unsaved'),
      await postText(owner, ws, conv, 'deleted'),
    ];
    for (const m of [kept, unsaved, deleted]) await save(reader, m.id);
    const byOthers = await postText(owner, ws, otherConv, 'saved by others');
    await save(owner, byOthers.id, 'PUT', ws, otherConv);
    await save(member, kept.id);

    // The reader's saves in a second workspace stay there.
    const second = (await createWorkspace(owner, 'Second')).id;
    await addMember(owner, second, reader);
    const secondConv = await createChannel(owner, second, 'second');
    const there = await postText(owner, second, secondConv, 'in the second workspace');
    await save(reader, there.id, 'PUT', second, secondConv);

    await unsave(reader, unsaved.id);
    expect((await inWorkspace(owner, ws, 'DELETE', messagePath(conv, deleted.id))).status).toBe(204);

    expect(await savedIds(reader)).toEqual([kept.id]);
    expect(await savedIds(reader, second)).toEqual([there.id]);
    expect(await savedIds(owner)).not.toContain(kept.id);
    expect(await savedIds(owner)).toContain(byOthers.id);
  });

  it('walks every page with limit=2 without duplicates or gaps, next_cursor null only on the last page', async () => {
    const reader = await freshMember('saved-walk');
    const messages: MessageBody[] = [];
    for (let i = 0; i < 5; i++) messages.push(await postText(owner, ws, conv, `walk ${i}`));
    const newestSaveFirst = () => messages.map((m) => m.id).reverse();
    for (const m of messages) await save(reader, m.id);

    const pagesOf = () =>
      walk<MessageBody>((cursor) =>
        savedMessages(reader, `?limit=2${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`),
      );
    const odd = await pagesOf();
    expect(odd.map((p) => p.length)).toEqual([2, 2, 1]);
    expect(odd.flat().map((m) => m.id)).toEqual(newestSaveFirst());

    // An exact multiple of the limit: the second page is the last one, no empty page after it.
    await unsave(reader, messages.shift()!.id);
    const even = await pagesOf();
    expect(even.map((p) => p.length)).toEqual([2, 2]);
    expect(even.flat().map((m) => m.id)).toEqual(newestSaveFirst());
  });

  it('validates limit and cursor with 400 invalid_input', async () => {
    for (const limit of ['0', '101', 'x', '1.5', '-1']) {
      const err = expectError(await savedMessages(member, `?limit=${limit}`), 400, 'invalid_input');
      expect(
        err.details?.map((d) => d.field),
        `limit=${limit}`,
      ).toContain('query.limit');
    }
    for (const cursor of ['abc', 'a'.repeat(513), 'a'.repeat(512), UNKNOWN_ID]) {
      const err = expectError(await savedMessages(member, `?cursor=${cursor}`), 400, 'invalid_input');
      expect(
        err.details?.map((d) => d.field),
        `cursor=${cursor.slice(0, 20)}`,
      ).toContain('query.cursor');
    }
    for (const limit of ['1', '100']) expect((await savedMessages(member, `?limit=${limit}`)).status).toBe(200);
  });
});

describe('events', () => {
  it('records reactions.updated on the conversation channel for every real change and none for repeats', async () => {
    const m = await postText(member, ws, conv, 'evented reactions');
    const changes = [await react(owner, m.id, '👍')];
    await react(owner, m.id, '👍');
    changes.push(await react(member, m.id, '❤'));
    await unreact(other, m.id, '👍');
    changes.push(await unreact(owner, m.id, '👍'));
    await unreact(owner, m.id, '👍');
    expectError(await inWorkspace(owner, ws, 'PUT', reactionPath(m.id, 'nope')), 400, 'invalid_emoji');

    const rows = await outbox<{ event_id: string; conversation_id: string; reactions: ReactionsBody }>(
      'reactions.updated',
      'reactions',
      m.id,
    );
    expect(rows.map((r) => r.channel)).toEqual(changes.map(() => `private-conversation-${conv}`));
    expect(rows.map((r) => r.payload)).toEqual(
      changes.map((reactions) => ({ event_id: expect.stringMatching(UUID), conversation_id: conv, reactions })),
    );
    expect(new Set(rows.map((r) => r.payload.event_id)).size).toBe(changes.length);
  });

  it("records saved.updated on the saver's actor channel for every real change and none for repeats", async () => {
    const m = await postText(owner, ws, conv, 'evented bookmark');
    const saved = await save(member, m.id);
    await save(member, m.id);
    const unsaved = await unsave(member, m.id);
    await unsave(member, m.id);

    const rows = await outbox<{ event_id: string; saved: SavedBody }>('saved.updated', 'saved', m.id);
    expect(rows.map((r) => r.channel)).toEqual([`private-actor-${actors.member}`, `private-actor-${actors.member}`]);
    expect(rows.map((r) => r.payload)).toEqual([
      { event_id: expect.stringMatching(UUID), saved },
      { event_id: expect.stringMatching(UUID), saved: unsaved },
    ]);
    expect(rows[0]!.payload.event_id).not.toBe(rows[1]!.payload.event_id);
  });
});

describe('cross-workspace isolation', () => {
  it("answers 404 to a member of another workspace naming this workspace's ids, and changes nothing", async () => {
    const m = await postText(member, ws, conv, 'not yours');
    const outsider = await signUp('act-outsider');
    const theirs = (await createWorkspace(outsider, 'Theirs')).id;
    await createChannel(outsider, theirs, 'theirs');

    for (const method of ['PUT', 'DELETE']) {
      expectError(await inWorkspace(outsider, theirs, method, reactionPath(m.id, '👍')), 404, 'not_found');
      expectError(await inWorkspace(outsider, theirs, method, savedPath(m.id)), 404, 'not_found');
      // Naming this workspace instead: not a member.
      expectError(await inWorkspace(outsider, ws, method, reactionPath(m.id, '👍')), 404, 'workspace_not_found');
      expectError(await inWorkspace(outsider, ws, method, savedPath(m.id)), 404, 'workspace_not_found');
    }
    expectError(await savedMessages(outsider, '', ws), 404, 'workspace_not_found');

    expect(await getMessage(owner, m.id)).toMatchObject({ reactions: [], reactions_version: 0 });
    expect(await savedIds(outsider, theirs)).toEqual([]);
    expect(await outbox('reactions.updated', 'reactions', m.id)).toEqual([]);
    expect(await outbox('saved.updated', 'saved', m.id)).toEqual([]);
  });
});
