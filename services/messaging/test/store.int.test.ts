import { randomBytes, randomUUID } from 'node:crypto';
import type { CallContext } from '@wms/kit/context';
import { createDb, type Knex, type Transact, transactor, type Tx } from '@wms/kit/db';
import { DomainError } from '@wms/kit/errors';
import { uuidv7 } from '@wms/kit/ids';
import { createLogger } from '@wms/kit/logger';
import { actorChannel, conversationChannel, workspaceChannel } from '@wms/kit/channels';
import { createTestDatabase, emittedEvents, untimed, waitFor } from '@wms/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../migrations/index.ts';
import { readOf } from '../src/adapters/attachments.ts';
import type { Channel } from '../src/domain/channel.ts';
import { readBody } from '../src/domain/markdown.ts';
import { LOADING_MS, type Message, type MessageWithSave } from '../src/domain/message.ts';
import type { MessagingServices } from '../src/rpc.ts';
import { ChannelStore } from '../src/store/channel.store.ts';
import { MessageStore } from '../src/store/message.store.ts';
import type { MessagingEvent } from '../src/event-payloads.ts';
import { OutboxStore } from '../src/store/outbox.store.ts';
import { PurgeStore } from '../src/store/purge.store.ts';
import { ReactionStore } from '../src/store/reaction.store.ts';
import { ReadStateStore } from '../src/store/read-state.store.ts';
import { SavedStore } from '../src/store/saved.store.ts';
import { buildMessagingServices } from '../src/wiring.ts';

const log = createLogger('messaging-store-test', 'silent');

let database: { url: string; drop(): Promise<void> };
let db: Knex;
let transact: Transact;
let channels: ChannelStore;
let messages: MessageStore;
let reactions: ReactionStore;
let readStates: ReadStateStore;
let saved: SavedStore;
let outbox: OutboxStore;
let purge: PurgeStore;
let emitted: Awaited<ReturnType<typeof emittedEvents>>;

beforeAll(async () => {
  database = await createTestDatabase('messaging', migrations);
  db = createDb({ url: database.url, schema: 'messaging', log });
  transact = transactor(db);
  channels = new ChannelStore(db);
  messages = new MessageStore(db);
  reactions = new ReactionStore(db);
  readStates = new ReadStateStore(db);
  saved = new SavedStore(db);
  outbox = new OutboxStore(db);
  purge = new PurgeStore(db);
  emitted = await emittedEvents(db);
});

afterAll(async () => {
  await db?.destroy();
  await database?.drop();
});

// Factories: random ids and names, so tests share the database without seeing each other's rows.
const actor = (): string => randomUUID();
const workspace = (): string => randomUUID();
const uniqueName = (prefix = 'c') => `${prefix}-${randomBytes(5).toString('hex')}`;

async function newChannel(
  workspaceId = workspace(),
  name = uniqueName(),
  kind: 'public' | 'private' = 'public',
  members: string[] = [],
): Promise<Channel> {
  const creator = actor();
  const created = await channels.insert({
    id: uuidv7(),
    workspaceId,
    kind,
    name,
    topic: null,
    createdByActorId: creator,
    memberActorIds: [creator, ...members],
    participantActorIds: [],
  });
  return created!.channel;
}

/** Posts as the message service does: insert (a reply counted on its root, the thread followed), store mentions. */
async function post(
  channel: Channel,
  author: string,
  opts: { parent?: Message; mentions?: string[]; body?: string; assetIds?: string[]; loading?: boolean } = {},
): Promise<Message> {
  return transact(async (tx) => {
    const mentions = opts.mentions ?? [];
    const bodyText = opts.body ?? `text ${randomBytes(3).toString('hex')}`;
    const draft = {
      id: uuidv7(),
      workspaceId: channel.workspaceId,
      conversationId: channel.id,
      parentMessageId: opts.parent?.id ?? null,
      authorActorId: author,
      bodyText,
      children: readBody(bodyText),
      mentionedActorIds: mentions,
      assetIds: opts.assetIds ?? [],
      loading: opts.loading ?? false,
    };
    const message = opts.parent
      ? (await messages.insertReply({ ...draft, parentMessageId: opts.parent.id }, [author, ...mentions], tx))?.reply
      : (await messages.insert(draft, tx))?.message;
    if (!message) throw new Error('refused: no such channel or root');
    await messages.addMentions(message, opts.parent?.id ?? null, tx);
    return message;
  });
}

/** An edit's new text, mentioning nobody. */
const text = (bodyText: string) => ({ bodyText, children: readBody(bodyText), mentionedActorIds: [] });

/** A reply's statement alone, as the service runs it; nothing when refused. */
const reply = (c: { workspaceId: string; id: string }, rootId: string, author: string, tx?: Tx) => {
  const draft = {
    id: uuidv7(),
    workspaceId: c.workspaceId,
    conversationId: c.id,
    parentMessageId: rootId,
    authorActorId: author,
    bodyText: 'reply',
    children: [],
    mentionedActorIds: [],
    assetIds: [],
    loading: false,
  };
  return tx ? messages.insertReply(draft, [author], tx) : transact((t) => messages.insertReply(draft, [author], t));
};

const reload = async (m: Message) => (await messages.find(m.workspaceId, m.id, actor()))!.message;

/** Adds or removes a reaction under the message's lock, the summary rewritten only on a change (as the service does). */
const react = (m: Message, op: 'add' | 'remove', emoji: string, actorId: string) =>
  transact(async (tx) => {
    const locked = await messages.lock(m.workspaceId, m.id, actor(), tx);
    if (!locked) throw new Error('message not found');
    const changed = await reactions[op]({ workspaceId: m.workspaceId, messageId: m.id, emoji, actorId }, tx);
    return { changed: changed !== undefined, message: changed ?? locked };
  });

async function refusal(p: Promise<unknown>): Promise<DomainError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DomainError);
  return err as DomainError;
}

describe(ChannelStore.name, () => {
  it('inserts a channel and finds it only within its own workspace', async () => {
    const c = await newChannel();
    expect(c).toMatchObject({ topic: null, workspaceId: c.workspaceId });
    expect(c.createdAt).toBeInstanceOf(Date);
    expect(await channels.find(c.workspaceId, c.id, c.createdByActorId)).toEqual(c);
    expect(await channels.find(workspace(), c.id, c.createdByActorId)).toBeUndefined();
  });

  it('renames a channel or changes its topic, answering the channel as the acting actor sees it', async () => {
    const c = await newChannel();
    const name = uniqueName('r');
    expect(await channels.update(c.workspaceId, c.id, c.createdByActorId, { name })).toMatchObject({
      id: c.id,
      name,
      topic: null,
      isMember: true,
    });
    expect(await channels.update(c.workspaceId, c.id, actor(), { topic: 'news' })).toMatchObject({
      name,
      topic: 'news',
      isMember: false,
    });
    expect(await channels.update(c.workspaceId, c.id, actor(), { topic: null })).toMatchObject({ name, topic: null });
    expect(await channels.update(workspace(), c.id, c.createdByActorId, { name: uniqueName() })).toBeUndefined();
  });

  it('turns a name taken in the workspace into channel_name_taken, and allows it in another workspace', async () => {
    const c = await newChannel();
    const err = await refusal(newChannel(c.workspaceId, c.name!));
    expect(err).toMatchObject({ kind: 'already_exists', code: 'channel_name_taken' });
    expect(await channels.list(c.workspaceId, actor())).toHaveLength(1);
    const elsewhere = await newChannel(workspace(), c.name!);
    expect(elsewhere.name).toBe(c.name);
  });

  it('lists the workspace channels in byte order of their names, bounded by the limit', async () => {
    const ws = workspace();
    for (const name of ['pb', 'p_b', 'pa', 'p0', 'p-b']) await newChannel(ws, name);
    await newChannel(workspace(), 'p-a');
    expect((await channels.list(ws, actor())).map((c) => c.name)).toEqual(['p-b', 'p0', 'p_b', 'pa', 'pb']);
    expect((await channels.list(ws, actor(), 2)).map((c) => c.name)).toEqual(['p-b', 'p0']);
    // Containing q, literally (an underscore is no wildcard), those starting with it first.
    expect((await channels.list(ws, actor(), 100, '_B')).map((c) => c.name)).toEqual(['p_b']);
    expect((await channels.list(ws, actor(), 100, 'B')).map((c) => c.name)).toEqual(['p-b', 'p_b', 'pb']);
    expect((await channels.list(ws, actor(), 100, 'p-')).map((c) => c.name)).toEqual(['p-b']);
    expect((await channels.list(ws, actor(), 100, '%')).map((c) => c.name)).toEqual([]);
  });

  it('answers the picker of a large workspace through the trigram index', async () => {
    // Large enough that reading every channel of the workspace costs more than the index (50,000 took over 30 s in
    // a loaded CI run, one long transaction that every new replication slot of the cluster waits for).
    const ws = workspace();
    const creator = actor();
    await untimed(
      db,
      `INSERT INTO channels (id, workspace_id, kind, name, created_by_actor_id, member_count)
       SELECT gen_random_uuid(), ?, 'public', 'c-' || md5(i::text), ?, 0 FROM generate_series(1, 5000) i`,
      [ws, creator],
    );
    await db.raw('ANALYZE channels');
    let statement: { sql: string; bindings: unknown[] } | undefined;
    const capture = (q: { sql: string; bindings: unknown[] }) => (statement = q);
    db.on('query', capture);
    try {
      expect(await channels.list(ws, creator, 100, 'zqxj')).toEqual([]);
    } finally {
      db.off('query', capture);
    }
    // The event shows the statement as sent, with $n placeholders, its bindings in their order.
    const { rows } = await db.raw(
      `EXPLAIN (FORMAT JSON) ${statement!.sql.replace(/\$\d+/g, '?')}`,
      statement!.bindings as never,
    );
    expect(JSON.stringify(rows[0]['QUERY PLAN'])).toContain('"Index Name":"channels_name_trgm_idx"');
  });

  /** The channel's members by actor id, with how they joined, and its member count. */
  const membership = async (c: Channel) => ({
    members: await db('channel_members')
      .where({ channel_id: c.id })
      .orderBy('actor_id')
      .select('actor_id', 'workspace_id', 'added_by_actor_id'),
    count: (await db('channels').where({ id: c.id }).first('member_count')).member_count as number,
  });
  const joinedBySelf = (c: Channel, ...actorIds: string[]) =>
    actorIds.sort().map((actorId) => ({ actor_id: actorId, workspace_id: c.workspaceId, added_by_actor_id: null }));

  it('makes the creator a member, and every poster of a message or a reply, each once, counted', async () => {
    const c = await newChannel();
    expect(await membership(c)).toEqual({ members: joinedBySelf(c, c.createdByActorId), count: 1 });
    const [poster, replier] = [actor(), actor()];
    const root = await post(c, poster);
    await post(c, poster);
    await post(c, c.createdByActorId);
    await post(c, replier, { parent: root });
    await post(c, poster, { parent: root });
    expect(await membership(c)).toEqual({ members: joinedBySelf(c, c.createdByActorId, poster, replier), count: 3 });
    // A refused post (another workspace's channel) joins nobody.
    const outsider = actor();
    await expect(post({ ...c, workspaceId: workspace() }, outsider)).rejects.toThrow('refused');
    await expect(reply({ ...c, workspaceId: workspace() }, root.id, outsider)).resolves.toBeUndefined();
    expect((await membership(c)).count).toBe(3);
  });

  it('counts a poster once however many of its first posts and replies run at once', async () => {
    const c = await newChannel();
    const root = await post(c, c.createdByActorId);
    const newcomers = [actor(), actor()];
    await Promise.all(
      newcomers.flatMap((a) => [post(c, a), post(c, a), post(c, a, { parent: root }), post(c, a, { parent: root })]),
    );
    expect(await membership(c)).toEqual({ members: joinedBySelf(c, c.createdByActorId, ...newcomers), count: 3 });
  });
});

describe(`${ChannelStore.name}: kinds, members and the sidebar`, () => {
  const membersOf = async (c: Channel) =>
    (await db('channel_members').where({ channel_id: c.id }).orderBy('actor_id').pluck('actor_id')) as string[];
  const countOf = async (c: Channel) =>
    (await db('channels').where({ id: c.id }).first('member_count')).member_count as number;

  it('inserts a private channel with its initial members added by the creator, readable by them alone', async () => {
    const [a, b] = [actor(), actor()];
    const c = await newChannel(workspace(), uniqueName(), 'private', [a, b]);
    expect(c).toMatchObject({
      kind: 'private',
      memberCount: 3,
      isMember: true,
      participantActorIds: [],
      lastMessageAt: null,
      archivedAt: null,
    });
    const rows = await db('channel_members').where({ channel_id: c.id }).select('actor_id', 'added_by_actor_id');
    expect(rows.filter((r) => r.added_by_actor_id === null).map((r) => r.actor_id)).toEqual([c.createdByActorId]);
    expect(
      rows
        .filter((r) => r.added_by_actor_id === c.createdByActorId)
        .map((r) => r.actor_id)
        .sort(),
    ).toEqual([a, b].sort());
    expect(await channels.find(c.workspaceId, c.id, a)).toMatchObject({ id: c.id, isMember: true });
    expect(await channels.find(c.workspaceId, c.id, actor())).toBeUndefined();
    // Listed to members only, never a direct conversation; a public one to everyone, with is_member telling.
    const pub = await newChannel(c.workspaceId);
    const byName = [c, pub].sort((x, y) => (x.name! < y.name! ? -1 : 1));
    expect((await channels.list(c.workspaceId, a)).map((x) => [x.id, x.isMember])).toEqual(
      byName.map((x) => [x.id, x.id === c.id]),
    );
    expect((await channels.list(c.workspaceId, actor())).map((x) => x.id)).toEqual([pub.id]);
    expect(await channels.readable(c.workspaceId, [c.id, pub.id, uuidv7()], actor())).toEqual([pub.id]);
    expect((await channels.readable(c.workspaceId, [c.id, pub.id], b)).sort()).toEqual([c.id, pub.id].sort());
  });

  it('makes one direct conversation per set of participants, however many creations race', async () => {
    const ws = workspace();
    const people = [actor(), actor(), actor()].sort();
    const create = () =>
      transact((tx) =>
        channels.insert(
          {
            id: uuidv7(),
            workspaceId: ws,
            kind: 'direct',
            name: null,
            topic: null,
            createdByActorId: people[0]!,
            memberActorIds: people,
            participantActorIds: people,
          },
          tx,
        ),
      );
    const outcomes = await Promise.all(Array.from({ length: 8 }, create));
    expect(outcomes.filter((o) => o !== undefined)).toHaveLength(1);
    const found = (await channels.findDirect(ws, people, people[1]!))!;
    expect(found).toMatchObject({
      kind: 'direct',
      name: null,
      participantActorIds: people,
      memberCount: 3,
      isMember: true,
    });
    expect(await db('channels').where({ workspace_id: ws }).count({ n: '*' })).toEqual([{ n: '1' }]);
    expect(await channels.findDirect(ws, people.slice(0, 2), people[0]!)).toBeUndefined();
  });

  it('adds and removes members idempotently, the count exact under parallel joins, leaves and posts', async () => {
    const c = await newChannel(workspace(), uniqueName(), 'private');
    const joiners = Array.from({ length: 6 }, actor);
    const add = (a: string) =>
      transact((tx) =>
        channels.addMember(
          { channelId: c.id, workspaceId: c.workspaceId, actorId: a, addedByActorId: c.createdByActorId },
          tx,
        ),
      );
    const outcomes = await Promise.all([...joiners, ...joiners].map(add));
    expect(outcomes.filter((o) => o.added)).toHaveLength(6);
    expect(new Set(outcomes.map((o) => `${o.member.actorId}:${o.member.joinedAt.toISOString()}`)).size).toBe(6);
    expect(await countOf(c)).toBe(7);
    // Leaves of half of them, twice each, beside posts of the other half (members already) and of the leavers.
    const [leavers, stayers] = [joiners.slice(0, 3), joiners.slice(3)];
    await Promise.all([
      ...[...leavers, ...leavers].map((a) => transact((tx) => channels.removeMember(c.workspaceId, c.id, a, tx))),
      ...stayers.map((a) => post(c, a)),
    ]);
    expect(await membersOf(c)).toEqual([c.createdByActorId, ...stayers].sort());
    expect(await countOf(c)).toBe(4);
    expect(await transact((tx) => channels.removeMember(c.workspaceId, c.id, leavers[0]!, tx))).toBeUndefined();
    // A private channel's non-member cannot post (so cannot join by posting).
    await expect(post(c, leavers[0]!)).rejects.toThrow('refused');
    expect(await countOf(c)).toBe(4);
  });

  it('pages members by actor id, and to a non-member of a private channel answers nothing', async () => {
    const others = Array.from({ length: 4 }, actor);
    const c = await newChannel(workspace(), uniqueName(), 'private', others);
    const all = [c.createdByActorId, ...others].sort();
    const page = (after: string | null, actorId = others[0]!) =>
      channels.members({ workspaceId: c.workspaceId, channelId: c.id, actorId, after, limit: 3 });
    expect((await page(null))!.map((m) => m.actorId)).toEqual(all.slice(0, 3));
    expect((await page(all[2]!))!.map((m) => m.actorId)).toEqual(all.slice(3));
    expect(await page(all[4]!)).toEqual([]);
    expect(await page(null, actor())).toBeUndefined();
    expect(
      await channels.members({ workspaceId: workspace(), channelId: c.id, actorId: others[0]!, after: null, limit: 3 }),
    ).toBeUndefined();
  });

  it("keeps the sidebar newest activity first in one statement, with each conversation's read state, kind and unread filters and a cursor", async () => {
    const ws = workspace();
    const me = actor();
    const other = actor();
    const made: Channel[] = [];
    for (let i = 0; i < 5; i++)
      made.push(await newChannel(ws, uniqueName(), i % 2 === 0 ? 'public' : 'private', [me, other]));
    // Activity: a post in made[0] (by the other, unread, mentioning me), a reply in made[3]; made[4] is newest by creation.
    const root = await post(made[3]!, other);
    await post(made[0]!, other, { mentions: [me] });
    await post(made[3]!, other, { parent: root });
    const notMine = await newChannel(ws);
    await post(notMine, other);
    const sidebar = (q: Partial<Parameters<ChannelStore['sidebar']>[0]> = {}) =>
      channels.sidebar({ workspaceId: ws, actorId: me, kind: null, unread: false, after: null, limit: 10, ...q });
    const all = await sidebar();
    expect(all.map((e) => e.channel.id)).toEqual([made[3]!.id, made[0]!.id, made[4]!.id, made[2]!.id, made[1]!.id]);
    // A conversation's last activity is its newest message, a reply included.
    const [newestReply] = (await messages.page({
      workspaceId: ws,
      conversationId: made[3]!.id,
      parentMessageId: root.id,
      before: null,
      limit: 1,
      actorId: me,
    }))!;
    expect(all[0]!.channel.lastMessageAt).toEqual(newestReply!.message.createdAt);
    expect(all[2]!.channel.lastMessageAt).toBeNull();
    expect(all[1]!.counts).toEqual({ unreadCount: 1, mentionCount: 1 });
    expect(all[0]!.counts).toEqual({ unreadCount: 1, mentionCount: 0 });
    expect(all[2]!.counts).toEqual({ unreadCount: 0, mentionCount: 0 });
    expect(all.every((e) => e.channel.isMember)).toBe(true);
    expect((await sidebar({ unread: true })).map((e) => e.channel.id)).toEqual([made[3]!.id, made[0]!.id]);
    expect((await sidebar({ kind: 'private' })).map((e) => e.channel.id)).toEqual([made[3]!.id, made[1]!.id]);
    // Reading made[0] clears it from the unread ones.
    const [latest] = (await messages.page({
      workspaceId: ws,
      conversationId: made[0]!.id,
      parentMessageId: null,
      before: null,
      limit: 1,
      actorId: me,
    }))!;
    await readStates.markConversation(me, ws, made[0]!.id, latest!.message.id);
    expect((await sidebar({ unread: true })).map((e) => e.channel.id)).toEqual([made[3]!.id]);
    // Paging by the key of the last item walks the same order.
    const first = await sidebar({ limit: 2 });
    const rest = await sidebar({ limit: 10, after: first.at(-1)!.key });
    expect([...first, ...rest].map((e) => e.channel.id)).toEqual(all.map((e) => e.channel.id));
  });

  it('answers the sidebar of an actor in 1,000 conversations in one statement', async () => {
    const ws = workspace();
    const me = actor();
    const ids = Array.from({ length: 1000 }, uuidv7);
    await db('channels').insert(
      ids.map((id, i) => ({
        id,
        workspace_id: ws,
        kind: 'public',
        name: `bulk-${i}`,
        created_by_actor_id: me,
        member_count: 1,
      })),
    );
    await db('channel_members').insert(ids.map((id) => ({ channel_id: id, actor_id: me, workspace_id: ws })));
    const busy = (await channels.find(ws, ids[10]!, me))!;
    await post(busy, actor());
    const statements: string[] = [];
    const count = (q: { sql: string }) => statements.push(q.sql);
    db.on('query', count);
    try {
      const page = await channels.sidebar({
        workspaceId: ws,
        actorId: me,
        kind: null,
        unread: false,
        after: null,
        limit: 50,
      });
      expect(page).toHaveLength(50);
      expect(page[0]!.channel.id).toBe(busy.id);
      const unread = await channels.sidebar({
        workspaceId: ws,
        actorId: me,
        kind: null,
        unread: true,
        after: null,
        limit: 50,
      });
      expect(unread.map((e) => e.channel.id)).toEqual([busy.id]);
    } finally {
      db.off('query', count);
    }
    expect(statements).toHaveLength(2);
  });
});

describe('the access wall (contract §9) in every statement that names a conversation', () => {
  it('hides a private conversation and everything in it from a non-member, and shows it to a member', async () => {
    const [member, stranger] = [actor(), actor()];
    const c = await newChannel(workspace(), uniqueName(), 'private', [member]);
    const root = await post(c, member, { mentions: [stranger] });
    await post(c, member, { parent: root });
    // The stranger had a bookmark and a followed thread from before (as one who left would).
    await db('saved_messages').insert({ actor_id: stranger, message_id: root.id, workspace_id: c.workspaceId });
    await db('thread_reads')
      .insert({
        actor_id: stranger,
        root_id: root.id,
        workspace_id: c.workspaceId,
        conversation_id: c.id,
        following: true,
      })
      .onConflict(['workspace_id', 'actor_id', 'root_id'])
      .merge();
    const ws = c.workspaceId;
    const sees = async (who: string) => ({
      channel: (await channels.find(ws, c.id, who)) !== undefined,
      find: (await messages.find(ws, root.id, who)) !== undefined,
      page:
        (await messages.page({
          workspaceId: ws,
          conversationId: c.id,
          parentMessageId: null,
          before: null,
          limit: 5,
          actorId: who,
        })) !== undefined,
      lock: (await transact((tx) => messages.lock(ws, root.id, who, tx))) !== undefined,
      saved:
        (await saved.page({ actorId: who, workspaceId: ws, beforeSeq: null, limit: 5 })).length > 0 || who === member,
      threads:
        (
          await readStates.threads({
            workspaceId: ws,
            actorId: who,
            following: false,
            unread: false,
            before: null,
            limit: 5,
          })
        ).length > 0,
      followed:
        (
          await readStates.threads({
            workspaceId: ws,
            actorId: who,
            following: true,
            unread: false,
            before: null,
            limit: 5,
          })
        ).length > 0,
    });
    expect(await sees(member)).toEqual({
      channel: true,
      find: true,
      page: true,
      lock: true,
      saved: true,
      threads: true,
      followed: true,
    });
    expect(await sees(stranger)).toEqual({
      channel: false,
      find: false,
      page: false,
      lock: false,
      saved: false,
      threads: false,
      followed: false,
    });

    // Writes a stranger tries change nothing.
    const asMember = async () => (await messages.find(ws, root.id, member))!.message;
    const before = await asMember();
    const draft = {
      id: uuidv7(),
      workspaceId: ws,
      conversationId: c.id,
      parentMessageId: null,
      authorActorId: stranger,
      bodyText: 'x',
      children: [],
      mentionedActorIds: [],
      assetIds: [],
      loading: false,
    };
    expect(await transact((tx) => messages.insert(draft, tx))).toBeUndefined();
    expect(
      await transact((tx) =>
        messages.insertReply({ ...draft, id: uuidv7(), parentMessageId: root.id }, [stranger], tx),
      ),
    ).toBeUndefined();
    expect(
      await transact((tx) =>
        reactions.addToLive(
          { workspaceId: ws, conversationId: c.id, messageId: root.id, emoji: 'x', actorId: stranger, maxEmoji: 50 },
          tx,
        ),
      ),
    ).toBeUndefined();
    expect(await saved.save(stranger, ws, c.id, root.id)).toBeUndefined();
    expect(await readStates.markConversation(stranger, ws, c.id, root.id)).toBeUndefined();
    expect(await asMember()).toEqual(before);
    expect(await db('messages').where({ conversation_id: c.id }).count({ n: '*' })).toEqual([{ n: '2' }]);
    expect(await db('conversation_reads').where({ actor_id: stranger }).count({ n: '*' })).toEqual([{ n: '0' }]);
    expect(await db('channel_members').where({ channel_id: c.id, actor_id: stranger }).count({ n: '*' })).toEqual([
      { n: '0' },
    ]);
  });
});

describe(MessageStore.name, () => {
  /** Walks every page as ListMessages does: asks for limit + 1, the last item shown is the next cursor. */
  async function walk(c: Channel, parentMessageId: string | null, limit: number, actorId = actor()) {
    const pages: string[][] = [];
    let before: string | null = null;
    for (let i = 0; i < 50; i++) {
      const rows: MessageWithSave[] = (await messages.page({
        workspaceId: c.workspaceId,
        conversationId: c.id,
        parentMessageId,
        before,
        limit: limit + 1,
        actorId,
      }))!;
      const items = rows.slice(0, limit);
      pages.push(items.map((r) => r.message.id));
      if (rows.length <= limit) return pages;
      before = items.at(-1)!.message.id;
    }
    throw new Error('paging did not end');
  }

  it('pages top-level messages newest first by id, with the cursor and limit + 1 finding the next page', async () => {
    const c = await newChannel();
    const author = actor();
    const posted: Message[] = [];
    for (let i = 0; i < 5; i++) posted.push(await post(c, author));
    await post(c, author, { parent: posted[1]! });
    const newestFirst = posted.map((m) => m.id).reverse();
    expect([...newestFirst].sort().reverse()).toEqual(newestFirst);

    expect(await walk(c, null, 2)).toEqual([newestFirst.slice(0, 2), newestFirst.slice(2, 4), newestFirst.slice(4)]);
    expect(await walk(c, null, 5)).toEqual([newestFirst]);
    expect(await walk(c, null, 10)).toEqual([newestFirst]);
  });

  it("pages a thread's replies apart from the top-level messages", async () => {
    const c = await newChannel();
    const root = await post(c, actor());
    const other = await post(c, actor());
    const replies = [
      await post(c, actor(), { parent: root }),
      await post(c, actor(), { parent: root }),
      await post(c, actor(), { parent: root }),
    ];
    await post(c, actor(), { parent: other });
    expect((await walk(c, root.id, 2)).flat()).toEqual(replies.map((r) => r.id).reverse());
    expect((await walk(c, null, 10)).flat()).toEqual([other.id, root.id]);
  });

  it('does not page, find or add messages under another workspace', async () => {
    const c = await newChannel();
    const m = await post(c, actor());
    const page = (workspaceId: string, conversationId = c.id) =>
      messages.page({ workspaceId, conversationId, parentMessageId: null, before: null, limit: 10, actorId: actor() });
    expect(await page(workspace())).toBeUndefined();
    expect(await page(c.workspaceId, uuidv7())).toBeUndefined();
    expect((await page(c.workspaceId))?.map((r) => r.message.id)).toEqual([m.id]);
    expect(await page((await newChannel()).workspaceId, c.id)).toBeUndefined();
    const empty = await newChannel();
    expect(await page(empty.workspaceId, empty.id)).toEqual([]);
    const insert = (workspaceId: string) =>
      transact((tx) =>
        messages.insert(
          {
            id: uuidv7(),
            workspaceId,
            conversationId: c.id,
            parentMessageId: null,
            authorActorId: actor(),
            bodyText: 'elsewhere',
            children: [],
            mentionedActorIds: [],
            assetIds: [],
            loading: false,
          },
          tx,
        ),
      );
    expect(await insert(workspace())).toBeUndefined();
    expect(await page(c.workspaceId)).toHaveLength(1);
    expect(await messages.find(workspace(), m.id, actor())).toBeUndefined();
    expect((await messages.find(c.workspaceId, m.id, actor()))?.message.id).toBe(m.id);
  });

  it("joins only the caller's own bookmark into reads", async () => {
    const c = await newChannel();
    const m = await post(c, actor());
    const saver = actor();
    const { savedAt } = (await saved.save(saver, c.workspaceId, c.id, m.id))!;
    expect((await messages.find(c.workspaceId, m.id, saver))?.savedAt).toEqual(savedAt);
    expect((await messages.find(c.workspaceId, m.id, actor()))?.savedAt).toBeNull();
    const [mine] = (await messages.page({
      workspaceId: c.workspaceId,
      conversationId: c.id,
      parentMessageId: null,
      before: null,
      limit: 1,
      actorId: saver,
    }))!;
    expect(mine?.savedAt).toEqual(savedAt);
  });

  it('keeps each text an edit replaces as a version, 100 with the current one, none once deleted', async () => {
    const c = await newChannel();
    const author = actor();
    const m = await post(c, author, { body: 'v0 **bold**' });
    // As the service edits: the message locked first.
    const edit = (bodyText: string, mentionedActorIds: string[] = []) =>
      transact(async (tx) => {
        await messages.lockLive(c.workspaceId, m.id, tx);
        return messages.edit(c.workspaceId, m.id, { ...text(bodyText), mentionedActorIds }, tx);
      });
    const first = (await edit('v1'))!.message;
    expect(await messages.history(m.workspaceId, m.id)).toEqual([
      { bodyText: 'v0 **bold**', children: readBody('v0 **bold**'), mentionedActorIds: [], writtenAt: m.createdAt },
      { bodyText: 'v1', children: readBody('v1'), mentionedActorIds: [], writtenAt: first.editedAt },
    ]);
    // Edits at once: each keeps the text it replaced, none lost (the row lock orders them).
    await Promise.all(Array.from({ length: 8 }, (_, i) => edit(`p${i}`)));
    const versions = await messages.history(m.workspaceId, m.id);
    expect(versions).toHaveLength(10);
    expect(versions.map((v) => v.bodyText).slice(0, 2)).toEqual(['v0 **bold**', 'v1']);
    expect(new Set(versions.slice(2).map((v) => v.bodyText)).size).toBe(8);
    for (let i = 0; i < 100; i++) await edit(`late ${i}`);
    // And at once again, at the bound.
    await Promise.all(Array.from({ length: 4 }, (_, i) => edit(`last ${i}`)));
    const kept = await messages.history(m.workspaceId, m.id);
    expect(kept).toHaveLength(100);
    expect(kept[0]!.bodyText).toBe('late 4');
    expect(new Set(kept.slice(-4).map((v) => v.bodyText))).toEqual(new Set(['last 0', 'last 1', 'last 2', 'last 3']));
    expect(await db('message_versions').where({ message_id: m.id }).count({ n: '*' })).toEqual([{ n: '99' }]);
    await transact((tx) => messages.softDelete(c.workspaceId, m.id, tx));
    expect(await messages.history(m.workspaceId, m.id)).toEqual([]);
    expect(await db('message_versions').where({ message_id: m.id }).count({ n: '*' })).toEqual([{ n: '0' }]);
  });

  it('reads a message without children (a release before rich messages edited it) from its body; keeps an edit whose nodes did not change', async () => {
    const c = await newChannel();
    const m = await post(c, actor(), { body: 'plain' });
    await db('messages').where({ id: m.id }).update({ body_text: 'now **bold**', children: null });
    expect((await reload(m)).children).toEqual(readBody('now **bold**'));
    const named = actor();
    const mentioning = { bodyText: `<@${named}> hi`, children: readBody(`<@${named}> hi`, new Map([[named, 'Ann']])) };
    const edit = (bodyText: string) =>
      transact((tx) => messages.edit(c.workspaceId, m.id, { ...mentioning, bodyText, mentionedActorIds: [named] }, tx));
    await edit(mentioning.bodyText);
    // Only the spacing changes: the same nodes, kept.
    const again = await edit(`${mentioning.bodyText}  `);
    expect(again!.message.children).toEqual(mentioning.children);
    expect(again!.message.children[0]).toMatchObject({ type: 'mention', text: '@Ann' });
    expect((await reload(m)).children).toEqual(mentioning.children);
  });

  it('adds the mentions an edit finds to those the message has, in order, and tells which are new', async () => {
    const c = await newChannel();
    const [a, b, d] = [actor(), actor(), actor()];
    const m = await post(c, actor(), { mentions: [a, b] });
    const edited = await transact((tx) =>
      messages.edit(c.workspaceId, m.id, { ...text('hi'), mentionedActorIds: [d, b] }, tx),
    );
    expect(edited).toMatchObject({ message: { mentionedActorIds: [a, b, d] }, added: [d] });
    expect((await messages.history(m.workspaceId, m.id)).map((v) => v.mentionedActorIds)).toEqual([
      [a, b],
      [a, b, d],
    ]);
  });

  it('shows a loading message for five minutes from creation, until an edit clears it', async () => {
    const c = await newChannel();
    const plain = await post(c, actor());
    expect(plain.loadingExpiresAt).toBeNull();
    const m = await post(c, actor(), { loading: true, body: 'drafting' });
    expect(m.loadingExpiresAt!.getTime() - m.createdAt.getTime()).toBe(LOADING_MS);
    expect(m.editedAt).toBeNull();
    expect(await transact((tx) => messages.edit(workspace(), m.id, text('elsewhere'), tx))).toBeUndefined();
    const edited = (await transact((tx) => messages.edit(c.workspaceId, m.id, text('done'), tx)))?.message;
    expect(edited).toMatchObject({ bodyText: 'done', loadingExpiresAt: null });
    expect(edited!.editedAt).toBeInstanceOf(Date);
    expect((await reload(m)).bodyText).toBe('done');
  });

  it('counts replies on a live root: distinct repliers in first-reply order and the newest reply time', async () => {
    const c = await newChannel();
    const root = await post(c, actor());
    const [a, b] = [actor(), actor()];
    const first = await post(c, a, { parent: root });
    const afterFirst = await reload(root);
    await post(c, b, { parent: root });
    await post(c, a, { parent: root });
    const counted = await reload(root);
    expect(counted).toMatchObject({ replyCount: 3, replyActorIds: [a, b] });
    expect(counted.lastReplyAt!.getTime()).toBeGreaterThanOrEqual(afterFirst.lastReplyAt!.getTime());
    expect(afterFirst.lastReplyAt!.getTime()).toBeGreaterThanOrEqual(first.createdAt.getTime());

    const other = await newChannel(c.workspaceId);
    expect(await reply(c, first.id, a)).toBeUndefined(); // a reply is no root
    expect(await reply(other, root.id, a)).toBeUndefined(); // another conversation
    expect(await reply({ workspaceId: workspace(), id: c.id }, root.id, a)).toBeUndefined(); // another workspace
    expect(await reply(c, uuidv7(), a)).toBeUndefined();
    expect((await reload(root)).replyCount).toBe(3);
  });

  it('counts every one of many parallel replies', async () => {
    const c = await newChannel();
    const root = await post(c, actor());
    const repliers = Array.from({ length: 8 }, actor);
    await Promise.all(repliers.map((r) => post(c, r, { parent: root })));
    const counted = await reload(root);
    expect(counted.replyCount).toBe(8);
    expect([...counted.replyActorIds].sort()).toEqual([...repliers].sort());
  });

  it('soft-deletes into a placeholder: text, mentions and reactions gone, thread fields kept, once', async () => {
    const c = await newChannel();
    const [author, mentioned] = [actor(), actor()];
    const root = await post(c, author, { mentions: [mentioned], assetIds: [randomUUID()] });
    await post(c, actor(), { parent: root });
    await react(root, 'add', '👍', mentioned);
    const before = await reload(root);
    expect(before.reactionsVersion).toBe(1);

    expect(await transact((tx) => messages.softDelete(workspace(), root.id, tx))).toBeUndefined();
    const deleted = await transact((tx) => messages.softDelete(c.workspaceId, root.id, tx));
    expect(deleted).toMatchObject({
      bodyText: '',
      children: [],
      mentionedActorIds: [],
      reactions: [],
      reactionsVersion: 2,
      replyCount: 1,
      loadingExpiresAt: null,
    });
    expect(deleted!.deletedAt).toBeInstanceOf(Date);
    expect(deleted!.replyActorIds).toEqual(before.replyActorIds);
    expect(await db('reactions').where({ message_id: root.id })).toEqual([]);
    expect(await db('mentions').where({ message_id: root.id })).toEqual([]);

    // Lists keep the placeholder in its place.
    const [listed] = (await messages.page({
      workspaceId: c.workspaceId,
      conversationId: c.id,
      parentMessageId: null,
      before: null,
      limit: 10,
      actorId: actor(),
    }))!;
    expect(listed?.message).toMatchObject({ id: root.id, bodyText: '' });
    expect(listed?.message.deletedAt).toEqual(deleted!.deletedAt);

    await transact(async (tx) => {
      expect(await messages.softDelete(c.workspaceId, root.id, tx)).toBeUndefined();
      expect(await messages.edit(c.workspaceId, root.id, text('back'), tx)).toBeUndefined();
      expect(await reply(c, root.id, author, tx)).toBeUndefined();
    });
    expect(await reload(root)).toMatchObject({
      deletedAt: deleted!.deletedAt,
      bodyText: '',
      reactionsVersion: 2,
      replyCount: 1,
    });
  });

  it('leaves the reactions version alone when deleting a message without reactions', async () => {
    const c = await newChannel();
    const m = await post(c, actor());
    const deleted = await transact((tx) => messages.softDelete(c.workspaceId, m.id, tx));
    expect(deleted?.reactionsVersion).toBe(0);
  });

  it("stores mentions for counts without the author's own", async () => {
    const c = await newChannel();
    const [author, x, y] = [actor(), actor(), actor()];
    const m = await post(c, author, { mentions: [x, author, y] });
    expect(m.mentionedActorIds).toEqual([x, author, y]);
    const rows = await db('mentions')
      .where({ message_id: m.id })
      .select('actor_id', 'conversation_id', 'thread_root_id');
    expect(rows.map((r) => r.actor_id).sort()).toEqual([x, y].sort());
    expect(rows.every((r) => r.conversation_id === c.id && r.thread_root_id === null)).toBe(true);
    const reply = await post(c, author, { parent: m, mentions: [x] });
    expect(await db('mentions').where({ message_id: reply.id }).select('actor_id', 'thread_root_id')).toEqual([
      { actor_id: x, thread_root_id: m.id },
    ]);
  });

  describe('client_message_id claims', () => {
    /** Claims the key for a new message and inserts it in the same transaction; returns the holder when the key was taken. */
    const postOnce = (c: Channel, actorId: string, clientMessageId: string) =>
      transact(async (tx) => {
        const id = uuidv7();
        const heldBy = await messages.claimClientId(
          { workspaceId: c.workspaceId, conversationId: c.id, actorId, clientMessageId },
          id,
          tx,
        );
        if (heldBy) return { heldBy };
        await messages.insert(
          {
            id,
            workspaceId: c.workspaceId,
            conversationId: c.id,
            parentMessageId: null,
            authorActorId: actorId,
            bodyText: 'once',
            children: [],
            mentionedActorIds: [],
            assetIds: [],
            loading: false,
          },
          tx,
        );
        return { created: id };
      });

    it('lets the first post of a key claim it and answers repeats with the holder', async () => {
      const c = await newChannel();
      const a = actor();
      const first = await postOnce(c, a, 'k-1');
      expect(first.created).toBeDefined();
      expect(await postOnce(c, a, 'k-1')).toEqual({ heldBy: first.created });
      // The key is per actor and per conversation.
      expect((await postOnce(c, actor(), 'k-1')).created).toBeDefined();
      expect((await postOnce(await newChannel(c.workspaceId), a, 'k-1')).created).toBeDefined();
      expect((await postOnce(c, a, 'k-2')).created).toBeDefined();
    });

    it('lets a new post take over a claim older than 24 hours', async () => {
      const c = await newChannel();
      const a = actor();
      const first = await postOnce(c, a, 'stale');
      await db('client_messages')
        .where({ message_id: first.created })
        .update({ created_at: db.raw("now() - interval '25 hours'") });
      const second = await postOnce(c, a, 'stale');
      expect(second.created).toBeDefined();
      expect(second.created).not.toBe(first.created);
      expect(await postOnce(c, a, 'stale')).toEqual({ heldBy: second.created });
    });

    it('lets exactly one of parallel posts of the same key claim it', async () => {
      const c = await newChannel();
      const a = actor();
      const results = await Promise.all(Array.from({ length: 5 }, () => postOnce(c, a, 'race')));
      const created = results.filter((r) => r.created).map((r) => r.created);
      expect(created).toHaveLength(1);
      expect(results.filter((r) => r.heldBy === created[0])).toHaveLength(4);
      expect(await db('messages').where({ conversation_id: c.id })).toHaveLength(1);
    });

    it('drops the claim with a rolled-back post', async () => {
      const c = await newChannel();
      const a = actor();
      await expect(
        transact(async (tx) => {
          await messages.claimClientId(
            { workspaceId: c.workspaceId, conversationId: c.id, actorId: a, clientMessageId: 'rb' },
            uuidv7(),
            tx,
          );
          throw new Error('the insert failed');
        }),
      ).rejects.toThrow('the insert failed');
      expect((await postOnce(c, a, 'rb')).created).toBeDefined();
    });

    it('sweeps claims made before the cutoff, a bounded batch at a time', async () => {
      const c = await newChannel();
      const a = actor();
      const old = [await postOnce(c, a, 'o1'), await postOnce(c, a, 'o2'), await postOnce(c, a, 'o3')].map(
        (r) => r.created!,
      );
      const kept = (await postOnce(c, a, 'fresh')).created!;
      await db('client_messages')
        .whereIn('message_id', old)
        .update({ created_at: new Date('2001-01-01T00:00:00Z') });
      const cutoff = new Date('2001-01-02T00:00:00Z');
      expect(await messages.deleteClientIds(cutoff, 2)).toBe(2);
      expect(await messages.deleteClientIds(cutoff, 2)).toBe(1);
      expect(await messages.deleteClientIds(cutoff, 2)).toBe(0);
      expect(await db('client_messages').where({ conversation_id: c.id }).pluck('message_id')).toEqual([kept]);
    });
  });

  it('lists deleted messages of every workspace whose assets are still to be released, and forgets them only for deleted messages of the workspace', async () => {
    const c = await newChannel();
    const elsewhere = await newChannel();
    const asset = randomUUID();
    const gone = await post(c, actor(), { assetIds: [asset, randomUUID()] });
    const live = await post(c, actor(), { assetIds: [randomUUID()] });
    const goneWithout = await post(c, actor());
    const goneElsewhere = await post(elsewhere, actor(), { assetIds: [randomUUID()] });
    expect(gone.assetIds[0]).toBe(asset);
    await transact(async (tx) => {
      await messages.softDelete(c.workspaceId, gone.id, tx);
      await messages.softDelete(c.workspaceId, goneWithout.id, tx);
      await messages.softDelete(elsewhere.workspaceId, goneElsewhere.id, tx);
    });
    const later = new Date(Date.now() + 60_000);
    const pending = await messages.withUnreleasedAssets(later, 1000);
    expect(pending).toContainEqual({ workspaceId: c.workspaceId, id: gone.id });
    expect(pending).toContainEqual({ workspaceId: elsewhere.workspaceId, id: goneElsewhere.id });
    const ids = pending.map((p) => p.id);
    expect(ids).not.toContain(live.id);
    expect(ids).not.toContain(goneWithout.id);
    expect(
      (await messages.withUnreleasedAssets(new Date(Date.now() - 3_600_000), 1000)).map((p) => p.id),
    ).not.toContain(gone.id);

    await messages.forgetAssets(c.workspaceId, [gone.id, live.id, goneElsewhere.id]);
    expect((await reload(gone)).assetIds).toEqual([]);
    expect((await reload(live)).assetIds).toEqual(live.assetIds);
    expect((await reload(goneElsewhere)).assetIds).toEqual(goneElsewhere.assetIds);
    const after = await messages.withUnreleasedAssets(later, 1000);
    expect(after.map((p) => p.id)).not.toContain(gone.id);
    expect(after).toContainEqual({ workspaceId: elsewhere.workspaceId, id: goneElsewhere.id });
  });
});

describe(ReactionStore.name, () => {
  it('orders emoji by first reaction and actors by reaction order, with one version per change', async () => {
    const c = await newChannel();
    const m = await post(c, actor());
    expect(m).toMatchObject({ reactions: [], reactionsVersion: 0 });
    const [a, b, d] = [actor(), actor(), actor()];

    expect((await react(m, 'add', '👍', a)).message.reactionsVersion).toBe(1);
    await react(m, 'add', '🎉', b);
    const third = await react(m, 'add', '👍', d);
    expect(third.message.reactions).toEqual([
      { emoji: '👍', actorIds: [a, d] },
      { emoji: '🎉', actorIds: [b] },
    ]);
    expect(third.message.reactionsVersion).toBe(3);

    // Repeats change nothing.
    expect(await react(m, 'add', '👍', a)).toMatchObject({ changed: false, message: { reactionsVersion: 3 } });
    expect(await react(m, 'remove', '❤️', a)).toMatchObject({ changed: false, message: { reactionsVersion: 3 } });

    // Removing the first 👍 leaves 🎉 as the earliest first reaction.
    const removed = await react(m, 'remove', '👍', a);
    expect(removed).toMatchObject({ changed: true, message: { reactionsVersion: 4 } });
    expect(removed.message.reactions).toEqual([
      { emoji: '🎉', actorIds: [b] },
      { emoji: '👍', actorIds: [d] },
    ]);
    await react(m, 'remove', '🎉', b);
    const last = await react(m, 'remove', '👍', d);
    expect(last.message).toMatchObject({ reactions: [], reactionsVersion: 6 });
    expect(await reload(m)).toMatchObject({ reactions: [], reactionsVersion: 6 });
  });

  it('loses no change among parallel reactions to one message', async () => {
    const c = await newChannel();
    const m = await post(c, actor());
    const reactors = Array.from({ length: 8 }, actor);
    await Promise.all(reactors.map((r, i) => react(m, 'add', i % 2 ? '🔥' : '✅', r)));
    const after = await reload(m);
    expect(after.reactionsVersion).toBe(8);
    expect(after.reactions.flatMap((r) => r.actorIds).sort()).toEqual([...reactors].sort());
    expect(after.reactions.map((r) => r.emoji).sort()).toEqual(['✅', '🔥'].sort());
  });

  describe('addToLive (no lock taken before)', () => {
    const add = (
      m: Message,
      emoji: string,
      actorId: string,
      over: { workspaceId?: string; conversationId?: string; maxEmoji?: number } = {},
    ) =>
      transact((tx) =>
        reactions.addToLive(
          {
            workspaceId: m.workspaceId,
            conversationId: m.conversationId,
            messageId: m.id,
            emoji,
            actorId,
            maxEmoji: 50,
            ...over,
          },
          tx,
        ),
      );
    /** The summary as the reactions table has it, to compare with the one the statement wrote. */
    const summaryOf = async (m: Message) =>
      (await react(m, 'add', '🧪', actor())).message.reactions.filter((r) => r.emoji !== '🧪');

    it('adds to the summary in reaction order and refuses what the rules would', async () => {
      const c = await newChannel();
      const m = await post(c, actor());
      const [a, b] = [actor(), actor()];
      expect(await add(m, '👍', a)).toMatchObject({ reactionsVersion: 1, reactions: [{ emoji: '👍', actorIds: [a] }] });
      expect(await add(m, '🎉', b)).toMatchObject({
        reactionsVersion: 2,
        reactions: [
          { emoji: '👍', actorIds: [a] },
          { emoji: '🎉', actorIds: [b] },
        ],
      });
      expect(await add(m, '👍', b)).toMatchObject({
        reactionsVersion: 3,
        reactions: [
          { emoji: '👍', actorIds: [a, b] },
          { emoji: '🎉', actorIds: [b] },
        ],
      });
      expect(await add(m, '👍', a)).toBeUndefined(); // a repeat
      expect(await add(m, '❤️', a, { maxEmoji: 2 })).toBeUndefined(); // full
      expect(await add(m, '🎉', a, { maxEmoji: 2 })).toMatchObject({ reactionsVersion: 4 }); // present: not a new emoji
      expect(await add(m, '❤️', a, { workspaceId: workspace() })).toBeUndefined();
      expect(await add(m, '❤️', a, { conversationId: (await newChannel(c.workspaceId)).id })).toBeUndefined();
      const written = await reload(m);
      expect(written.reactionsVersion).toBe(4);
      expect(await summaryOf(m)).toEqual(written.reactions);
      await transact((tx) => messages.softDelete(c.workspaceId, m.id, tx));
      expect(await add(m, '❤️', a)).toBeUndefined(); // deleted
    });

    it('keeps every one of many parallel reactions in the summary, each waiting for the lock', async () => {
      const c = await newChannel();
      const m = await post(c, actor());
      const reactors = Array.from({ length: 12 }, actor);
      await Promise.all(reactors.map((r, i) => add(m, ['🔥', '✅', '👀'][i % 3]!, r)));
      const after = await reload(m);
      expect(after.reactionsVersion).toBe(12);
      expect(after.reactions.flatMap((r) => r.actorIds).sort()).toEqual([...reactors].sort());
      expect(await summaryOf(m)).toEqual(after.reactions);
    });
  });
});

describe(SavedStore.name, () => {
  it('saves once: a repeat keeps the first time and reports that it made nothing', async () => {
    const c = await newChannel();
    const m = await post(c, actor());
    const a = actor();
    const first = (await saved.save(a, c.workspaceId, c.id, m.id))!;
    expect(first).toEqual({ deletedAt: null, savedAt: expect.any(Date), created: true });
    const again = await transact((tx) => saved.save(a, c.workspaceId, c.id, m.id, tx));
    expect(again).toEqual({ deletedAt: null, savedAt: first.savedAt, created: false });
    expect(await db('saved_messages').where({ actor_id: a })).toHaveLength(1);

    // Named in another workspace, it is not there.
    expect(await saved.unsave(randomUUID(), a, m.id)).toBe(false);
    expect(await transact((tx) => saved.unsave(c.workspaceId, a, m.id, tx))).toBe(true);
    expect(await saved.unsave(c.workspaceId, a, m.id)).toBe(false);
    expect((await messages.find(c.workspaceId, m.id, a))?.savedAt).toBeNull();
  });

  it("saves only a live message of the workspace's conversation", async () => {
    const c = await newChannel();
    const m = await post(c, actor());
    const a = actor();
    expect(await saved.save(a, workspace(), c.id, m.id)).toBeUndefined();
    expect(await saved.save(a, c.workspaceId, (await newChannel(c.workspaceId)).id, m.id)).toBeUndefined();
    expect(await saved.save(a, c.workspaceId, c.id, uuidv7())).toBeUndefined();
    const deleted = (await transact((tx) => messages.softDelete(c.workspaceId, m.id, tx)))!;
    expect(await saved.save(a, c.workspaceId, c.id, m.id)).toEqual({
      deletedAt: deleted.deletedAt,
      savedAt: null,
      created: false,
    });
    expect(await db('saved_messages').where({ actor_id: a })).toHaveLength(0);
  });

  it('saves once when the same save runs concurrently: one creates, the others read its time', async () => {
    const c = await newChannel();
    const m = await post(c, actor());
    const a = actor();
    const outcomes = await Promise.all(
      Array.from({ length: 4 }, () => transact((tx) => saved.save(a, c.workspaceId, c.id, m.id, tx))),
    );
    expect(outcomes.filter((o) => o?.created)).toHaveLength(1);
    expect(new Set(outcomes.map((o) => o?.savedAt?.toISOString())).size).toBe(1);
  });

  it('pages live saved messages of the workspace newest save first, by save order rather than message order', async () => {
    const c = await newChannel();
    const a = actor();
    const [m1, m2, m3, m4] = [
      await post(c, actor()),
      await post(c, actor()),
      await post(c, actor()),
      await post(c, actor()),
    ];
    const elsewhere = await post(await newChannel(), actor());
    for (const m of [m3, m1, m4, m2, elsewhere]) await saved.save(a, m.workspaceId, m.conversationId, m.id);
    await transact((tx) => messages.softDelete(c.workspaceId, m4.id, tx));
    await saved.save(actor(), c.workspaceId, c.id, m1.id);

    const first = await saved.page({ actorId: a, workspaceId: c.workspaceId, beforeSeq: null, limit: 2 });
    expect(first.map((r) => r.message.id)).toEqual([m2.id, m1.id]);
    expect(first.every((r) => r.savedAt instanceof Date)).toBe(true);
    const second = await saved.page({ actorId: a, workspaceId: c.workspaceId, beforeSeq: first.at(-1)!.seq, limit: 2 });
    expect(second.map((r) => r.message.id)).toEqual([m3.id]);
    expect(Number(first[0]!.seq)).toBeGreaterThan(Number(first[1]!.seq));
  });
});

describe(ReadStateStore.name, () => {
  const mark = async (a: string, c: Channel, m: Message) =>
    (await readStates.markConversation(a, c.workspaceId, c.id, m.id))!;
  const markThread = (a: string, root: Message, m: Message) => readStates.markThread(a, root, m.id);

  it('has no mark before the first read, and counts everything then', async () => {
    const c = await newChannel();
    const a = actor();
    expect(await readStates.conversationMark(c.workspaceId, a, c.id)).toEqual({
      lastReadMessageId: null,
      lastReadAt: null,
      updatedAt: null,
      following: null,
    });
    await post(c, actor(), { mentions: [a] });
    await post(c, actor());
    expect(await readStates.conversationCounts(a, { workspaceId: c.workspaceId, conversationId: c.id }, null)).toEqual({
      unreadCount: 2,
      mentionCount: 1,
    });
  });

  it('counts unread top-level messages after the mark, skipping deleted and own ones, and those mentioning the caller', async () => {
    const c = await newChannel();
    const [a, b] = [actor(), actor()];
    const m1 = await post(c, b);
    const m2 = await post(c, b, { mentions: [a] });
    const m3 = await post(c, b, { mentions: [a] });
    await post(c, a, { mentions: [a] }); // own, and a self-mention is not stored
    const reply = await post(c, b, { parent: m1, mentions: [a] }); // a reply counts in its thread only
    await transact((tx) => messages.softDelete(c.workspaceId, m3.id, tx));
    const m5 = await post(c, b);

    expect(await readStates.conversationCounts(a, { workspaceId: c.workspaceId, conversationId: c.id }, null)).toEqual({
      unreadCount: 3,
      mentionCount: 1,
    });
    expect(await readStates.conversationCounts(a, { workspaceId: c.workspaceId, conversationId: c.id }, m1.id)).toEqual(
      { unreadCount: 2, mentionCount: 1 },
    );
    expect(await readStates.conversationCounts(a, { workspaceId: c.workspaceId, conversationId: c.id }, m2.id)).toEqual(
      { unreadCount: 1, mentionCount: 0 },
    );
    expect(
      await readStates.conversationCounts(a, { workspaceId: c.workspaceId, conversationId: c.id }, reply.id),
    ).toEqual({ unreadCount: 1, mentionCount: 0 });
    expect(await readStates.conversationCounts(a, { workspaceId: c.workspaceId, conversationId: c.id }, m5.id)).toEqual(
      { unreadCount: 0, mentionCount: 0 },
    );
    // The author's view: b's own messages do not count.
    expect(await readStates.conversationCounts(b, { workspaceId: c.workspaceId, conversationId: c.id }, null)).toEqual({
      unreadCount: 1,
      mentionCount: 0,
    });
  });

  it('moves the conversation mark forwards and backwards, one row per actor and conversation', async () => {
    const c = await newChannel();
    const a = actor();
    const [m1, m2] = [await post(c, actor()), await post(c, actor())];
    const forward = await mark(a, c, m2);
    expect(forward.lastReadMessageId).toBe(m2.id);
    expect(forward.lastReadAt).toBeInstanceOf(Date);
    const back = await mark(a, c, m1);
    expect(back.lastReadMessageId).toBe(m1.id);
    expect(back.updatedAt!.getTime()).toBeGreaterThanOrEqual(forward.updatedAt!.getTime());
    expect(await readStates.conversationMark(c.workspaceId, a, c.id)).toMatchObject({
      lastReadMessageId: m1.id,
      following: null,
    });
    expect(await db('conversation_reads').where({ actor_id: a })).toHaveLength(1);
    expect((await readStates.conversationMark(c.workspaceId, actor(), c.id)).lastReadMessageId).toBeNull();
    // The counts after the new mark come with it; a message of another conversation or workspace moves nothing.
    expect(forward).toMatchObject({ unreadCount: 0, mentionCount: 0 });
    expect(back).toMatchObject({ unreadCount: 1, mentionCount: 0 });
    expect(
      await readStates.markConversation(a, c.workspaceId, (await newChannel(c.workspaceId)).id, m2.id),
    ).toBeUndefined();
    expect(await readStates.markConversation(a, workspace(), c.id, m2.id)).toBeUndefined();
    expect(await readStates.conversationMark(c.workspaceId, a, c.id)).toMatchObject({ lastReadMessageId: m1.id });
  });

  it("counts a thread's unread replies and mentions after its mark, keeping the following choice", async () => {
    const c = await newChannel();
    const [a, b] = [actor(), actor()];
    const root = await post(c, a);
    const r1 = await post(c, b, { parent: root, mentions: [a] });
    const r2 = await post(c, b, { parent: root });
    await post(c, a, { parent: root });
    const r4 = await post(c, b, { parent: root, mentions: [a] });
    await transact((tx) => messages.softDelete(c.workspaceId, r4.id, tx));
    await post(c, b); // top-level: not in the thread

    expect(await readStates.threadCounts(a, { workspaceId: root.workspaceId, rootId: root.id }, null)).toEqual({
      unreadCount: 2,
      mentionCount: 1,
    });
    expect(await readStates.threadCounts(a, { workspaceId: root.workspaceId, rootId: root.id }, root.id)).toEqual({
      unreadCount: 2,
      mentionCount: 1,
    });
    expect(await readStates.threadCounts(a, { workspaceId: root.workspaceId, rootId: root.id }, r1.id)).toEqual({
      unreadCount: 1,
      mentionCount: 0,
    });

    expect((await readStates.threadMark(root.workspaceId, a, root.id)).following).toBe(true); // the root's author follows on the first reply
    const marked = await markThread(a, root, r2);
    expect(marked).toMatchObject({ lastReadMessageId: r2.id, following: true });
    expect(
      await readStates.threadCounts(a, { workspaceId: root.workspaceId, rootId: root.id }, marked.lastReadMessageId),
    ).toEqual({
      unreadCount: 0,
      mentionCount: 0,
    });
    // A mark on a thread nobody follows yet leaves following unset (the implicit rule).
    const quiet = await post(c, b);
    expect(await markThread(a, quiet, quiet)).toMatchObject({ lastReadMessageId: quiet.id, following: null });
  });

  it('follows on replies: forced actors override an explicit unfollow, implicit ones keep their choice', async () => {
    const c = await newChannel();
    const [author, forced, implicitOff, implicitNew, neverSet] = [actor(), actor(), actor(), actor(), actor()];
    const root = await post(c, author, { mentions: [implicitOff, implicitNew] });
    await transact(async (tx) => {
      await readStates.setFollowing(forced, root, false, tx);
      await readStates.setFollowing(implicitOff, root, false, tx);
    });
    const unsubscribed = await readStates.setFollowing(neverSet, root, false);
    expect(unsubscribed).toMatchObject({ following: false, lastReadMessageId: null });

    // `forced` replies: it follows again; the root's author and those the root mentions follow unless they chose.
    await post(c, forced, { parent: root });
    expect((await readStates.threadMark(root.workspaceId, forced, root.id)).following).toBe(true);
    expect((await readStates.threadMark(root.workspaceId, author, root.id)).following).toBe(true);
    expect((await readStates.threadMark(root.workspaceId, implicitOff, root.id)).following).toBe(false);
    expect((await readStates.threadMark(root.workspaceId, implicitNew, root.id)).following).toBe(true);
    expect((await readStates.threadMark(root.workspaceId, neverSet, root.id)).following).toBe(false);
    // Mentioned in a reply: followed even after an explicit unfollow.
    await post(c, actor(), { parent: root, mentions: [neverSet] });
    expect((await readStates.threadMark(root.workspaceId, neverSet, root.id)).following).toBe(true);
    await readStates.setFollowing(neverSet, root, false);

    // An explicit subscription keeps the read mark.
    await markThread(neverSet, root, root);
    expect(await readStates.setFollowing(neverSet, root, true)).toMatchObject({
      following: true,
      lastReadMessageId: root.id,
    });
  });

  it('lists threads newest root first: followed ones, every one with its following, unread ones, and by cursor', async () => {
    const ws = workspace();
    const c = await newChannel(ws);
    const c2 = await newChannel(ws);
    const [a, b, x] = [actor(), actor(), actor()];
    const r1 = await post(c, a);
    const r2 = await post(c2, b, { mentions: [a] });
    const r3 = await post(c, b);
    await post(c, b); // a root without replies is no thread
    const foreign = await newChannel();
    await post(foreign, a, { parent: await post(foreign, a) }); // another workspace's thread

    await post(c, b, { parent: r1 });
    await post(c2, b, { parent: r2 });
    await post(c, x, { parent: r3, mentions: [a] });
    await post(c, x, { parent: r3 });

    const list = (
      q: Partial<{ following: boolean; unread: boolean; before: string | null; limit: number }>,
      actorId = a,
    ) =>
      readStates.threads({ workspaceId: ws, actorId, following: true, unread: false, before: null, limit: 10, ...q });
    const ids = (rows: Awaited<ReturnType<typeof list>>) => rows.map((r) => r.root.message.id);

    // a follows r1 (author), r2 (mentioned in the root) and r3 (mentioned in a reply).
    expect(ids(await list({}))).toEqual([r3.id, r2.id, r1.id]);
    await readStates.setFollowing(a, r2, false);
    expect(ids(await list({}))).toEqual([r3.id, r1.id]);

    const all = await list({ following: false });
    expect(ids(all)).toEqual([r3.id, r2.id, r1.id]);
    expect(all.map((t) => t.following)).toEqual([true, false, true]);
    expect(all.map((t) => [t.unreadCount, t.mentionCount])).toEqual([
      [2, 1],
      [1, 0],
      [1, 0],
    ]);
    expect(all[0]!.root.message.replyCount).toBe(2);

    await markThread(
      a,
      r1,
      (await messages.page({
        workspaceId: ws,
        conversationId: c.id,
        parentMessageId: r1.id,
        before: null,
        limit: 1,
        actorId: a,
      }))![0]!.message,
    );
    const unread = await list({ following: false, unread: true });
    expect(ids(unread)).toEqual([r3.id, r2.id]);
    const r1Row = (await list({})).find((t) => t.root.message.id === r1.id)!;
    expect(r1Row).toMatchObject({ unreadCount: 0, mentionCount: 0, following: true });
    expect(r1Row.lastReadMessageId).not.toBeNull();

    expect(ids(await list({ following: false, limit: 1 }))).toEqual([r3.id]);
    expect(ids(await list({ following: false, before: r3.id, limit: 1 }))).toEqual([r2.id]);
    expect(ids(await list({ following: false, before: r1.id }))).toEqual([]);

    // Someone who never touched these threads follows none; in the full list only the implicit rule applies.
    const stranger = actor();
    expect(await list({}, stranger)).toEqual([]);
    expect((await list({ following: false }, stranger)).map((t) => t.following)).toEqual([false, false, false]);
    expect((await list({ following: false }, b)).map((t) => t.following)).toEqual([true, true, true]);
  });
});

// Upserts name no unique key (kit keylessUpsert): the row a concurrent transaction inserts first, committed while the
// upsert waits for it, is updated by its next try, and nothing of either write is lost.
describe('upserts against a concurrent first insert of the same row', () => {
  /**
   * Runs `planted` in a transaction left open, then `upsert`, which waits for that transaction's row; commits once it
   * waits, and answers what `upsert` answered.
   */
  async function behind<T>(planted: (trx: Knex.Transaction) => Promise<unknown>, upsert: () => Promise<T>): Promise<T> {
    const trx = await db.transaction();
    try {
      await planted(trx);
      const result = upsert();
      await waitFor('the upsert to wait for the planted row', async () => {
        const { rows } = await db.raw(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        );
        return rows[0].n > 0;
      });
      await trx.commit();
      return await result;
    } finally {
      if (!trx.isCompleted()) await trx.rollback();
    }
  }
  const threadRead = (actorId: string, root: Message) =>
    db('thread_reads')
      .where({ workspace_id: root.workspaceId, actor_id: actorId, root_id: root.id })
      .select('following', 'last_read_message_id');
  const plantThreadRead = (actorId: string, root: Message, row: object) => (trx: Knex.Transaction) =>
    trx('thread_reads').insert({
      actor_id: actorId,
      root_id: root.id,
      workspace_id: root.workspaceId,
      conversation_id: root.conversationId,
      ...row,
    });

  it('marks a thread, keeping the following the first insert set', async () => {
    const c = await newChannel();
    const a = actor();
    const root = await post(c, a);
    const marked = await behind(plantThreadRead(a, root, { following: false }), () =>
      readStates.markThread(a, root, root.id),
    );
    expect(marked).toMatchObject({ lastReadMessageId: root.id, following: false });
    expect(await threadRead(a, root)).toEqual([{ following: false, last_read_message_id: root.id }]);
  });

  it('sets following, keeping the mark the first insert set', async () => {
    const c = await newChannel();
    const a = actor();
    const root = await post(c, a);
    const set = await behind(plantThreadRead(a, root, { last_read_message_id: root.id }), () =>
      readStates.setFollowing(a, root, true),
    );
    expect(set).toMatchObject({ lastReadMessageId: root.id, following: true });
    expect(await threadRead(a, root)).toEqual([{ following: true, last_read_message_id: root.id }]);
  });

  it('moves a conversation mark, one row for the actor and the conversation', async () => {
    const c = await newChannel();
    const a = actor();
    const [first, second] = [await post(c, a), await post(c, a)];
    const moved = await behind(
      (trx) =>
        trx('conversation_reads').insert({
          actor_id: a,
          workspace_id: c.workspaceId,
          conversation_id: c.id,
          last_read_message_id: first.id,
          last_read_at: new Date(),
        }),
      () => readStates.markConversation(a, c.workspaceId, c.id, second.id),
    );
    expect(moved).toMatchObject({ lastReadMessageId: second.id, unreadCount: 0 });
    expect(
      await db('conversation_reads').where({ actor_id: a, conversation_id: c.id }).select('last_read_message_id'),
    ).toEqual([{ last_read_message_id: second.id }]);
  });

  it("answers a client_message_id's claim with the message of the claim made first", async () => {
    const c = await newChannel();
    const a = actor();
    const first = uuidv7();
    const key = { workspaceId: c.workspaceId, conversationId: c.id, actorId: a, clientMessageId: 'planted' };
    const heldBy = await behind(
      async (trx) => {
        await trx('client_messages').insert({
          workspace_id: c.workspaceId,
          conversation_id: c.id,
          actor_id: a,
          client_message_id: 'planted',
          message_id: first,
        });
        await trx('messages').insert({
          id: first,
          workspace_id: c.workspaceId,
          conversation_id: c.id,
          author_actor_id: a,
          body_text: 'first',
        });
      },
      () => transact((tx) => messages.claimClientId(key, uuidv7(), tx)),
    );
    expect(heldBy).toBe(first);
  });

  it("makes a reply's root author follow when the author's first mark of the thread goes in meanwhile", async () => {
    const c = await newChannel();
    const [author, replier] = [actor(), actor()];
    const root = await post(c, author);
    await behind(plantThreadRead(author, root, { last_read_message_id: root.id }), () =>
      post(c, replier, { parent: root }),
    );
    expect(await threadRead(author, root)).toEqual([{ following: true, last_read_message_id: root.id }]);
    expect(await threadRead(replier, root)).toEqual([{ following: true, last_read_message_id: null }]);
  });

  it('makes those an edit mentions follow, over an unfollow that goes in meanwhile', async () => {
    const c = await newChannel();
    const [author, mentioned] = [actor(), actor()];
    const root = await post(c, author);
    await behind(plantThreadRead(mentioned, root, { following: false }), () =>
      transact(async (tx) =>
        messages.follow((await messages.lockRoot(c.workspaceId, root.id, tx))!, [mentioned], [mentioned], tx),
      ),
    );
    expect(await threadRead(mentioned, root)).toEqual([{ following: true, last_read_message_id: null }]);
  });
});

describe(OutboxStore.name, () => {
  const outboxOf = async (workspaceId: string) => await emitted.read(workspaceId);

  it("appends events with the caller's transaction only", async () => {
    const c = await newChannel();
    await expect(
      transact(async (tx) => {
        await outbox.append([{ type: 'channel.created', channel: c, memberIds: [] }], tx);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await transact((tx) => outbox.append([], tx));
    expect(await outboxOf(c.workspaceId)).toEqual([]);
  });

  it("writes into the change's transaction: an event exists once it commits, in commit order, and never after a rollback", async () => {
    const c = await newChannel();
    const created: MessagingEvent = { type: 'channel.created', channel: c, memberIds: [] };
    await expect(
      transact(async (tx) => {
        await outbox.append([created], tx);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    let commitFirst!: () => void;
    const first = transact(async (tx) => {
      await outbox.append([{ type: 'channel.updated', channel: c, memberIds: [] }], tx);
      await new Promise<void>((resolve) => (commitFirst = resolve));
    });
    await transact((tx) => outbox.append([created], tx));
    expect(await outboxOf(c.workspaceId)).toHaveLength(1);
    commitFirst();
    await first;
    const events = await outboxOf(c.workspaceId);
    // The transaction that began first committed last.
    expect(events.map((e) => [e.source, e.event])).toEqual([
      ['messaging', 'channel.created'],
      ['messaging', 'channel.updated'],
    ]);
  });

  it('stores each event as realtime clients receive it on its channel (realtime replaces an oversized one by its reference)', async () => {
    const c = await newChannel();
    const author = actor();
    const small = await post(c, author, { body: 'small' });
    await transact((tx) =>
      outbox.append(
        [
          { type: 'message.created', message: readOf({ message: small, savedAt: new Date() }) },
          {
            type: 'saved.updated',
            workspaceId: c.workspaceId,
            actorId: author,
            saved: { messageId: small.id, savedAt: null },
          },
        ],
        tx,
      ),
    );
    const rows = await outboxOf(c.workspaceId);
    expect(rows.map((r) => [r.event, r.channel])).toEqual([
      ['message.created', conversationChannel(c.id)],
      ['saved.updated', actorChannel(author)],
    ]);
    // A bookmark is its owner's alone: events carry none.
    expect(rows[0]!.payload).toEqual({
      event_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      message: expect.objectContaining({
        id: small.id,
        body_text: 'small',
        children: [{ type: 'text', text: 'small', style: { bold: false, italic: false, strike: false, code: false } }],
        saved_at: null,
        assets: [],
        parent_message_id: null,
      }),
    });
    expect(rows[1]!.payload).toEqual({
      event_id: expect.any(String),
      saved: { message_id: small.id, saved: false, saved_at: null },
    });
  });
});

describe(PurgeStore.name, () => {
  /** An outbox row, as the previous release wrote its events (and writes them during a rolling upgrade). */
  const previousReleaseRow = (workspaceId: string) =>
    db('outbox').insert({ workspace_id: workspaceId, channel: workspaceChannel(workspaceId), event: 'e', payload: {} });

  it('purges a deleted workspace in bounded batches and leaves other workspaces alone', async () => {
    const ws = workspace();
    const [a, b] = [actor(), actor()];
    for (const c of [await newChannel(ws), await newChannel(ws)]) {
      for (let i = 0; i < 3; i++) {
        const root = await post(c, a, { mentions: [b] });
        await post(c, b, { parent: root, mentions: [a] });
        await post(c, a, { parent: root });
        await react(root, 'add', '👍', b);
        await transact(async (tx) => {
          await saved.save(b, ws, c.id, root.id, tx);
          await readStates.markConversation(b, ws, c.id, root.id, tx);
          await messages.claimClientId(
            { workspaceId: c.workspaceId, conversationId: c.id, actorId: a, clientMessageId: `k${i}` },
            root.id,
            tx,
          );
        });
        await previousReleaseRow(ws);
      }
    }
    const keep = await newChannel();
    const kept = await post(keep, a, { mentions: [b] });
    await post(keep, b, { parent: kept });
    await previousReleaseRow(keep.workspaceId);

    const purgeBatch = () => transact((tx) => purge.purgeBatch(ws, 2, tx));
    let batches = 0;
    while (!(await purgeBatch())) {
      batches++;
      expect(batches).toBeLessThan(100);
    }
    expect(batches).toBeGreaterThan(2);
    expect(await purgeBatch()).toBe(true);

    const count = async (table: string, where: (q: Knex.QueryBuilder) => Knex.QueryBuilder) =>
      Number((await where(db(table)).count({ n: '*' }))[0]!.n);
    expect(await count('channels', (q) => q.where({ workspace_id: ws }))).toBe(0);
    expect(await count('messages', (q) => q.where({ workspace_id: ws }))).toBe(0);
    expect(await count('outbox', (q) => q.where({ workspace_id: ws }))).toBe(0);
    expect(await count('saved_messages', (q) => q.where({ workspace_id: ws }))).toBe(0);
    expect(await count('thread_reads', (q) => q.where({ workspace_id: ws }))).toBe(0);
    expect(await count('conversation_reads', (q) => q.where({ actor_id: b }))).toBe(0);
    expect(await count('client_messages', (q) => q.where({ actor_id: a }))).toBe(0);
    expect(await count('reactions', (q) => q.where({ actor_id: b }))).toBe(0);

    // The other workspace keeps everything, mentions and thread state included.
    expect(await channels.find(keep.workspaceId, keep.id, keep.createdByActorId)).toMatchObject({
      ...keep,
      memberCount: 3,
      lastMessageAt: expect.any(Date),
    });
    expect(await count('messages', (q) => q.where({ workspace_id: keep.workspaceId }))).toBe(2);
    expect(await count('mentions', (q) => q.where({ message_id: kept.id }))).toBe(1);
    expect(await count('thread_reads', (q) => q.where({ root_id: kept.id }))).toBeGreaterThan(0);
    expect(await count('outbox', (q) => q.where({ workspace_id: keep.workspaceId }))).toBe(1);
  });
});

describe('services built by wiring', () => {
  /** Peers these tests must not reach: a message without mentions or assets needs neither. */
  const refuse = () => Promise.reject(new Error('no peer in this test'));
  let services: MessagingServices;
  beforeAll(() => {
    services = buildMessagingServices({
      db,
      workspace: { GetActorsByIds: refuse, ResolveMembership: refuse },
      assets: {
        GetAssetsByIds: refuse,
        AttachAssets: refuse,
        ReleaseMessageAssets: refuse,
        DetachMessageAssets: refuse,
      },
      log,
    });
  });
  const as = (workspaceId: string, actorId = actor()): CallContext => ({
    requestId: randomUUID(),
    userId: randomUUID(),
    workspaceId,
    actorId,
  });
  const fields = async (p: Promise<unknown>) => {
    const err = await refusal(p);
    expect(err.code).toBe('invalid_input');
    return err.details?.map((d) => d.field);
  };

  it('posts, retries by client_message_id, edits and deletes, each change with its event in the outbox', async () => {
    const c = await newChannel();
    const ctx = as(c.workspaceId);
    const input = {
      conversationId: c.id,
      bodyText: 'hello',
      assetIds: [],
      mentionedActorIds: [],
      loading: false,
      clientMessageId: `k-${randomUUID()}`,
    };
    const created = await services.messages.create(ctx, input);
    expect(created).toMatchObject({
      savedAt: null,
      assets: [],
      message: { bodyText: 'hello', authorActorId: ctx.actorId },
    });
    expect((await services.messages.create(ctx, { ...input, bodyText: 'again' })).message.id).toBe(created.message.id);

    await services.actions.save(ctx, c.id, created.message.id);
    const edited = await services.messages.edit(ctx, c.id, created.message.id, 'edited');
    expect(edited.message.bodyText).toBe('edited');
    expect(edited.savedAt).toBeInstanceOf(Date);
    await services.messages.delete(ctx, c.id, created.message.id);
    expect(await services.messages.get(ctx, c.id, created.message.id)).toMatchObject({
      message: { bodyText: '', deletedAt: expect.any(Date) },
    });

    const events = (await emitted.read(c.workspaceId)).map((e) => e.event);
    // The poster joined the channel: told on the conversation's channel and its own.
    expect(events).toEqual([
      'message.created',
      'channel_member.added',
      'channel_member.added',
      'saved.updated',
      'message.updated',
      'message.deleted',
    ]);
  });

  it('refuses malformed ids and cursors with invalid_input rather than letting Postgres fail on them', async () => {
    const c = await newChannel();
    const ctx = as(c.workspaceId);
    expect(await fields(services.messages.list(ctx, { conversationId: c.id, cursor: 'not-an-id', limit: 10 }))).toEqual(
      ['query.cursor'],
    );
    expect(
      await fields(
        services.readStates.threads(ctx, { following: false, unread: false, cursor: 'not-an-id', limit: 10 }),
      ),
    ).toEqual(['query.cursor']);
    const beyondBigint = Buffer.from('saved:9999999999999999999').toString('base64url');
    expect(await fields(services.actions.listSaved(ctx, { cursor: beyondBigint, limit: 10 }))).toEqual([
      'query.cursor',
    ]);
    const post = { conversationId: c.id, bodyText: 'x', loading: false };
    expect(await fields(services.messages.create(ctx, { ...post, assetIds: ['nope'], mentionedActorIds: [] }))).toEqual(
      ['body.asset_ids'],
    );
    expect(await fields(services.messages.create(ctx, { ...post, assetIds: [], mentionedActorIds: ['nope'] }))).toEqual(
      ['body.mentioned_actor_ids'],
    );
    expect(await fields(services.channels.purgeWorkspace('nope'))).toEqual(['workspace_id']);
  });

  it('answers a malformed conversation or message id with not found before Postgres sees it', async () => {
    const c = await newChannel();
    const ctx = as(c.workspaceId);
    const m = await post(c, ctx.actorId!);
    for (const [conversationId, messageId] of [
      ['nope', m.id],
      [c.id, 'nope'],
    ]) {
      for (const attempt of [
        () => services.actions.save(ctx, conversationId!, messageId!),
        () => services.actions.unsave(ctx, conversationId!, messageId!),
        () => services.actions.react(ctx, conversationId!, messageId!, '👍'),
        () => services.actions.unreact(ctx, conversationId!, messageId!, '👍'),
      ]) {
        expect((await refusal(attempt())).code).toBe('not_found');
      }
    }
  });

  it('purges a deleted workspace batch by batch until it answers done', async () => {
    const c = await newChannel();
    await post(c, actor());
    let calls = 0;
    while (!(await services.channels.purgeWorkspace(c.workspaceId))) expect(++calls).toBeLessThan(10);
    expect(await channels.find(c.workspaceId, c.id, c.createdByActorId)).toBeUndefined();
  });
});

describe('mentions found in the text (contract §13)', () => {
  /** The workspace's actors as the workspace service would answer them: id → display name. */
  const known = new Map<string, string>();
  const refuse = () => Promise.reject(new Error('no peer in this test'));
  let services: MessagingServices;
  beforeAll(() => {
    services = buildMessagingServices({
      db,
      workspace: {
        GetActorsByIds: ({ ids }: { ids: string[] }) =>
          Promise.resolve({
            actors: ids.filter((id) => known.has(id)).map((id) => ({ id, display_name: known.get(id)! })),
          }),
        ResolveMembership: refuse,
      } as never,
      assets: {
        GetAssetsByIds: refuse,
        AttachAssets: refuse,
        ReleaseMessageAssets: refuse,
        DetachMessageAssets: refuse,
      },
      log,
    });
  });
  const actors = (n: number) =>
    Array.from({ length: n }, (_, i) => {
      const id = actor();
      known.set(id, `Actor ${i}`);
      return id;
    });

  it('takes the ids sent, then the actors the text names, at most 50 together; the rest of the text stays text', async () => {
    const c = await newChannel();
    const ctx = { requestId: randomUUID(), userId: randomUUID(), workspaceId: c.workspaceId, actorId: actor() };
    const [sent, named] = [actors(30), actors(21)];
    const post = (bodyText: string, mentionedActorIds: string[]) =>
      services.messages.create(ctx, {
        conversationId: c.id,
        bodyText,
        mentionedActorIds,
        assetIds: [],
        loading: false,
      });
    const spell = (ids: string[]) => ids.map((id) => `<@${id}>`).join(' ');
    const err = await refusal(post(spell(named), sent));
    expect(err.details).toEqual([
      { field: 'body.mentioned_actor_ids', message: expect.stringContaining('at most 50') },
    ]);
    expect(await db('messages').where({ conversation_id: c.id }).count({ n: '*' })).toEqual([{ n: '0' }]);

    const unknown = randomUUID();
    const { message } = await post(`${spell(named.slice(1))} <@${unknown}>`, sent);
    expect(message.mentionedActorIds).toEqual([...sent, ...named.slice(1)]);
    expect(message.children.filter((n) => n.type === 'mention')).toHaveLength(20);
    expect(message.children.at(-1)).toEqual({
      type: 'text',
      text: ` <@${unknown}>`,
      style: { bold: false, italic: false, strike: false, code: false },
    });
    expect(await db('mentions').where({ message_id: message.id }).count({ n: '*' })).toEqual([{ n: '50' }]);
  });
});

describe('an attached asset that becomes ready (contract §13)', () => {
  /** The asset service as the messaging service sees it: attaches pending assets, later read with `status`. */
  const assetsAnswering = (status: () => string) => {
    const asset = (id: string, messageId?: string) => ({ id, status: status(), message_id: messageId });
    return {
      AttachAssets: ({ asset_ids, message_id }: { asset_ids: string[]; message_id: string }) =>
        Promise.resolve({ assets: asset_ids.map((id) => ({ ...asset(id, message_id), status: 'pending' })) }),
      GetAssetsByIds: ({ ids }: { ids: string[] }) => Promise.resolve({ assets: ids.map((id) => asset(id)) }),
      ReleaseMessageAssets: () => Promise.reject(new Error('not in this test')),
      DetachMessageAssets: () => Promise.reject(new Error('not in this test')),
    };
  };
  const servicesWith = (status: () => string) =>
    buildMessagingServices({
      db,
      workspace: {
        GetActorsByIds: () => Promise.reject(new Error('no')),
        ResolveMembership: () => Promise.reject(new Error('no')),
      },
      assets: assetsAnswering(status) as never,
      log,
    });
  const eventsOf = async (messageId: string) =>
    (await emitted.read())
      .filter((e) => (e.payload.message as { id?: string } | undefined)?.id === messageId)
      .map((r) => {
        const { assets } = r.payload.message as { assets: Array<{ status: string }> };
        return `${r.event} ${assets.map((a) => a.status).join()}`;
      });

  it('is announced by the post itself when the upload finished before the post committed', async () => {
    const c = await newChannel();
    const ctx = { requestId: randomUUID(), userId: randomUUID(), workspaceId: c.workspaceId, actorId: actor() };
    const post = (services: MessagingServices) =>
      services.messages.create(ctx, {
        conversationId: c.id,
        bodyText: 'attached',
        assetIds: [randomUUID()],
        mentionedActorIds: [],
        loading: false,
      });
    const early = await post(servicesWith(() => 'ready'));
    expect(await eventsOf(early.message.id)).toEqual(['message.created pending', 'message.updated ready']);
    const late = await post(servicesWith(() => 'pending'));
    expect(await eventsOf(late.message.id)).toEqual(['message.created pending']);
  });

  it('is announced when the asset service asks, with the message as it reads; not for an unknown or deleted message', async () => {
    const c = await newChannel();
    const author = actor();
    const ctx = { requestId: randomUUID(), userId: randomUUID(), workspaceId: c.workspaceId, actorId: author };
    const services = servicesWith(() => 'ready');
    const m = await post(c, author, { assetIds: [randomUUID()] });
    await services.messages.announceAssets(ctx, c.id, m.id);
    expect(await eventsOf(m.id)).toEqual(['message.updated ready']);
    await services.messages.announceAssets(ctx, randomUUID(), m.id);
    await services.messages.announceAssets(ctx, c.id, randomUUID());
    await services.messages.announceAssets(ctx, c.id, 'not-an-id');
    await transact((tx) => messages.softDelete(c.workspaceId, m.id, tx));
    await services.messages.announceAssets(ctx, c.id, m.id);
    // (The store's delete alone: no event of its own.)
    expect(await eventsOf(m.id)).toEqual(['message.updated ready']);
  });
});
