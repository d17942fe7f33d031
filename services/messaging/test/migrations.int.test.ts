import { randomUUID } from 'node:crypto';
import { createDb, type Knex, migrate } from '@wms/kit/db';
import { uuidv7 } from '@wms/kit/ids';
import { createLogger } from '@wms/kit/logger';
import { createTestDatabase, waitFor } from '@wms/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../migrations/index.ts';
import { readBody } from '../src/domain/markdown.ts';

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
      const migration = migrate(migrating!, schema, migrations);
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
      expect(await migration).toEqual([RICH, WORKSPACE_COLUMNS, CITUS_KEYS]);

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
