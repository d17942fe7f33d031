import { openTestDatabase, waitFor } from '@wms/testkit';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replaceForeignKey } from '../src/schema-changes.ts';

// kit schema-changes.ts beside writers: the migrations' own tests (services/*/test/migrations.int.test.ts) cover each
// step on the services' schemas; this one plants the interleaving that made a writer the victim of a deadlock.

const SCHEMA = 'kit_schema_changes';
let database: Awaited<ReturnType<typeof openTestDatabase>>;
const clients: pg.Client[] = [];

/** A connection of its own, as a writer of the application would hold one through its transaction. */
async function session(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  await client.query(`SET search_path = ${SCHEMA}`);
  clients.push(client);
  return client;
}

/** Lock requests on `table` still waiting. */
async function waitingOn(table: string): Promise<number> {
  const { rows } = await database.db.raw<{ rows: Array<{ n: number }> }>(
    `SELECT count(*)::int AS n FROM pg_locks WHERE relation = to_regclass(?) AND NOT granted`,
    [`${SCHEMA}.${table}`],
  );
  return rows[0]!.n;
}

beforeAll(async () => {
  database = await openTestDatabase(SCHEMA, []);
  await database.db.raw(`
    CREATE TABLE parent (ws int NOT NULL, id int PRIMARY KEY, note text, UNIQUE (ws, id));
    CREATE TABLE child (id int PRIMARY KEY, ws int NOT NULL, parent_id int CONSTRAINT child_parent_id_fkey REFERENCES parent (id), note text);
    INSERT INTO parent VALUES (1, 1, ''), (1, 2, '');
    INSERT INTO child VALUES (1, 1, 1, '')`);
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.end()));
  await database?.drop();
});

describe('briefLockStep', () => {
  it('never waits holding a lock, so a writer that takes the tables in the other order, and waited first, goes on', async () => {
    // Another writer holds the parent: the step waits for its first lock, holding nothing.
    const other = await session();
    await other.query('BEGIN');
    await other.query(`UPDATE parent SET note = 'other' WHERE id = 2`);
    const migrating = replaceForeignKey(database.db, {
      table: 'child',
      name: 'child_parent_id_fkey',
      columns: ['ws', 'parent_id'],
      references: 'parent',
      referencedColumns: ['ws', 'id'],
    });
    await waitFor('the step waiting for the parent', async () => (await waitingOn('parent')) === 1, 10_000, 20);

    // A writer holds the child, then waits for the parent behind the step: it waited first.
    const writer = await session();
    await writer.query('BEGIN');
    await writer.query(`UPDATE child SET note = 'writer' WHERE id = 1`);
    const written = writer.query(`UPDATE parent SET note = 'writer' WHERE id = 1`);
    await waitFor('the writer waiting too', async () => (await waitingOn('parent')) === 2, 10_000, 20);

    // The parent's lock goes to the step, which then needs the child's: had it waited for it, the writer's deadlock
    // check (a second after it began to wait) would have ended the writer (40P01).
    await other.query('COMMIT');
    await written;
    await writer.query('COMMIT');
    await migrating;

    const { rows } = await database.db.raw<{ rows: Array<{ note: string; key: string }> }>(
      `SELECT c.note, pg_get_constraintdef(k.oid) AS key FROM child c, pg_constraint k
        WHERE c.id = 1 AND k.conrelid = to_regclass('child') AND k.contype = 'f'`,
    );
    expect(rows).toEqual([{ note: 'writer', key: 'FOREIGN KEY (ws, parent_id) REFERENCES parent(ws, id)' }]);
  });
});
