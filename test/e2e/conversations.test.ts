import { waitFor } from '@wms/testkit';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Account, expectError, signUp } from './support/accounts.ts';
import { postText } from './support/messages.ts';
import { connectRealtime, disconnectAll } from './support/realtime.ts';
import { addMember, createWorkspace, inWorkspace, myActor } from './support/workspaces.ts';

// Conversations (contract §9) through the gateway: channel kinds and members, direct conversations, the sidebar and
// the membership events. The access wall over every operation is access-wall.test.ts.

interface ChannelBody {
  id: string;
  kind: string;
  name: string | null;
  topic: string | null;
  member_count: number;
  is_member: boolean;
  participant_actor_ids: string[];
  last_message_at: string | null;
  created_by_actor_id: string;
}
interface MemberBody {
  channel_id: string;
  actor_id: string;
  added_by_actor_id: string | null;
  joined_at: string;
}
interface SummaryBody {
  conversation: ChannelBody;
  read_state: { unread_count: number; mention_count: number; last_read_message_id: string | null };
}

let owner: Account;
let admin: Account;
let ann: Account;
let bob: Account;
let cat: Account;
let ws: string;
const actor = {} as Record<'owner' | 'admin' | 'ann' | 'bob' | 'cat', string>;

const as = (who: Account, method: string, path: string, body?: unknown) =>
  inWorkspace(who, ws, method, path, body === undefined ? {} : { body });
const unique = (tag: string) => `${tag}-${Math.random().toString(36).slice(2, 9)}`;

async function channel(who: Account, body: Record<string, unknown>): Promise<ChannelBody> {
  const res = await as(who, 'POST', '/channels', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as ChannelBody;
}

const members = async (who: Account, id: string) =>
  ((await as(who, 'GET', `/channels/${id}/members?limit=100`)).body as { items: MemberBody[] }).items.map(
    (m) => m.actor_id,
  );
const read = async (who: Account, id: string) => (await as(who, 'GET', `/channels/${id}`)).body as ChannelBody;

beforeAll(async () => {
  [owner, admin, ann, bob, cat] = (await Promise.all(
    ['conv-owner', 'conv-admin', 'conv-ann', 'conv-bob', 'conv-cat'].map((t) => signUp(t)),
  )) as [Account, Account, Account, Account, Account];
  ws = (await createWorkspace(owner)).id;
  await addMember(owner, ws, admin, 'admin');
  for (const who of [ann, bob, cat]) await addMember(owner, ws, who);
  const all = { owner, admin, ann, bob, cat };
  for (const [name, who] of Object.entries(all)) actor[name as keyof typeof actor] = (await myActor(who, ws)).id;
});

afterEach(disconnectAll);

describe('channels of every kind', () => {
  it('creates a private channel with its members, hides it from others and takes its name from every channel', async () => {
    const name = unique('secret');
    const c = await channel(ann, { name, kind: 'private', member_actor_ids: [actor.bob, actor.bob, actor.ann] });
    expect(c).toMatchObject({
      kind: 'private',
      name,
      member_count: 2,
      is_member: true,
      participant_actor_ids: [],
      last_message_at: null,
      archived_at: null,
    });
    const listed = await members(bob, c.id);
    expect(listed.sort()).toEqual([actor.ann, actor.bob].sort());
    const bobs = ((await as(bob, 'GET', `/channels/${c.id}/members`)).body as { items: MemberBody[] }).items.find(
      (m) => m.actor_id === actor.bob,
    )!;
    expect(bobs.added_by_actor_id).toBe(actor.ann);
    expectError(await as(cat, 'GET', `/channels/${c.id}`), 404, 'not_found');
    expect(((await as(cat, 'GET', '/channels')).body as ChannelBody[]).map((x) => x.id)).not.toContain(c.id);
    // The name is taken for everyone, though cat cannot see the channel holding it.
    expectError(await as(cat, 'POST', '/channels', { name }), 409, 'channel_name_taken');
    expectError(await as(cat, 'POST', '/channels', { name: unique('x'), kind: 'direct' }), 400, 'invalid_input');
    expectError(
      await as(cat, 'POST', '/channels', {
        name: unique('x'),
        member_actor_ids: ['00000000-0000-7000-8000-000000000000'],
      }),
      400,
      'invalid_input',
    );
  });

  it('allows a mention of an actor who cannot read a private channel, and gives it no access', async () => {
    const c = await channel(ann, { name: unique('quiet'), kind: 'private' });
    const posted = await as(ann, 'POST', `/conversations/${c.id}/messages`, {
      body_text: 'cat, see this',
      mentioned_actor_ids: [actor.cat],
    });
    expect(posted.status, JSON.stringify(posted.body)).toBe(201);
    expectError(await as(cat, 'GET', `/channels/${c.id}`), 404, 'not_found');
    expectError(
      await as(cat, 'GET', `/conversations/${c.id}/messages/${(posted.body as { id: string }).id}`),
      404,
      'not_found',
    );
    expect(await members(ann, c.id)).toEqual([actor.ann]);
  });

  it('lets the creator, owners and admins rename a channel or change its topic, and no one else', async () => {
    const c = await channel(ann, { name: unique('ren') });
    expectError(await as(bob, 'PATCH', `/channels/${c.id}`, { topic: 'mine' }), 403, 'forbidden');
    expect((await read(ann, c.id)).topic).toBeNull();
    const renamed = unique('renamed');
    expect((await as(ann, 'PATCH', `/channels/${c.id}`, { name: renamed })).body).toMatchObject({
      name: renamed,
      topic: null,
    });
    expect((await as(admin, 'PATCH', `/channels/${c.id}`, { topic: ' Plans ' })).body).toMatchObject({
      name: renamed,
      topic: 'Plans',
    });
    expect((await as(owner, 'PATCH', `/channels/${c.id}`, { topic: null })).body).toMatchObject({ topic: null });
    expectError(await as(ann, 'PATCH', `/channels/${c.id}`, {}), 400, 'invalid_input');
    const other = await channel(ann, { name: unique('other') });
    expectError(await as(ann, 'PATCH', `/channels/${c.id}`, { name: other.name }), 409, 'channel_name_taken');
    expect((await read(ann, c.id)).name).toBe(renamed);
  });

  it('joins and leaves: PUT is idempotent, posting in a public channel joins, a second leave of a private channel is 404', async () => {
    const pub = await channel(ann, { name: unique('pub') });
    expectError(await as(cat, 'PUT', `/channels/${pub.id}/members/${actor.bob}`), 403, 'forbidden');
    const first = (await as(cat, 'PUT', `/channels/${pub.id}/members/${actor.cat}`)).body as MemberBody;
    const again = await as(cat, 'PUT', `/channels/${pub.id}/members/${actor.cat}`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first);
    expect(first.added_by_actor_id).toBeNull();
    await postText(bob, ws, pub.id, 'hello');
    expect(await read(ann, pub.id)).toMatchObject({ member_count: 3, is_member: true });
    expect((await read(bob, pub.id)).last_message_at).not.toBeNull();
    expect((await as(cat, 'DELETE', `/channels/${pub.id}/members/${actor.cat}`)).status).toBe(204);
    expect((await as(cat, 'DELETE', `/channels/${pub.id}/members/${actor.cat}`)).status).toBe(204);
    expect(await read(cat, pub.id)).toMatchObject({ member_count: 2, is_member: false });
    expectError(await as(bob, 'DELETE', `/channels/${pub.id}/members/${actor.ann}`), 403, 'forbidden');

    const priv = await channel(ann, { name: unique('priv'), kind: 'private', member_actor_ids: [actor.bob] });
    expectError(await as(cat, 'PUT', `/channels/${priv.id}/members/${actor.cat}`), 404, 'not_found');
    expect((await as(bob, 'PUT', `/channels/${priv.id}/members/${actor.cat}`)).body).toMatchObject({
      actor_id: actor.cat,
      added_by_actor_id: actor.bob,
    });
    expect((await as(admin, 'GET', `/channels/${priv.id}`)).status).toBe(404);
    expectError(await as(admin, 'DELETE', `/channels/${priv.id}/members/${actor.cat}`), 404, 'not_found');
    expect((await as(ann, 'DELETE', `/channels/${priv.id}/members/${actor.cat}`)).status).toBe(204);
    expect((await as(bob, 'DELETE', `/channels/${priv.id}/members/${actor.bob}`)).status).toBe(204);
    expectError(await as(bob, 'DELETE', `/channels/${priv.id}/members/${actor.bob}`), 404, 'not_found');
    expectError(
      await as(ann, 'PUT', `/channels/${priv.id}/members/00000000-0000-7000-8000-000000000000`),
      404,
      'not_found',
    );
    expect(await members(ann, priv.id)).toEqual([actor.ann]);
  });

  it('counts every join exactly when many run at once, with posts and leaves beside them', async () => {
    const c = await channel(ann, { name: unique('busy') });
    const joiners = [owner, admin, bob, cat];
    await Promise.all(
      joiners.flatMap((who) => [
        as(who, 'PUT', `/channels/${c.id}/members/${actor[nameOf(who)]}`),
        postText(who, ws, c.id, 'hi'),
      ]),
    );
    expect(await read(ann, c.id)).toMatchObject({ member_count: 5 });
    await Promise.all(
      [owner, admin].flatMap((who) => [
        as(who, 'DELETE', `/channels/${c.id}/members/${actor[nameOf(who)]}`),
        as(who, 'DELETE', `/channels/${c.id}/members/${actor[nameOf(who)]}`),
      ]),
    );
    expect(await read(ann, c.id)).toMatchObject({ member_count: 3 });
    expect((await members(ann, c.id)).sort()).toEqual([actor.ann, actor.bob, actor.cat].sort());
  });
});

const nameOf = (who: Account) =>
  (['owner', 'admin', 'ann', 'bob', 'cat'] as const).find((n) => ({ owner, admin, ann, bob, cat })[n] === who)!;

describe('direct conversations', () => {
  it('makes one per set of participants, whoever asks and in whatever order, however many ask at once', async () => {
    const asks = [
      as(ann, 'POST', '/conversations/direct', { actor_ids: [actor.bob, actor.cat] }),
      as(ann, 'POST', '/conversations/direct', { actor_ids: [actor.cat, actor.bob, actor.ann, actor.cat] }),
      as(bob, 'POST', '/conversations/direct', { actor_ids: [actor.ann, actor.cat] }),
      as(cat, 'POST', '/conversations/direct', { actor_ids: [actor.bob, actor.ann] }),
      as(cat, 'POST', '/conversations/direct', { actor_ids: [actor.ann, actor.bob] }),
    ];
    const answers = await Promise.all(asks);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 201]);
    const ids = new Set(answers.map((a) => (a.body as ChannelBody).id));
    expect(ids.size).toBe(1);
    const direct = answers[0]!.body as ChannelBody;
    expect(direct).toMatchObject({
      kind: 'direct',
      name: null,
      topic: null,
      member_count: 3,
      is_member: true,
      participant_actor_ids: [actor.ann, actor.bob, actor.cat].sort(),
    });
    expect(((await as(ann, 'GET', '/channels')).body as ChannelBody[]).map((x) => x.id)).not.toContain(direct.id);
    expectError(await as(owner, 'GET', `/channels/${direct.id}`), 404, 'not_found');
    expectError(await as(ann, 'PUT', `/channels/${direct.id}/members/${actor.owner}`), 409, 'membership_fixed');
    expectError(await as(ann, 'DELETE', `/channels/${direct.id}/members/${actor.ann}`), 409, 'membership_fixed');
    expectError(await as(ann, 'PATCH', `/channels/${direct.id}`, { topic: 'x' }), 400, 'not_a_channel');
    // A pair is another set.
    const pair = await as(ann, 'POST', '/conversations/direct', { actor_ids: [actor.bob] });
    expect(pair.status).toBe(201);
    expect((pair.body as ChannelBody).id).not.toBe(direct.id);
  });

  it('refuses a set of only the caller, more than eight others, or actors not active in the workspace', async () => {
    expectError(await as(ann, 'POST', '/conversations/direct', { actor_ids: [actor.ann] }), 400, 'invalid_input');
    const nine = Array.from({ length: 9 }, (_, i) => `0193a4b2-7c1d-7e21-8f3a-${String(i).padStart(12, '0')}`);
    expectError(await as(ann, 'POST', '/conversations/direct', { actor_ids: nine }), 400, 'invalid_input');
    expectError(await as(ann, 'POST', '/conversations/direct', { actor_ids: [nine[0]] }), 400, 'invalid_input');
  });
});

describe('the sidebar', () => {
  it("lists the caller's conversations newest activity first, with read state, kind and unread filters and an opaque cursor", async () => {
    const [me, them] = await Promise.all([signUp('side-me'), signUp('side-them')]);
    const own = (await createWorkspace(me)).id;
    await addMember(me, own, them);
    const themActor = (await myActor(them, own)).id;
    const mk = async (body: Record<string, unknown>) =>
      (await inWorkspace(me, own, 'POST', '/channels', { body })).body as ChannelBody;
    const a = await mk({ name: 'a-pub' });
    const b = await mk({ name: 'b-priv', kind: 'private', member_actor_ids: [themActor] });
    const d = (await inWorkspace(me, own, 'POST', '/conversations/direct', { body: { actor_ids: [themActor] } }))
      .body as ChannelBody;
    const c = await mk({ name: 'c-pub' });
    await postText(them, own, b.id, 'news');
    await postText(them, own, a.id, `hey <@${(await myActor(me, own)).id}>`, {
      mentioned_actor_ids: [(await myActor(me, own)).id],
    });
    const sidebar = async (query = '') => {
      const res = await inWorkspace(me, own, 'GET', `/conversations${query}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body as { items: SummaryBody[]; next_cursor: string | null };
    };
    const all = await sidebar();
    expect(all.items.map((s) => s.conversation.id)).toEqual([a.id, b.id, c.id, d.id]);
    expect(all.items[0]!.read_state).toMatchObject({ unread_count: 1, mention_count: 1 });
    expect(all.items[2]!.read_state).toMatchObject({ unread_count: 0, mention_count: 0 });
    expect(all.next_cursor).toBeNull();
    expect((await sidebar('?unread=true')).items.map((s) => s.conversation.id)).toEqual([a.id, b.id]);
    expect((await sidebar('?kind=direct')).items.map((s) => s.conversation.id)).toEqual([d.id]);
    const first = await sidebar('?limit=3');
    expect(first.items).toHaveLength(3);
    expect((await sidebar(`?limit=3&cursor=${first.next_cursor}`)).items.map((s) => s.conversation.id)).toEqual([d.id]);
    expectError(await inWorkspace(me, own, 'GET', '/conversations?cursor=bm9wZQ'), 400, 'invalid_input');
    expectError(await inWorkspace(me, own, 'GET', '/conversations?kind=group'), 400, 'invalid_input');
    // The other member's sidebar has only its own conversations.
    const theirs = (await inWorkspace(them, own, 'GET', '/conversations')).body as { items: SummaryBody[] };
    expect(theirs.items.map((s) => s.conversation.id).sort()).toEqual([a.id, b.id, d.id].sort());
  });
});

describe('membership events', () => {
  it("tells the conversation and the member of a join and a removal, and closes the removed member's connections", async () => {
    const priv = await channel(ann, { name: unique('ev'), kind: 'private', member_actor_ids: [actor.bob] });
    const watcher = await connectRealtime(ann, ws);
    await watcher.subscribe(`private-conversation-${priv.id}`);
    const removed = await connectRealtime(bob, ws);
    await removed.subscribe(removed.config.channels.actor);
    await removed.subscribe(`private-conversation-${priv.id}`);
    removed.pusher.signin();
    await removed.pusher.user.signinDonePromise;

    expect((await as(ann, 'PUT', `/channels/${priv.id}/members/${actor.cat}`)).status).toBe(200);
    const added = await watcher.waitForEvent(`private-conversation-${priv.id}`, 'channel_member.added');
    expect(added).toMatchObject({
      member: { channel_id: priv.id, actor_id: actor.cat, added_by_actor_id: actor.ann },
      conversation_kind: 'private',
    });

    expect((await as(ann, 'DELETE', `/channels/${priv.id}/members/${actor.bob}`)).status).toBe(204);
    const told = await removed.waitForEvent(removed.config.channels.actor, 'channel_member.removed');
    expect(told).toMatchObject({ member: { channel_id: priv.id, actor_id: actor.bob } });
    await waitFor(
      "the provider to close the removed member's connection",
      () => removed.pusher.connection.state === 'disconnected',
      15_000,
      20,
    );
    const again = await as(bob, 'POST', '/realtime/authorize', {
      socket_id: '123.456',
      channel_name: `private-conversation-${priv.id}`,
    });
    expectError(again, 403, 'forbidden');
  });
});
