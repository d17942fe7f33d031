import type { SchemaPlacement } from '@wms/kit/placement';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkStatement, loadParser, normaliseStatement, type StatementRules } from './statements.ts';

const placements: SchemaPlacement[] = [
  {
    schema: 'messaging',
    distribution: 'by-workspace',
    tables: {
      channels: 'distributed',
      channel_members: 'distributed',
      messages: 'distributed',
      reactions: 'distributed',
      saved_messages: 'distributed',
      mentions: 'distributed',
      outbox: 'local',
    },
  },
  {
    schema: 'workspace',
    distribution: 'by-workspace',
    tables: { workspaces: 'reference', actors: 'distributed', tokens: 'reference', outbox: 'local' },
  },
  { schema: 'identity', distribution: 'whole-schema' },
];

const columns = new Map(
  Object.entries({
    'messaging.channels': ['id', 'workspace_id', 'kind', 'name'],
    'messaging.channel_members': ['channel_id', 'actor_id', 'workspace_id'],
    'messaging.messages': ['id', 'workspace_id', 'conversation_id', 'parent_message_id', 'body_text', 'deleted_at'],
    'messaging.saved_messages': ['workspace_id', 'actor_id', 'message_id', 'saved_at'],
    'messaging.reactions': ['workspace_id', 'message_id', 'emoji', 'actor_id'],
    'messaging.mentions': ['workspace_id', 'actor_id', 'message_id'],
  }).map(([table, names]) => [table, new Set(names)]),
);

const rules: StatementRules = { placements, columns };
/** What the rule finds in a statement of the messaging pool, one `table: reason` line each. */
const check = (sql: string, schema = 'messaging') =>
  checkStatement(rules, schema, sql).map((f) => `${f.table}: ${f.reason}`);
const unbound = (table: string) => `${table}: no workspace_id = value predicate`;

beforeAll(() => loadParser());

describe('checkStatement', () => {
  it("flags a page's tables until each names its workspace", () => {
    const page = (extra: { where: string; on: string }) =>
      `SELECT m.id, m.body_text, s.saved_at FROM messages m
       LEFT JOIN saved_messages s ON s.message_id = m.id AND s.actor_id = $1${extra.on}
       WHERE m.conversation_id = $2 AND m.parent_message_id IS NULL${extra.where} ORDER BY m.id DESC LIMIT 50`;
    expect(check(page({ where: '', on: '' }))).toEqual([
      unbound('messaging.messages AS m'),
      unbound('messaging.saved_messages AS s'),
    ]);
    expect(check(page({ where: ' AND m.workspace_id = $3', on: '' }))).toEqual([
      unbound('messaging.saved_messages AS s'),
    ]);
    expect(check(page({ where: ' AND m.workspace_id = $3', on: ' AND s.workspace_id = m.workspace_id' }))).toEqual([]);
  });

  it('flags an INSERT without workspace_id, and takes one from VALUES or from a bound SELECT', () => {
    expect(check('INSERT INTO reactions (message_id, emoji, actor_id) VALUES ($1, $2, $3)')).toEqual([
      'messaging.reactions: INSERT without workspace_id',
    ]);
    expect(
      check(
        'INSERT INTO reactions (workspace_id, message_id, emoji, actor_id) VALUES ($1, $2, $3, $4), ($5, $6, $7, $8)',
      ),
    ).toEqual([]);
    const fromMessage = (where: string) =>
      `INSERT INTO mentions (workspace_id, actor_id, message_id)
       SELECT m.workspace_id, a, m.id FROM messages m, unnest($1::uuid[]) AS a WHERE m.id = $2${where}`;
    expect(check(fromMessage(' AND m.workspace_id = $3'))).toEqual([]);
    expect(check(fromMessage(''))).toEqual([unbound('messaging.mentions'), unbound('messaging.messages AS m')]);
  });

  it('checks each arm of a UNION on its own', () => {
    expect(
      check(
        `SELECT id FROM messages WHERE workspace_id = $1 AND id = $2
         UNION ALL SELECT m.id FROM messages m WHERE m.parent_message_id = $3`,
      ),
    ).toEqual([unbound('messaging.messages AS m')]);
  });

  it('lets a statement marked multi-shard span workspaces, but not lock rows across them', () => {
    const sweep = 'DELETE FROM messages WHERE deleted_at < $1 AND id IN (SELECT id FROM messages LIMIT 500)';
    expect(check(sweep)).toHaveLength(2);
    expect(check(`/* citus: multi-shard (cleanup sweep) */ ${sweep}`)).toEqual([]);
    expect(
      check(
        `/* citus: multi-shard (cleanup sweep) */
         UPDATE messages SET body_text = '' WHERE id IN (SELECT id FROM messages WHERE deleted_at IS NOT NULL LIMIT 500 FOR UPDATE SKIP LOCKED)`,
      ),
    ).toEqual(['messaging.messages: FOR UPDATE in a multi-shard statement: it would lock rows on every shard']);
  });

  it('flags an ON CONFLICT target of a distributed table that leaves workspace_id out', () => {
    const upsert = (target: string) =>
      `INSERT INTO reactions (workspace_id, message_id, emoji, actor_id) VALUES ($1, $2, $3, $4) ON CONFLICT (${target}) DO NOTHING`;
    expect(check(upsert('message_id, emoji, actor_id'))).toEqual([
      "messaging.reactions: ON CONFLICT (message_id, emoji, actor_id): a distributed table's unique key must include workspace_id",
    ]);
    expect(check(upsert('workspace_id, message_id, emoji, actor_id'))).toEqual([]);
  });

  it("binds a correlated subquery's table through the outer query's bound column, never the other way", () => {
    const member = (outer: string, inner: string) =>
      `SELECT c.id, EXISTS (SELECT 1 FROM channel_members me WHERE me.channel_id = c.id AND me.actor_id = $1${inner}) AS is_member
       FROM channels c WHERE c.id = $2${outer}`;
    expect(check(member(' AND c.workspace_id = $3', ' AND me.workspace_id = c.workspace_id'))).toEqual([]);
    expect(check(member(' AND c.workspace_id = $3', ''))).toEqual([unbound('messaging.channel_members AS me')]);
    // Bound inside the subquery only: the channel's row is not.
    expect(check(member('', ' AND me.workspace_id = $3 AND me.workspace_id = c.workspace_id'))).toEqual([
      unbound('messaging.channels AS c'),
    ]);
  });

  it('takes no predicate from inside an OR or a NOT', () => {
    expect(check('SELECT id FROM messages WHERE workspace_id = $1 OR id = $2')).toEqual([
      unbound('messaging.messages'),
    ]);
    expect(check('SELECT id FROM messages WHERE NOT (workspace_id = $1)')).toEqual([unbound('messaging.messages')]);
    expect(check('SELECT id FROM messages WHERE (workspace_id = $1 AND id = $2) AND deleted_at IS NULL')).toEqual([]);
  });

  it('calls a workspace_id list a multi-shard lookup, and a list of one a lookup', () => {
    const spans = 'messaging.messages: workspace_id = ANY (...): spans workspaces';
    expect(check('SELECT id FROM messages WHERE workspace_id = ANY ($1::uuid[])')).toEqual([spans]);
    expect(check('SELECT id FROM messages WHERE workspace_id IN ($1, $2)')).toEqual([spans]);
    expect(check('SELECT id FROM messages WHERE workspace_id IN ($1)')).toEqual([]);
  });

  it('follows bindings through CTEs, data-modifying CTEs, LATERAL, UPDATE ... FROM and DELETE ... USING', () => {
    expect(
      check(
        `WITH m AS (SELECT id, workspace_id FROM messages WHERE id = $1 AND workspace_id = $2)
         SELECT r.emoji FROM reactions r JOIN m ON r.message_id = m.id AND r.workspace_id = m.workspace_id`,
      ),
    ).toEqual([]);
    expect(
      check(
        `WITH d AS (DELETE FROM reactions WHERE message_id = $1 RETURNING message_id)
         UPDATE messages SET body_text = '' WHERE id IN (SELECT message_id FROM d) AND workspace_id = $2`,
      ),
    ).toEqual([unbound('messaging.reactions')]);
    expect(
      check(
        `SELECT p.* FROM channels c LEFT JOIN LATERAL (
           SELECT m.id FROM messages m WHERE m.conversation_id = c.id AND m.workspace_id = c.workspace_id LIMIT 5) p ON true
         WHERE c.id = $1 AND c.workspace_id = $2`,
      ),
    ).toEqual([]);
    expect(
      check(
        `UPDATE messages SET body_text = '' FROM channels c
         WHERE c.id = messages.conversation_id AND c.workspace_id = messages.workspace_id AND messages.workspace_id = $1`,
      ),
    ).toEqual([]);
    expect(
      check(
        'DELETE FROM reactions r USING messages m WHERE r.message_id = m.id AND m.workspace_id = $1 AND r.workspace_id = m.workspace_id',
      ),
    ).toEqual([]);
    // A subquery Postgres pulls up takes the outer query's predicate; one with a LIMIT does not, but binds what it binds.
    const sub = (inner: string, outer: string) =>
      `SELECT s.id FROM (SELECT id, workspace_id FROM messages WHERE conversation_id = $1${inner}) s JOIN reactions r
       ON r.message_id = s.id AND r.workspace_id = s.workspace_id WHERE true${outer}`;
    expect(check(sub('', ' AND s.workspace_id = $2'))).toEqual([]);
    expect(check(sub(' LIMIT 50', ' AND s.workspace_id = $2'))).toEqual([unbound('messaging.messages')]);
    expect(check(sub(' AND workspace_id = $2 LIMIT 50', ''))).toEqual([]);
    // A name a CTE takes is no table.
    expect(check('WITH messages AS (SELECT 1 AS id) SELECT id FROM messages')).toEqual([]);
    // A scalar subquery of a CTE's column is that column: a value when the CTE binds it to one.
    const scalar = (cte: string) =>
      `WITH params AS MATERIALIZED (${cte}) SELECT m.id FROM messages m WHERE m.workspace_id = (SELECT workspace_id FROM params)`;
    expect(check(scalar('SELECT $1::uuid AS workspace_id'))).toEqual([]);
    expect(check(scalar('SELECT workspace_id FROM channels WHERE id = $1'))).toEqual([
      unbound('messaging.channels'),
      unbound('messaging.messages AS m'),
    ]);
    expect(
      check(
        'WITH params AS (SELECT $1::uuid AS workspace_id) SELECT m.id FROM messages m WHERE m.workspace_id = (SELECT workspace_id FROM params WHERE false)',
      ),
    ).toEqual([unbound('messaging.messages AS m')]);
  });

  it('places a bare column by the tables that have it, and leaves one that two could have unresolved', () => {
    expect(
      check(
        'SELECT m.id FROM messages m JOIN saved_messages s ON s.message_id = m.id WHERE m.workspace_id = $1 AND workspace_id = $2',
      ),
    ).toEqual([unbound('messaging.saved_messages AS s')]);
    expect(
      check(
        'SELECT m.id FROM messages m JOIN saved_messages s ON s.message_id = m.id AND s.workspace_id = m.workspace_id WHERE conversation_id = $1 AND saved_at > $2',
      ),
    ).toEqual([unbound('messaging.messages AS m'), unbound('messaging.saved_messages AS s')]);
  });

  it('applies only to the distributed tables of a schema distributed by workspace, found by name or search_path', () => {
    expect(check('SELECT id FROM workspace.actors WHERE user_id = $1')).toEqual([unbound('workspace.actors')]);
    expect(check('SELECT id FROM actors WHERE user_id = $1', 'workspace')).toEqual([unbound('workspace.actors')]);
    expect(check('SELECT id FROM actors WHERE user_id = $1')).toEqual([]);
    expect(check('SELECT * FROM outbox ORDER BY id LIMIT 100', 'workspace')).toEqual([]);
    expect(check('SELECT t.id FROM tokens t JOIN workspaces w ON w.id = t.workspace_id', 'workspace')).toEqual([]);
    expect(check('SELECT id FROM users WHERE email = $1', 'identity')).toEqual([]);
  });

  it('leaves statements that are no query alone', () => {
    for (const sql of ['BEGIN;', 'COMMIT;', 'SET statement_timeout = 0', 'SELECT 1', 'CREATE INDEX i ON messages (id)'])
      expect(check(sql), sql).toEqual([]);
  });
});

describe('normaliseStatement', () => {
  it('writes a statement on one line, its comments and the lengths of its lists left out', () => {
    expect(
      normaliseStatement(`SELECT id -- the § id
        FROM  messages /* kept */ WHERE id IN ($1, $2, $3) AND workspace_id = $4`),
    ).toBe('SELECT id FROM messages /* kept */ WHERE id IN ($1, ...) AND workspace_id = $2');
    expect(normaliseStatement('insert into "reactions" ("a", "b") values ($1, $2), ($3, $4), ($5, $6)')).toBe(
      'insert into "reactions" ("a", "b") values ($1, ...), ...',
    );
  });
});
