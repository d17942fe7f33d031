import { randomUUID } from 'node:crypto';
import { createDb, type Knex, migrate } from '@wms/kit/db';
import { uuidv7 } from '@wms/kit/ids';
import { createLogger } from '@wms/kit/logger';
import { createTestDatabase } from '@wms/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../migrations/index.ts';

// Each migration that moves data, run on a schema holding data the schema before it made.

const schema = 'messaging';
const log = createLogger('messaging-migrations-test', 'silent');
const CONVERSATIONS = '20261204000000_conversations';
const ACTIVITY = '20261205000000_conversation_activity';
const SEARCH = '20261206000000_search';
const CHANNEL_NAME_SEARCH = '20261207000000_channel_name_search';

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

    expect(await migrate(db, schema, migrations)).toEqual([CONVERSATIONS, ACTIVITY, SEARCH, CHANNEL_NAME_SEARCH]);

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
