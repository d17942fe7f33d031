import { randomUUID } from 'node:crypto';
import { createDb, type Knex, type Transact, transactor } from '@wms/kit/db';
import { uuidv7 } from '@wms/kit/ids';
import { createLogger } from '@wms/kit/logger';
import { appendToOutbox } from '@wms/kit/outbox';
import { createTestDatabase } from '@wms/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrations } from '../migrations/index.ts';
import { ChannelStore } from '../src/store/channel.store.ts';
import { MessageStore } from '../src/store/message.store.ts';
import { ReactionStore } from '../src/store/reaction.store.ts';
import { ReadStateStore } from '../src/store/read-state.store.ts';
import { SearchStore } from '../src/store/search.store.ts';

// The hot routes' statements run prepared (kit `prepared`): each connection parses them once and, after five runs,
// plans them once. One connection, so that every run below lands on the session whose statements are read back.
let database: { url: string; drop(): Promise<void> };
let db: Knex;
let transact: Transact;

beforeAll(async () => {
  database = await createTestDatabase('messaging', migrations);
  db = createDb({ url: database.url, schema: 'messaging', log: createLogger('prepared-test', 'silent'), poolMax: 1 });
  transact = transactor(db);
});

afterAll(async () => {
  await db?.destroy();
  await database?.drop();
});

it('runs a post, its event, a page, a next page and a reaction on generic plans once each ran six times', async () => {
  const [messages, reactions] = [new MessageStore(db), new ReactionStore(db)];
  const [workspaceId, actorId] = [randomUUID(), randomUUID()];
  const created = await new ChannelStore(db).insert({
    id: uuidv7(),
    workspaceId,
    kind: 'public',
    name: 'prepared',
    topic: null,
    createdByActorId: actorId,
    memberActorIds: [actorId],
    participantActorIds: [],
  });
  const conversationId = created!.channel.id;
  // A conversation long enough that a plan for any LIMIT (a generic plan guesses a tenth of the rows) looks dear.
  await db.raw(
    `INSERT INTO messages (id, workspace_id, conversation_id, author_actor_id, body_text)
     SELECT id, ?, ?, ?, 'old' FROM unnest(?::uuid[]) id`,
    [workspaceId, conversationId, actorId, Array.from({ length: 3000 }, uuidv7)],
  );
  await db.raw('ANALYZE messages');
  const posted: string[] = [];
  for (let i = 0; i < 6; i++) {
    const message = await transact(async (tx) => {
      const inserted = await messages.insert(
        {
          id: uuidv7(),
          workspaceId,
          conversationId,
          parentMessageId: null,
          authorActorId: actorId,
          bodyText: `post ${i}`,
          children: [],
          mentionedActorIds: [],
          assetIds: [],
          loading: false,
        },
        tx,
      );
      const event = { workspaceId, channel: `private-conversation-${conversationId}`, event: 'e', payload: { i } };
      await appendToOutbox(db, [event], tx);
      return inserted!.message;
    });
    posted.push(message.id);
    const q = { workspaceId, conversationId, parentMessageId: null, limit: 51, actorId };
    expect(await messages.page({ ...q, before: null })).toHaveLength(51);
    expect(await messages.page({ ...q, before: message.id })).toHaveLength(51);
    const reacted = await transact((tx) =>
      reactions.addToLive(
        { workspaceId, conversationId, messageId: message.id, emoji: '👍', actorId, maxEmoji: 50 },
        tx,
      ),
    );
    expect(reacted?.reactions).toEqual([{ emoji: '👍', actorIds: [actorId] }]);
  }
  const { rows } = await db.raw<{ rows: Array<{ statement: string; generic_plans: string; custom_plans: string }> }>(
    'SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements ORDER BY statement',
  );
  const plans = (part: string) =>
    rows.filter((r) => r.statement.includes(part)).map((r) => ({ generic: Number(r.generic_plans) > 0 }));
  expect(plans('INSERT INTO messages')).toEqual([{ generic: true }]);
  expect(plans('pg_logical_emit_message')).toEqual([{ generic: true }]);
  // The newest page and the next page: two texts.
  expect(plans('LEFT JOIN LATERAL')).toEqual([{ generic: true }, { generic: true }]);
  expect(plans('INSERT INTO reactions')).toEqual([{ generic: true }]);
});

it("runs a search's walk on a generic plan, and plans its index step for the query's words each time", async () => {
  const [workspaceId, actorId, conversationId] = [randomUUID(), randomUUID(), uuidv7()];
  await db.raw(
    `INSERT INTO channels (id, workspace_id, kind, name, created_by_actor_id, member_count)
     VALUES (?, ?, 'public', 'search', ?, 0)`,
    [conversationId, workspaceId, actorId],
  );
  await db.raw(
    `INSERT INTO messages (id, workspace_id, conversation_id, author_actor_id, body_text, search)
     SELECT id, ?, ?, ?, 'alpha', to_tsvector('english', 'alpha') FROM unnest(?::uuid[]) id`,
    [workspaceId, conversationId, actorId, Array.from({ length: 30 }, uuidv7)],
  );
  const search = new SearchStore(db);
  const q = {
    ...{ conversationId: null, authorActorId: null, parentMessageId: null, has: null, sort: 'newest' as const },
    ...{ createdAfter: null, createdBefore: null, workspaceId, actorId, after: null, limit: 21 },
  };
  for (let i = 0; i < 6; i++) {
    // The walk fills the page; a word no message holds goes on to the index step.
    expect(await search.search({ ...q, query: 'alpha', marksQuery: 'alpha' })).toHaveLength(21);
    expect(await search.search({ ...q, query: 'omega', marksQuery: 'omega' })).toEqual([]);
  }
  const { rows } = await db.raw<{ rows: Array<{ statement: string; generic_plans: string }> }>(
    "SELECT statement, generic_plans FROM pg_prepared_statements WHERE statement LIKE '%search @@%'",
  );
  // One prepared statement searches: the walk, whose query is computed once (params); the index step is not prepared.
  expect(rows.map((r) => [r.statement.includes('params AS MATERIALIZED'), Number(r.generic_plans) > 0])).toEqual([
    [true, true],
  ]);
});

it('runs the sidebar and the threads inbox on generic plans once each ran six times', async () => {
  const [channels, messages, reads] = [new ChannelStore(db), new MessageStore(db), new ReadStateStore(db)];
  const [workspaceId, actorId] = [randomUUID(), randomUUID()];
  for (let i = 0; i < 3; i++) {
    const created = await channels.insert({
      id: uuidv7(),
      workspaceId,
      kind: 'public',
      name: `inbox-${i}`,
      topic: null,
      createdByActorId: actorId,
      memberActorIds: [actorId],
      participantActorIds: [],
    });
    const draft = { workspaceId, conversationId: created!.channel.id, authorActorId: actorId, bodyText: 'hi' };
    const post = { ...draft, children: [], mentionedActorIds: [], assetIds: [], loading: false };
    await transact(async (tx) => {
      const root = (await messages.insert({ ...post, id: uuidv7(), parentMessageId: null }, tx))!.message;
      await messages.insertReply({ ...post, id: uuidv7(), parentMessageId: root.id }, [actorId], tx);
    });
  }
  for (let i = 0; i < 6; i++) {
    const sidebar = await channels.sidebar({ workspaceId, actorId, kind: null, unread: false, after: null, limit: 51 });
    expect(sidebar).toHaveLength(3);
    const threads = await reads.threads({
      workspaceId,
      actorId,
      following: true,
      unread: false,
      before: null,
      limit: 51,
    });
    expect(threads).toHaveLength(3);
  }
  const { rows } = await db.raw<{ rows: Array<{ statement: string; generic_plans: string }> }>(
    'SELECT statement, generic_plans FROM pg_prepared_statements',
  );
  const generic = (part: string) =>
    rows.filter((r) => r.statement.includes(part)).map((r) => Number(r.generic_plans) > 0);
  expect(generic('FROM channel_members cm JOIN channels c')).toEqual([true]);
  expect(generic('FROM thread_reads t JOIN messages m')).toEqual([true]);
});
