import { randomUUID } from 'node:crypto';
import { type Knex, migrate } from '@wms/kit/db';
import { uuidv7 } from '@wms/kit/ids';
import { openTestDatabase } from '@wms/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../migrations/index.ts';

// Each migration that changes keys, run on a schema holding data the schema before it made.

const schema = 'asset';
const CITUS_KEYS = '20261213000000_citus_keys';
const CITUS_CONTRACT = '20261215000000_citus_contract';
/** The schema of the release before this one. */
const expanded = migrations.slice(
  0,
  migrations.findIndex((m) => m.name === CITUS_CONTRACT),
);

let db: Knex;
let drop: () => Promise<void>;

beforeAll(async () => {
  ({ db, drop } = await openTestDatabase(
    schema,
    migrations.slice(
      0,
      migrations.findIndex((m) => m.name === CITUS_KEYS),
    ),
  ));
});

afterAll(() => drop?.());

describe(CITUS_KEYS, () => {
  it('leads the key with the workspace, keeping every row, and runs again as a no-op', async () => {
    const asset = (workspaceId: string) => ({
      id: uuidv7(),
      workspace_id: workspaceId,
      conversation_id: randomUUID(),
      reserved_by_actor_id: randomUUID(),
      name: 'a.txt',
      content_type: 'text/plain',
      size_bytes: 1,
    });
    const rows = [asset(randomUUID()), asset(randomUUID())];
    await db('assets').insert(rows);
    await migrate(db, schema, expanded);
    await migrations.find((m) => m.name === CITUS_KEYS)!.up(db);
    const { rows: keys } = await db.raw<{ rows: Array<{ def: string }> }>(
      `SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conrelid = 'assets'::regclass AND contype = 'p'`,
    );
    expect(keys).toEqual([{ def: 'PRIMARY KEY (workspace_id, id)' }]);
    expect((await db('assets').orderBy('id').select('id')).map((r: { id: string }) => r.id)).toEqual(
      rows.map((r) => r.id).sort(),
    );
    // The previous release's cleanup sweep deletes by id alone.
    await db.raw('DELETE FROM assets WHERE id IN (?)', [rows[0]!.id]);
    expect(await db('assets').count()).toEqual([{ count: '1' }]);
  });
});

describe(CITUS_CONTRACT, () => {
  it('drops the lookup by id alone that the expand half kept, and runs again as a no-op', async () => {
    const indexes = async () =>
      (
        await db.raw<{ rows: Array<{ name: string }> }>(
          `SELECT indexname AS name FROM pg_indexes WHERE tablename = 'assets' ORDER BY 1`,
        )
      ).rows.map((r) => r.name);
    const rowsBefore = await db('assets').count();
    expect(await indexes()).toContain('assets_id_idx');
    expect(await migrate(db, schema, migrations)).toEqual([CITUS_CONTRACT]);
    const after = await indexes();
    expect(after).toEqual(['assets_message_idx', 'assets_pkey', 'assets_unattached_idx']);
    await migrations.find((m) => m.name === CITUS_CONTRACT)!.up(db);
    expect(await indexes()).toEqual(after);
    expect(await db('assets').count()).toEqual(rowsBefore);
  });
});
