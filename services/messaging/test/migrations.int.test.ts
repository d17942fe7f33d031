import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { createDb, isForeignKeyViolation, type Knex, migrate, transactor } from '@wms/kit/db';
import { uuidv7 } from '@wms/kit/ids';
import { createLogger } from '@wms/kit/logger';
import { createTestDatabase, openTestDatabase, untimed, waitFor } from '@wms/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../migrations/index.ts';
import { readBody } from '../src/domain/markdown.ts';
import type { Message } from '../src/domain/message.ts';
import { ChannelStore } from '../src/store/channel.store.ts';
import { MessageStore } from '../src/store/message.store.ts';
import { ReactionStore } from '../src/store/reaction.store.ts';
import { ReadStateStore } from '../src/store/read-state.store.ts';
import { SavedStore } from '../src/store/saved.store.ts';

// Each migration that moves data, run on a schema holding data the schema before it made.

const schema = 'messaging';
const log = createLogger('messaging-migrations-test', 'silent');
const CONVERSATIONS = '20261204000000_conversations';
const ACTIVITY = '20261205000000_conversation_activity';
const SEARCH = '20261206000000_search';
const CHANNEL_NAME_SEARCH = '20261207000000_channel_name_search';
const RICH = '20261211000000_rich_messages';
const WORKSPACE_COLUMNS = '20261214000000_workspace_columns';
const CITUS_KEYS = '20261214010000_citus_keys';
const COUNT_INDEXES = '20261214020000_count_indexes';
const CITUS_CONTRACT = '20261215000000_citus_contract';
/** The schema of the release before this one: up to the contract half of its keys (CITUS_CONTRACT, last below). */
const expanded = migrations.slice(
  0,
  migrations.findIndex((m) => m.name === CITUS_CONTRACT),
);

let database: { url: string; drop(): Promise<void> };
let db: Knex;

beforeAll(async () => {
  database = await createTestDatabase(
    schema,
    migrations.slice(
      0,
      migrations.findIndex((m) => m.name === CONVERSATIONS),
    ),
  );
  db = createDb({ url: database.url, schema, log });
});

afterAll(async () => {
  await db?.destroy();
  await database?.drop();
});

describe(CONVERSATIONS, () => {
  it('makes every channel public, with its creator and everyone who posted in it as members, counted', async () => {
    const workspaceId = randomUUID();
    const [creator, poster, replier, both] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const channel = (name: string, by: string, createdAt: string) => ({
      id: uuidv7(),
      workspace_id: workspaceId,
      name,
      created_by_actor_id: by,
      created_at: createdAt,
    });
    const quiet = channel('quiet', creator, '2026-11-01T00:00:00Z');
    const busy = channel('busy', creator, '2026-11-02T00:00:00Z');
    await db('channels').insert([quiet, busy]);
    const message = (author: string, at: string, parent: string | null = null) => ({
      id: uuidv7(),
      workspace_id: workspaceId,
      conversation_id: busy.id,
      parent_message_id: parent,
      author_actor_id: author,
      body_text: 'hi',
      created_at: at,
    });
    const root = message(poster, '2026-11-03T00:00:00Z');
    await db('messages').insert(root);
    await db('messages').insert([
      message(replier, '2026-11-04T00:00:00Z', root.id),
      message(both, '2026-11-05T00:00:00Z'),
      message(both, '2026-11-06T00:00:00Z', root.id),
      message(poster, '2026-11-07T00:00:00Z'),
      message(creator, '2026-11-08T00:00:00Z'),
    ]);

    expect(await migrate(db, schema, migrations)).toEqual([
      CONVERSATIONS,
      ACTIVITY,
      SEARCH,
      CHANNEL_NAME_SEARCH,
      RICH,
      WORKSPACE_COLUMNS,
      CITUS_KEYS,
      COUNT_INDEXES,
      CITUS_CONTRACT,
    ]);

    const channels = await db('channels')
      .where({ workspace_id: workspaceId })
      .orderBy('name')
      .select('name', 'kind', 'member_count', 'participant_actor_ids', 'archived_at');
    expect(channels).toEqual([
      { name: 'busy', kind: 'public', member_count: 4, participant_actor_ids: [], archived_at: null },
      { name: 'quiet', kind: 'public', member_count: 1, participant_actor_ids: [], archived_at: null },
    ]);
    const members = await db('channel_members')
      .where({ workspace_id: workspaceId })
      .orderBy(['channel_id', 'joined_at'])
      .select('channel_id', 'actor_id', 'added_by_actor_id', 'joined_at');
    const joined = (channelId: string, actorId: string, at: string) => ({
      channel_id: channelId,
      actor_id: actorId,
      added_by_actor_id: null,
      joined_at: new Date(at),
    });
    // Joined when the channel was made (its creator) or at the first post, reply or not.
    expect(members).toEqual([
      joined(quiet.id, creator, quiet.created_at),
      joined(busy.id, creator, busy.created_at),
      joined(busy.id, poster, '2026-11-03T00:00:00Z'),
      joined(busy.id, replier, '2026-11-04T00:00:00Z'),
      joined(busy.id, both, '2026-11-05T00:00:00Z'),
    ]);
  });

  it('keeps names for channels only, and one direct conversation per set of participants', async () => {
    await migrate(db, schema, migrations);
    const workspaceId = randomUUID();
    const [a, b] = [randomUUID(), randomUUID()].sort();
    const base = { workspace_id: workspaceId, created_by_actor_id: a };
    await expect(db('channels').insert({ ...base, id: uuidv7(), kind: 'public', name: null })).rejects.toMatchObject({
      constraint: 'channels_name_check',
    });
    await expect(db('channels').insert({ ...base, id: uuidv7(), kind: 'direct', name: 'named' })).rejects.toMatchObject(
      { constraint: 'channels_name_check' },
    );
    await expect(db('channels').insert({ ...base, id: uuidv7(), kind: 'secret', name: 'x' })).rejects.toMatchObject({
      constraint: 'channels_kind_check',
    });
    const direct = { ...base, kind: 'direct', name: null, participant_actor_ids: [a, b] };
    await db('channels').insert({ ...direct, id: uuidv7() });
    await expect(db('channels').insert({ ...direct, id: uuidv7() })).rejects.toMatchObject({
      constraint: 'channels_direct_key',
    });
    // Another workspace's pair of the same ids is another conversation.
    await db('channels').insert({ ...direct, id: uuidv7(), workspace_id: randomUUID() });
    expect(await db('channels').where({ workspace_id: workspaceId }).count({ n: '*' })).toEqual([{ n: '1' }]);
  });
});

describe(ACTIVITY, () => {
  it('leaves a valid activity index in place of the one-column conversation index, also after a build that failed', async () => {
    const indexes = async () =>
      (
        await db.raw<{ rows: Array<{ name: string; valid: boolean }> }>(
          `SELECT c.relname AS name, i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
         WHERE i.indrelid = 'messages'::regclass AND c.relname IN ('messages_activity_idx', 'messages_conversation_idx')`,
        )
      ).rows;
    expect(await indexes()).toEqual([{ name: 'messages_activity_idx', valid: true }]);
    // What an interrupted CREATE INDEX CONCURRENTLY leaves: the index, marked invalid.
    await db.raw(`UPDATE pg_index SET indisvalid = false WHERE indexrelid = 'messages_activity_idx'::regclass`);
    await migrations.find((m) => m.name === ACTIVITY)!.up(db);
    expect(await indexes()).toEqual([{ name: 'messages_activity_idx', valid: true }]);
  });
});

describe(SEARCH, () => {
  it('adds the search vector empty to the messages it finds, with its GIN index and the index of what the sweep must fill in', async () => {
    const { rows } = await db.raw<{ rows: Array<{ n: string }> }>(
      'SELECT count(*) AS n FROM messages WHERE search IS NULL AND deleted_at IS NULL',
    );
    expect(Number(rows[0]!.n)).toBeGreaterThan(0);
    const indexes = await db.raw<{ rows: Array<{ name: string; valid: boolean }> }>(
      `SELECT c.relname AS name, i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
       WHERE i.indrelid = 'messages'::regclass AND c.relname LIKE 'messages_search%' ORDER BY 1`,
    );
    expect(indexes.rows).toEqual([
      { name: 'messages_search_idx', valid: true },
      { name: 'messages_search_pending_idx', valid: true },
    ]);
  });
});

describe(RICH, () => {
  it('parses every stored message in committed batches, posting going on while a batch waits for a row', async () => {
    const before = await createTestDatabase(
      schema,
      migrations.slice(
        0,
        migrations.findIndex((m) => m.name === RICH),
      ),
    );
    // Two connections: the migration's, and one that holds a row lock and posts meanwhile.
    const [migrating, other] = [0, 1].map(() => createDb({ url: before.url, schema, log, statementTimeoutMs: 60_000 }));
    let tx: Knex.Transaction | undefined;
    try {
      const workspaceId = randomUUID();
      const channel = { id: uuidv7(), workspace_id: workspaceId, name: 'general', created_by_actor_id: randomUUID() };
      await other!('channels').insert(channel);
      const mention = `<@${randomUUID()}>`;
      const bodies = [
        'plain',
        '**bold** and [a link](https://example.org)',
        `hi ${mention}`,
        '> quoted\n\n```sh\nls\n```',
      ];
      const message = (i: number) => ({
        id: uuidv7(),
        workspace_id: workspaceId,
        conversation_id: channel.id,
        author_actor_id: channel.created_by_actor_id,
        body_text: i === 0 ? '' : bodies[i % bodies.length]!,
        deleted_at: i === 0 ? new Date() : null,
      });
      const stored = Array.from({ length: 1_200 }, (_, i) => message(i));
      await other!.batchInsert('messages', stored, 400);

      // Writing a row of the third batch (rows 1,000 to 1,499) waits for a lock the test holds (an advisory lock: a
      // row lock would hold the table's lock, which adding the column must take).
      await other!.raw(`
        CREATE FUNCTION wait_for_test() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN PERFORM pg_advisory_xact_lock(4242); RETURN NEW; END $$;
        CREATE TRIGGER wait_for_test BEFORE UPDATE ON messages FOR EACH ROW WHEN (OLD.id = '${stored.map((m) => m.id).sort()[1_100]}')
          EXECUTE FUNCTION wait_for_test();`);
      tx = await other!.transaction();
      await tx.raw('SELECT pg_advisory_xact_lock(4242)');
      const migration = migrate(migrating!, schema, expanded);
      const parsed = async () =>
        Number(
          (await other!.raw<{ rows: Array<{ n: string }> }>('SELECT count(children) AS n FROM messages')).rows[0]!.n,
        );
      // The first two batches are committed, and a post goes in beside the waiting batch.
      await waitFor('the first two batches', async () => (await parsed()) === 1_000, 20_000);
      const late = message(3);
      await other!('messages').insert(late);
      await tx.commit();
      tx = undefined;
      expect(await migration).toEqual([RICH, WORKSPACE_COLUMNS, CITUS_KEYS, COUNT_INDEXES]);

      await other!.raw('DROP TRIGGER wait_for_test ON messages; DROP FUNCTION wait_for_test()');
      const rows = await other!('messages').where({ workspace_id: workspaceId }).select('id', 'body_text', 'children');
      expect(rows).toHaveLength(1_201);
      for (const r of rows) expect(r.children).toEqual(readBody(r.body_text as string));
      const byId = new Map(rows.map((r) => [r.id as string, r.children as unknown]));
      expect(byId.get(stored[0]!.id)).toEqual([]);
      expect(byId.get(stored[1]!.id)).toEqual(readBody(bodies[1]!));
      expect(byId.get(stored[1]!.id)).toContainEqual({
        type: 'text',
        text: 'bold',
        style: { bold: true, italic: false, strike: false, code: false },
      });
      // Written before mentions were read from the text: the spelling stays text.
      expect(byId.get(stored[2]!.id)).toEqual([
        { type: 'text', text: `hi ${mention}`, style: { bold: false, italic: false, strike: false, code: false } },
      ]);
      expect(byId.get(late.id)).toEqual(readBody(bodies[3]!));

      // The previous release, still running during the upgrade: an edit of its leaves no stale children, a delete of
      // its no versions.
      const [edited, removed] = [stored[1]!, stored[5]!];
      await other!('message_versions').insert({
        message_id: removed.id,
        body_text: 'before',
        mentioned_actor_ids: [],
        written_at: new Date(),
      });
      await other!('messages').where({ id: edited.id }).update({ body_text: 'now *this*', edited_at: new Date() });
      await other!('messages').where({ id: removed.id }).update({ body_text: '', deleted_at: new Date() });
      expect(await other!('messages').where({ id: edited.id }).first('children')).toEqual({ children: null });
      expect(await other!('message_versions').where({ message_id: removed.id }).count({ n: '*' })).toEqual([
        { n: '0' },
      ]);
    } finally {
      await tx?.rollback();
      await Promise.all([migrating?.destroy(), other?.destroy()]);
      await before.drop();
    }
  });
});

describe(`${WORKSPACE_COLUMNS} and ${CITUS_KEYS}`, () => {
  const before = migrations.slice(
    0,
    migrations.findIndex((m) => m.name === WORKSPACE_COLUMNS),
  );
  /** The tables that get `workspace_id`, each with how a row finds its parent's. */
  const FILLED: Array<[table: string, parentJoin: string]> = [
    ['mentions', 'JOIN messages p ON p.id = t.message_id'],
    ['reactions', 'JOIN messages p ON p.id = t.message_id'],
    ['message_versions', 'JOIN messages p ON p.id = t.message_id'],
    ['conversation_reads', 'JOIN channels p ON p.id = t.conversation_id'],
    ['client_messages', 'JOIN messages p ON p.id = t.message_id'],
  ];

  /** A database migrated to just before these two migrations, for one test. */
  const previousSchema = () => openTestDatabase(schema, before, { statementTimeoutMs: 60_000 });

  /** A public channel of a new workspace, with its creator as member. */
  async function newChannel(db: Knex): Promise<{ workspaceId: string; channelId: string; creator: string }> {
    const [workspaceId, channelId, creator] = [randomUUID(), uuidv7(), randomUUID()];
    await db('channels').insert({
      id: channelId,
      workspace_id: workspaceId,
      name: `c-${channelId}`,
      created_by_actor_id: creator,
      member_count: 1,
    });
    await db('channel_members').insert({ channel_id: channelId, actor_id: creator, workspace_id: workspaceId });
    return { workspaceId, channelId, creator };
  }

  /**
   * One post and what follows it, each row written by the previous release's statement (c814246's stores), none of
   * which names workspace_id where the table did not have it: the client_message_id claimed first (its key to the
   * message is deferred), the message, the poster joining, a mention, a reaction twice, a bookmark twice, the
   * conversation marked read twice, the thread followed twice, an edit's version.
   */
  async function postAsPrevious(
    db: Knex,
    c: { workspaceId: string; channelId: string },
    actorId: string = randomUUID(),
  ): Promise<string> {
    const id = uuidv7();
    const base = { ...c, id, actorId, clientId: randomUUID(), other: randomUUID() };
    await db.transaction(async (tx) => {
      await tx.raw(`SET LOCAL lock_timeout = '5s'`);
      const claim = `INSERT INTO client_messages (conversation_id, actor_id, client_message_id, message_id)
        VALUES (:channelId, :actorId, :clientId, :id)
        ON CONFLICT (conversation_id, actor_id, client_message_id)
          DO UPDATE SET message_id = excluded.message_id, created_at = now()
          WHERE client_messages.created_at < now() - make_interval(secs => 86400)
        RETURNING message_id`;
      expect((await tx.raw(claim, base)).rows).toEqual([{ message_id: id }]);
      await tx.raw(
        `INSERT INTO messages (id, workspace_id, conversation_id, author_actor_id, body_text, children)
         VALUES (:id, :workspaceId, :channelId, :actorId, 'hi', '[]')`,
        base,
      );
      for (let i = 0; i < 2; i++) {
        await tx.raw(
          `INSERT INTO channel_members (channel_id, actor_id, workspace_id) VALUES (:channelId, :actorId, :workspaceId)
           ON CONFLICT (channel_id, actor_id) DO NOTHING`,
          base,
        );
        await tx.raw(
          'INSERT INTO reactions (message_id, emoji, actor_id) VALUES (:id, :emoji, :other) ON CONFLICT DO NOTHING',
          { ...base, emoji: '👍' },
        );
        await tx.raw(
          `INSERT INTO saved_messages (actor_id, message_id, workspace_id) VALUES (:other, :id, :workspaceId)
           ON CONFLICT DO NOTHING`,
          base,
        );
        await tx.raw(
          `INSERT INTO conversation_reads (actor_id, conversation_id, last_read_message_id, last_read_at)
           SELECT :other, m.conversation_id, m.id, now() FROM messages m WHERE m.id = :id
           ON CONFLICT (actor_id, conversation_id) DO UPDATE
             SET last_read_message_id = excluded.last_read_message_id, last_read_at = excluded.last_read_at,
               updated_at = now()`,
          base,
        );
        await tx.raw(
          `INSERT INTO thread_reads (actor_id, root_id, workspace_id, conversation_id, following)
           VALUES (:other, :id, :workspaceId, :channelId, true)
           ON CONFLICT (actor_id, root_id) DO UPDATE SET following = excluded.following, updated_at = now()`,
          base,
        );
      }
      await tx.raw(
        `INSERT INTO mentions (actor_id, message_id, conversation_id, thread_root_id)
         VALUES (:other, :id, :channelId, NULL)`,
        base,
      );
      await tx.raw(
        `INSERT INTO message_versions (message_id, body_text, children, mentioned_actor_ids, written_at)
         VALUES (:id, 'before', NULL, '{}', now())`,
        base,
      );
      // The claim again, as a retry of the post: it is held by the message.
      expect((await tx.raw(claim, { ...base, id: uuidv7() })).rows).toEqual([]);
    });
    return id;
  }

  /** Rows of the five tables whose workspace_id is not their parent's (or is missing). */
  async function misfilled(db: Knex): Promise<Record<string, number>> {
    const found: Record<string, number> = {};
    for (const [table, join] of FILLED) {
      const { rows } = await db.raw<{ rows: Array<{ n: number }> }>(
        `SELECT count(*)::int AS n FROM ${table} t ${join} WHERE t.workspace_id IS DISTINCT FROM p.workspace_id`,
      );
      found[table] = rows[0]!.n;
    }
    return found;
  }
  const NONE_MISFILLED = Object.fromEntries(FILLED.map(([table]) => [table, 0]));

  /** The schema's keys, indexes, triggers and workspace columns, to compare two runs. */
  async function catalog(db: Knex): Promise<Record<string, unknown>> {
    const q = async (sql: string) => (await db.raw<{ rows: unknown[] }>(sql)).rows;
    return {
      constraints:
        await q(`SELECT conrelid::regclass::text AS table, conname, pg_get_constraintdef(oid) AS def, convalidated
        FROM pg_constraint WHERE connamespace = current_schema()::regnamespace ORDER BY 1, 2`),
      indexes: await q(`SELECT indexrelid::regclass::text AS name, indisvalid, pg_get_indexdef(indexrelid) AS def
        FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relnamespace = current_schema()::regnamespace
        ORDER BY 1`),
      triggers:
        await q(`SELECT tgrelid::regclass::text AS table, tgname FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid
        WHERE c.relnamespace = current_schema()::regnamespace AND NOT tgisinternal ORDER BY 1, 2`),
      workspaceColumns: await q(`SELECT attrelid::regclass::text AS table, attnotnull FROM pg_attribute a
        JOIN pg_class c ON c.oid = a.attrelid WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r'
          AND a.attname = 'workspace_id' AND NOT a.attisdropped ORDER BY 1`),
    };
  }

  let db: Knex;
  let drop: () => Promise<void>;
  /** The catalog of a schema these migrations made from an empty one. */
  const migrated = async (): Promise<Record<string, unknown>> => {
    const made = await openTestDatabase(schema, expanded);
    try {
      return await catalog(made.db);
    } finally {
      await made.drop();
    }
  };
  beforeAll(async () => ({ db, drop } = await previousSchema()));
  afterAll(() => drop?.());

  it('fills workspace_id from the parents and leads every key with it, every key valid', async () => {
    const [a, b] = [await newChannel(db), await newChannel(db)];
    for (const c of [a, a, b]) await postAsPrevious(db, c);
    const counts = async () =>
      Promise.all(
        [...FILLED.map(([t]) => t), 'channel_members', 'saved_messages', 'thread_reads'].map((t) => db(t).count()),
      );
    const rowsBefore = await counts();

    expect(await migrate(db, schema, expanded)).toEqual([WORKSPACE_COLUMNS, CITUS_KEYS, COUNT_INDEXES]);
    expect(await counts()).toEqual(rowsBefore);
    expect(await misfilled(db)).toEqual(NONE_MISFILLED);
    expect(await db('mentions').where({ workspace_id: a.workspaceId }).count()).toEqual([{ count: '2' }]);

    const found = await catalog(db);
    expect(found).toEqual(await migrated());
    const { constraints, indexes, triggers, workspaceColumns } = found as {
      constraints: Array<{ table: string; conname: string; def: string; convalidated: boolean }>;
      indexes: Array<{ name: string; indisvalid: boolean; def: string }>;
      triggers: Array<{ table: string; tgname: string }>;
      workspaceColumns: Array<{ table: string; attnotnull: boolean }>;
    };
    expect(constraints.filter((c) => !c.convalidated)).toEqual([]);
    expect(indexes.filter((i) => !i.indisvalid || i.name.endsWith('_next'))).toEqual([]);
    expect(workspaceColumns.filter((c) => c.table !== 'outbox' && !c.attnotnull)).toEqual([]);
    const keys = (kind: string) =>
      Object.fromEntries(constraints.filter((c) => c.def.startsWith(kind)).map((c) => [c.conname, c.def]));
    expect(keys('PRIMARY KEY')).toEqual({
      channel_members_pkey: 'PRIMARY KEY (channel_id, actor_id)',
      channels_pkey: 'PRIMARY KEY (workspace_id, id)',
      client_messages_pkey: 'PRIMARY KEY (conversation_id, actor_id, client_message_id)',
      conversation_reads_pkey: 'PRIMARY KEY (actor_id, conversation_id)',
      knex_migrations_lock_pkey: 'PRIMARY KEY (index)',
      knex_migrations_pkey: 'PRIMARY KEY (id)',
      mentions_pkey: 'PRIMARY KEY (workspace_id, actor_id, message_id)',
      message_versions_pkey: 'PRIMARY KEY (workspace_id, id)',
      messages_pkey: 'PRIMARY KEY (workspace_id, id)',
      outbox_pkey: 'PRIMARY KEY (id)',
      reactions_pkey: 'PRIMARY KEY (workspace_id, message_id, emoji, actor_id)',
      saved_messages_pkey: 'PRIMARY KEY (workspace_id, actor_id, message_id)',
      thread_reads_pkey: 'PRIMARY KEY (actor_id, root_id)',
    });
    const toChannel = 'REFERENCES channels(workspace_id, id)';
    const toMessage = 'REFERENCES messages(workspace_id, id)';
    expect(keys('FOREIGN KEY')).toEqual({
      channel_members_channel_id_fkey: `FOREIGN KEY (workspace_id, channel_id) ${toChannel}`,
      client_messages_message_id_fkey: `FOREIGN KEY (workspace_id, message_id) ${toMessage} ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED`,
      conversation_reads_conversation_id_fkey: `FOREIGN KEY (workspace_id, conversation_id) ${toChannel}`,
      mentions_message_id_fkey: `FOREIGN KEY (workspace_id, message_id) ${toMessage} ON DELETE CASCADE`,
      message_versions_message_id_fkey: `FOREIGN KEY (workspace_id, message_id) ${toMessage} ON DELETE CASCADE`,
      messages_conversation_id_fkey: `FOREIGN KEY (workspace_id, conversation_id) ${toChannel}`,
      messages_parent_message_id_fkey: `FOREIGN KEY (workspace_id, parent_message_id) ${toMessage}`,
      reactions_message_id_fkey: `FOREIGN KEY (workspace_id, message_id) ${toMessage} ON DELETE CASCADE`,
      saved_messages_message_id_fkey: `FOREIGN KEY (workspace_id, message_id) ${toMessage} ON DELETE CASCADE`,
      thread_reads_root_id_fkey: `FOREIGN KEY (workspace_id, root_id) ${toMessage} ON DELETE CASCADE`,
    });
    // Kept for the previous release (placement.ts): the fill triggers, and the keys its upserts name as primary keys,
    // with no second unique index on the same rows.
    expect(triggers.map((t) => t.tgname).filter((name) => name.endsWith('_workspace_id_fill'))).toHaveLength(5);
    expect(indexes.filter((i) => /^CREATE UNIQUE/.test(i.def) && !i.name.endsWith('_pkey')).map((i) => i.name)).toEqual(
      ['channels_direct_key', 'channels_name_key'],
    );
  });

  it('takes concurrent upserts of one new row as one: no second unique index beside the key they name', async () => {
    const c = await newChannel(db);
    const root = await postAsPrevious(db, c);
    const upserts = [
      `INSERT INTO conversation_reads (actor_id, conversation_id, last_read_message_id, last_read_at)
       VALUES (:actorId, :channelId, :root, now())
       ON CONFLICT (actor_id, conversation_id) DO UPDATE SET last_read_at = excluded.last_read_at, updated_at = now()`,
      `INSERT INTO thread_reads (actor_id, root_id, workspace_id, conversation_id, following)
       VALUES (:actorId, :root, :workspaceId, :channelId, true)
       ON CONFLICT (actor_id, root_id) DO UPDATE SET following = excluded.following, updated_at = now()`,
      `INSERT INTO client_messages (conversation_id, actor_id, client_message_id, message_id)
       VALUES (:channelId, :actorId, 'k', :root)
       ON CONFLICT (conversation_id, actor_id, client_message_id) DO UPDATE SET created_at = now()`,
      `INSERT INTO channel_members (channel_id, actor_id, workspace_id) VALUES (:channelId, :actorId, :workspaceId)
       ON CONFLICT (channel_id, actor_id) DO NOTHING`,
    ];
    // Eight writers at once upserting one new row, each statement on its own, for many new rows.
    for (let round = 0; round < 50; round++) {
      const key = { ...c, root, actorId: randomUUID() };
      for (const sql of upserts) await Promise.all(Array.from({ length: 8 }, () => db.raw(sql, key)));
      for (const table of ['conversation_reads', 'thread_reads', 'client_messages', 'channel_members'])
        expect(await db(table).where({ actor_id: key.actorId }).count()).toEqual([{ count: '1' }]);
    }
  });

  it("keeps the previous release's inserts and upserts working, and refuses a child of another workspace's parent", async () => {
    const c = await newChannel(db);
    const root = await postAsPrevious(db, c);
    // A reply, as the previous release posts it.
    const reply = uuidv7();
    await db('messages').insert({
      id: reply,
      workspace_id: c.workspaceId,
      conversation_id: c.channelId,
      parent_message_id: root,
      author_actor_id: c.creator,
      body_text: 'reply',
    });
    await postAsPrevious(db, c, c.creator);
    expect(await misfilled(db)).toEqual(NONE_MISFILLED);
    expect(await db('reactions').where({ message_id: root }).select('workspace_id')).toEqual([
      { workspace_id: c.workspaceId },
    ]);

    // A claim names the conversation before its message exists; one that does not exist fails the post later, which
    // rolls the claim back, as before.
    const tx = await db.transaction();
    try {
      const { rows } = await tx.raw(
        `INSERT INTO client_messages (conversation_id, actor_id, client_message_id, message_id) VALUES (?, ?, 'k', ?)
         ON CONFLICT (conversation_id, actor_id, client_message_id) DO NOTHING RETURNING message_id`,
        [uuidv7(), c.creator, uuidv7()],
      );
      expect(rows).toHaveLength(1);
    } finally {
      await tx.rollback();
    }

    const other = await newChannel(db);
    const stray = [
      [
        'reactions_message_id_fkey',
        db('reactions').insert({ workspace_id: other.workspaceId, message_id: root, emoji: 'x', actor_id: c.creator }),
      ],
      [
        'channel_members_channel_id_fkey',
        db('channel_members').insert({
          workspace_id: other.workspaceId,
          channel_id: c.channelId,
          actor_id: randomUUID(),
        }),
      ],
      [
        'messages_conversation_id_fkey',
        db('messages').insert({
          id: uuidv7(),
          workspace_id: other.workspaceId,
          conversation_id: c.channelId,
          author_actor_id: c.creator,
          body_text: 'x',
        }),
      ],
      [
        'messages_parent_message_id_fkey',
        db('messages').insert({
          id: uuidv7(),
          workspace_id: other.workspaceId,
          conversation_id: other.channelId,
          parent_message_id: root,
          author_actor_id: c.creator,
          body_text: 'x',
        }),
      ],
    ] as const;
    for (const [constraint, insert] of stray)
      await expect(insert).rejects.toSatisfy((err) => isForeignKeyViolation(err, constraint));

    // A message's children go with it, through the composite keys.
    await db('messages').where({ id: reply }).delete();
    await db('messages').where({ id: root }).delete();
    for (const table of ['mentions', 'reactions', 'saved_messages', 'message_versions', 'client_messages'])
      expect(await db(table).where({ message_id: root }).count()).toEqual([{ count: '0' }]);
  });

  it('runs again as a no-op, and finishes a run that stopped halfway', async () => {
    const again = await catalog(db);
    for (const name of [WORKSPACE_COLUMNS, CITUS_KEYS, COUNT_INDEXES])
      await migrations.find((m) => m.name === name)!.up(db);
    expect(await catalog(db)).toEqual(again);

    const { db: fresh, drop: dropFresh } = await previousSchema();
    try {
      const c = await newChannel(fresh);
      for (let i = 0; i < 3; i++) await postAsPrevious(fresh, c);
      await migrate(fresh, schema, migrations.slice(0, before.length + 1));
      // Stopped in the first migration with one table not yet filled and one with its check not yet valid; had it
      // gone on, the second would have stopped with the messages key built, a composite key added and not validated,
      // one primary key swapped and an index whose build failed, and the third with one count index rebuilt and the old
      // one dropped, not yet renamed, and another's rebuild failed.
      await fresh.raw(`
        ALTER TABLE client_messages ALTER COLUMN workspace_id DROP NOT NULL;
        UPDATE client_messages SET workspace_id = NULL;
        ALTER TABLE conversation_reads ALTER COLUMN workspace_id DROP NOT NULL,
          ADD CONSTRAINT conversation_reads_workspace_id_not_null_check CHECK (workspace_id IS NOT NULL) NOT VALID;
        CREATE UNIQUE INDEX messages_pkey_next ON messages (workspace_id, id);
        ALTER TABLE reactions ADD CONSTRAINT reactions_message_id_fkey_next FOREIGN KEY (workspace_id, message_id)
          REFERENCES messages (workspace_id, id) ON DELETE CASCADE NOT VALID;
        CREATE UNIQUE INDEX mentions_pkey_next ON mentions (workspace_id, actor_id, message_id);
        ALTER TABLE mentions DROP CONSTRAINT mentions_pkey,
          ADD CONSTRAINT mentions_pkey PRIMARY KEY USING INDEX mentions_pkey_next;
        CREATE INDEX channels_id_idx ON channels (id);
        UPDATE pg_index SET indisvalid = false WHERE indexrelid = 'channels_id_idx'::regclass;
        CREATE INDEX messages_top_idx_next ON messages (conversation_id, id, workspace_id) INCLUDE (author_actor_id, deleted_at)
          WHERE parent_message_id IS NULL;
        DROP INDEX messages_top_idx;
        CREATE INDEX mentions_thread_idx_next ON mentions (actor_id) INCLUDE (workspace_id);
        UPDATE pg_index SET indisvalid = false WHERE indexrelid = 'mentions_thread_idx_next'::regclass;
        DELETE FROM knex_migrations WHERE name = '${WORKSPACE_COLUMNS}';`);
      expect(await migrate(fresh, schema, expanded)).toEqual([WORKSPACE_COLUMNS, CITUS_KEYS, COUNT_INDEXES]);
      expect(await misfilled(fresh)).toEqual(NONE_MISFILLED);
      expect(await catalog(fresh)).toEqual(await migrated());
    } finally {
      await dropFresh();
    }
  });

  it("gives way to the previous release's writes while a long transaction holds the tables", async () => {
    const { db: live, url, drop: dropLive } = await previousSchema();
    const writer = createDb({ url, schema, log, poolMax: 1 });
    const reader = createDb({ url, schema, log, poolMax: 1 });
    const migrating = createDb({ url, schema, log, statementTimeoutMs: 0 });
    try {
      const c = await newChannel(live);
      await untimed(
        live,
        `WITH p AS (SELECT ?::uuid AS workspace_id, ?::uuid AS channel_id, ?::uuid AS actor_id),
         m AS (
           INSERT INTO messages (id, workspace_id, conversation_id, author_actor_id, body_text, children)
           SELECT gen_random_uuid(), p.workspace_id, p.channel_id, gen_random_uuid(), 'm' || i, '[]'
             FROM p, generate_series(1, 20000) i
           RETURNING id, conversation_id, author_actor_id
         ),
         mentioned AS (
           INSERT INTO mentions (actor_id, message_id, conversation_id) SELECT p.actor_id, m.id, m.conversation_id FROM p, m
         ),
         reacted AS (INSERT INTO reactions (message_id, emoji, actor_id) SELECT m.id, '👍', p.actor_id FROM p, m),
         versions AS (
           INSERT INTO message_versions (message_id, body_text, mentioned_actor_ids, written_at)
           SELECT id, 'before', '{}', now() FROM m
         ),
         marks AS (
           INSERT INTO conversation_reads (actor_id, conversation_id, last_read_message_id, last_read_at)
           SELECT author_actor_id, conversation_id, id, now() FROM m
         )
         INSERT INTO client_messages (conversation_id, actor_id, client_message_id, message_id)
         SELECT conversation_id, author_actor_id, id::text, id FROM m`,
        [c.workspaceId, c.channelId, c.creator],
      );
      // A report that reads every table for 6 s: no column can be added nor key swapped under it, and a step that
      // waited for it would hold every write queued behind its own lock request.
      let readerDone = false;
      const report = reader.transaction(async (tx) => {
        for (const table of ['channels', 'messages', ...FILLED.map(([t]) => t)])
          await tx.raw('SELECT count(*) FROM ??', [table]);
        await sleep(6000);
        readerDone = true;
      });
      let running = true;
      let written = 0;
      // The previous release's posts, each of whose statements may wait 5 s for a lock, more than a step waits (2 s).
      let failed: unknown;
      const writes = (async () => {
        while (running) {
          try {
            await postAsPrevious(writer, c);
            written++;
          } catch (err) {
            [failed, running] = [err, false];
          }
        }
      })();
      expect(await migrate(migrating, schema, expanded)).toEqual([WORKSPACE_COLUMNS, CITUS_KEYS, COUNT_INDEXES]);
      expect(readerDone).toBe(true);
      running = false;
      await Promise.all([writes, report]);
      expect(failed).toBeUndefined();
      expect(written).toBeGreaterThan(0);
      expect(await live('messages').where({ workspace_id: c.workspaceId }).count()).toEqual([
        { count: String(20_000 + written) },
      ]);
      expect(await misfilled(live)).toEqual(NONE_MISFILLED);
      expect(await catalog(live)).toEqual(await migrated());
    } finally {
      await Promise.all([writer.destroy(), reader.destroy(), migrating.destroy()]);
      await dropLive();
    }
  }, 180_000);
});

describe(CITUS_CONTRACT, () => {
  const KEYS: Array<[table: string, columns: string]> = [
    ['channel_members', 'workspace_id, channel_id, actor_id'],
    ['conversation_reads', 'workspace_id, actor_id, conversation_id'],
    ['thread_reads', 'workspace_id, actor_id, root_id'],
    ['client_messages', 'workspace_id, conversation_id, actor_id, client_message_id'],
  ];
  const LOOKUPS = ['messages_id_idx', 'channels_id_idx', 'message_versions_id_idx', 'reactions_message_idx'];

  /** The previous release's writes: its stores are this release's, since the contract half changes no statement. */
  function previousRelease(db: Knex) {
    const s = {
      transact: transactor(db),
      channels: new ChannelStore(db),
      messages: new MessageStore(db),
      reactions: new ReactionStore(db),
      reads: new ReadStateStore(db),
      saved: new SavedStore(db),
    };
    const draft = (workspaceId: string, conversationId: string, author: string) => ({
      id: uuidv7(),
      workspaceId,
      conversationId,
      parentMessageId: null,
      authorActorId: author,
      bodyText: `hi <@${author}>`,
      children: readBody('hi'),
      mentionedActorIds: [author],
      assetIds: [],
      loading: false,
    });
    /** A post claimed by its client_message_id, with its mention: the message, or undefined when the key was held. */
    const post = (workspaceId: string, conversationId: string, author: string, clientMessageId: string) =>
      s.transact(async (tx) => {
        const d = draft(workspaceId, conversationId, author);
        const key = { workspaceId, conversationId, actorId: author, clientMessageId };
        if (await s.messages.claimClientId(key, d.id, tx)) return undefined;
        const message = (await s.messages.insert(d, tx))!.message;
        await s.messages.addMentions(message, null, tx);
        return message;
      });
    /** A channel, and a post in it followed by a write to every other table: a reply, a reaction, an edit, marks. */
    const thread = async (): Promise<{ workspaceId: string; channelId: string; root: Message; reader: string }> => {
      const [workspaceId, channelId, author, reader] = [randomUUID(), uuidv7(), randomUUID(), randomUUID()];
      await s.channels.insert({
        ...{ id: channelId, workspaceId, kind: 'public', name: `c-${channelId}`, topic: null },
        ...{ createdByActorId: author, memberActorIds: [author, reader], participantActorIds: [] },
      });
      const root = (await post(workspaceId, channelId, author, randomUUID()))!;
      await s.transact((tx) =>
        s.messages.insertReply({ ...draft(workspaceId, channelId, reader), parentMessageId: root.id }, [reader], tx),
      );
      await s.transact(async (tx) => {
        await s.messages.lockLive(workspaceId, root.id, tx);
        await s.reactions.add({ workspaceId, messageId: root.id, emoji: '👍', actorId: reader }, tx);
        await s.messages.edit(workspaceId, root.id, { bodyText: 'edited', children: [], mentionedActorIds: [] }, tx);
      });
      await s.saved.save(reader, workspaceId, channelId, root.id);
      await s.reads.markConversation(reader, workspaceId, channelId, root.id);
      await s.reads.setFollowing(reader, root, false);
      return { workspaceId, channelId, root, reader };
    };
    return { ...s, post, thread };
  }

  /** The schema's keys, unique indexes and triggers. */
  async function keysOf(db: Knex) {
    const q = async (sql: string) => (await db.raw<{ rows: Array<Record<string, string>> }>(sql)).rows;
    const here = 'relnamespace = current_schema()::regnamespace';
    return {
      primaryKeys: Object.fromEntries(
        (
          await q(`SELECT conrelid::regclass::text AS t, pg_get_constraintdef(oid) AS def FROM pg_constraint
             WHERE contype = 'p' AND connamespace = current_schema()::regnamespace`)
        ).map((r) => [r.t, r.def]),
      ),
      indexes: (await q(`SELECT relname FROM pg_class WHERE relkind = 'i' AND ${here} ORDER BY 1`)).map(
        (r) => r.relname!,
      ),
      triggers: await q(`SELECT tgname FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid
        WHERE ${here} AND NOT tgisinternal`),
      functions: await q(`SELECT proname FROM pg_proc WHERE pronamespace = current_schema()::regnamespace`),
    };
  }
  const rowCounts = (db: Knex) =>
    Promise.all(
      ['channels', 'channel_members', 'messages', 'mentions', 'reactions', 'message_versions', 'saved_messages']
        .concat(['thread_reads', 'conversation_reads', 'client_messages'])
        .map(async (t) => [t, (await db(t).count())[0]!.count]),
    );
  /** The keys of a schema all migrations made from an empty one. */
  const migrated = async () => {
    const made = await openTestDatabase(schema, migrations);
    try {
      return await keysOf(made.db);
    } finally {
      await made.drop();
    }
  };

  it('drops what the expand half kept and leads the four keys with the workspace, every row kept', async () => {
    const { db, drop } = await openTestDatabase(schema, expanded);
    try {
      const previous = previousRelease(db);
      for (let i = 0; i < 3; i++) await previous.thread();
      const before = await rowCounts(db);
      expect((await keysOf(db)).triggers).toHaveLength(6);

      expect(await migrate(db, schema, migrations)).toEqual([CITUS_CONTRACT]);
      expect(await rowCounts(db)).toEqual(before);
      const found = await keysOf(db);
      expect(found).toEqual(await migrated());
      for (const [table, columns] of KEYS) expect(found.primaryKeys[table]).toBe(`PRIMARY KEY (${columns})`);
      expect(found.triggers).toEqual([]);
      expect(found.functions).toEqual([]);
      expect(found.indexes.filter((name) => LOOKUPS.includes(name) || name.endsWith('_next'))).toEqual([]);

      // The previous release's writes go on, and find what they wrote before.
      const t = await previous.thread();
      expect(await previous.reads.markConversation(t.reader, t.workspaceId, t.channelId, t.root.id)).toBeDefined();
      expect(await previous.reads.setFollowing(t.reader, t.root, true)).toMatchObject({ following: true });
      expect(await previous.post(t.workspaceId, t.channelId, t.root.authorActorId, 'k')).toBeDefined();
      expect(await previous.post(t.workspaceId, t.channelId, t.root.authorActorId, 'k')).toBeUndefined();
    } finally {
      await drop();
    }
  });

  it('runs again as a no-op, and finishes a run that stopped halfway', async () => {
    const { db, drop } = await openTestDatabase(schema, expanded);
    try {
      await previousRelease(db).thread();
      // Stopped with one trigger dropped, one key swapped, the next one's index built, and one index dropped.
      await db.raw(`
        DROP TRIGGER mentions_workspace_id_fill ON mentions;
        CREATE UNIQUE INDEX channel_members_pkey_next ON channel_members (workspace_id, channel_id, actor_id);
        ALTER TABLE channel_members DROP CONSTRAINT channel_members_pkey,
          ADD CONSTRAINT channel_members_pkey PRIMARY KEY USING INDEX channel_members_pkey_next;
        CREATE UNIQUE INDEX conversation_reads_pkey_next ON conversation_reads (workspace_id, actor_id, conversation_id);
        DROP INDEX messages_id_idx;`);
      expect(await migrate(db, schema, migrations)).toEqual([CITUS_CONTRACT]);
      const found = await keysOf(db);
      expect(found).toEqual(await migrated());
      await migrations.find((m) => m.name === CITUS_CONTRACT)!.up(db);
      expect(await keysOf(db)).toEqual(found);
    } finally {
      await drop();
    }
  });

  it("swaps the keys while the previous release's upserts of one new row race, a long transaction holding the tables", async () => {
    const { db, url, drop } = await openTestDatabase(schema, expanded, { statementTimeoutMs: 60_000 });
    const writer = createDb({ url, schema, log, poolMax: 8 });
    const reader = createDb({ url, schema, log, poolMax: 1 });
    const migrating = createDb({ url, schema, log, statementTimeoutMs: 0 });
    try {
      const previous = previousRelease(writer);
      const t = await previous.thread();
      // Rows enough that each key's index takes a while to build.
      await untimed(
        db,
        `WITH m AS (
           INSERT INTO messages (id, workspace_id, conversation_id, author_actor_id, body_text, children)
           SELECT gen_random_uuid(), ?, ?, gen_random_uuid(), 'm' || i, '[]' FROM generate_series(1, 20000) i
           RETURNING id, workspace_id, conversation_id, author_actor_id
         ),
         marks AS (
           INSERT INTO conversation_reads (workspace_id, actor_id, conversation_id, last_read_message_id, last_read_at)
           SELECT workspace_id, author_actor_id, conversation_id, id, now() FROM m
         ),
         follows AS (
           INSERT INTO thread_reads (workspace_id, actor_id, root_id, conversation_id, following)
           SELECT workspace_id, author_actor_id, id, conversation_id, true FROM m
         ),
         members AS (
           INSERT INTO channel_members (workspace_id, channel_id, actor_id) SELECT workspace_id, conversation_id, author_actor_id FROM m
         )
         INSERT INTO client_messages (workspace_id, conversation_id, actor_id, client_message_id, message_id)
         SELECT workspace_id, conversation_id, author_actor_id, id::text, id FROM m`,
        [t.workspaceId, t.channelId],
      );
      // A report that reads every table for 6 s: no key can be swapped under it.
      let readerDone = false;
      const report = reader.transaction(async (tx) => {
        for (const [table] of KEYS) await tx.raw('SELECT count(*) FROM ??', [table]);
        await sleep(6000);
        readerDone = true;
      });
      let running = true;
      let rounds = 0;
      let failed: unknown;
      // Four writers at once upserting each of one new actor's rows, round after round.
      const races = (async () => {
        while (running) {
          const actorId = randomUUID();
          const four = <T>(write: () => Promise<T>) => Promise.all(Array.from({ length: 4 }, write));
          try {
            await four(() => previous.reads.markConversation(actorId, t.workspaceId, t.channelId, t.root.id));
            await four(() => previous.reads.setFollowing(actorId, t.root, true));
            await four(() => previous.post(t.workspaceId, t.channelId, actorId, 'same'));
            const member = { channelId: t.channelId, workspaceId: t.workspaceId, actorId, addedByActorId: null };
            await four(() => previous.channels.addMember(member));
            for (const [table] of KEYS)
              expect(await db(table).where({ actor_id: actorId }).count()).toEqual([{ count: '1' }]);
            rounds++;
          } catch (err) {
            [failed, running] = [err, false];
          }
        }
      })();
      expect(await migrate(migrating, schema, migrations)).toEqual([CITUS_CONTRACT]);
      expect(readerDone).toBe(true);
      running = false;
      await Promise.all([races, report]);
      expect(failed).toBeUndefined();
      expect(rounds).toBeGreaterThan(0);
      expect(await keysOf(db)).toEqual(await migrated());
    } finally {
      await Promise.all([writer.destroy(), reader.destroy(), migrating.destroy()]);
      await drop();
    }
  }, 180_000);
});
