import { randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { createDb, isForeignKeyViolation, type Knex, migrate } from '@wms/kit/db';
import { uuidv7 } from '@wms/kit/ids';
import { createLogger } from '@wms/kit/logger';
import { openTestDatabase, untimed } from '@wms/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../migrations/index.ts';

// Each migration that changes keys, run on a schema holding data the schema before it made, while the previous
// release's statements go on.

const schema = 'workspace';
const log = createLogger('workspace-migrations-test', 'silent');
const CITUS_KEYS = '20261213000000_citus_keys';
const CITUS_CONTRACT = '20261215000000_citus_contract';
/** The schema of the release before this one. */
const expanded = migrations.slice(
  0,
  migrations.findIndex((m) => m.name === CITUS_CONTRACT),
);
const before = migrations.slice(
  0,
  migrations.findIndex((m) => m.name === CITUS_KEYS),
);

/** A database migrated to just before `CITUS_KEYS`, for one test. */
const previousSchema = () => openTestDatabase(schema, before);

/** A workspace with an owner, an agent with a token, an avatar and an accepted invitation, as the previous release writes them. */
async function seed(db: Knex): Promise<{ workspaceId: string; ownerActorId: string; agentId: string }> {
  const workspaceId = uuidv7();
  const [ownerActorId, agentId, memberId] = [uuidv7(), uuidv7(), uuidv7()];
  await db('workspaces').insert({ id: workspaceId, name: 'W', slug: `w-${randomBytes(4).toString('hex')}` });
  await db('actors').insert([
    { id: ownerActorId, workspace_id: workspaceId, kind: 'user', user_id: randomUUID(), display_name: 'Owner' },
    { id: agentId, workspace_id: workspaceId, kind: 'agent', display_name: 'Bot' },
  ]);
  await db('workspace_users').insert({
    id: memberId,
    workspace_id: workspaceId,
    user_id: randomUUID(),
    actor_id: ownerActorId,
    role: 'owner',
  });
  await db('avatars').insert({
    id: uuidv7(),
    workspace_id: workspaceId,
    owner_kind: 'actor',
    owner_id: ownerActorId,
    storage_key: 'k',
  });
  await db('tokens').insert({
    id: uuidv7(),
    workspace_id: workspaceId,
    kind: 'workspace',
    actor_id: agentId,
    name: 't',
    token_prefix: 'wms_',
    secret_sha256: randomBytes(32),
    created_by_actor_id: ownerActorId,
  });
  await db('invitations').insert({
    id: uuidv7(),
    workspace_id: workspaceId,
    email: 'a@example.com',
    role: 'member',
    status: 'accepted',
    invited_by_actor_id: ownerActorId,
    workspace_user_id: memberId,
    expires_at: new Date(Date.now() + 86_400_000),
  });
  return { workspaceId, ownerActorId, agentId };
}

/**
 * Migrates the database at `url` with `to` while a report reads actors for 6 s (no key can be swapped nor trigger
 * dropped under it, and a step that waited for it would hold every write queued behind its own lock request) and the
 * previous release inserts actors, each insert waiting up to 5 s for its lock, more than a step waits (2 s).
 */
async function migrateBesideWrites(
  url: string,
  workspaceId: string,
  to: typeof migrations,
): Promise<{ applied: string[]; readerDone: boolean; written: number }> {
  const writer = createDb({ url, schema, log, poolMax: 1 });
  const reader = createDb({ url, schema, log, poolMax: 1 });
  const migrating = createDb({ url, schema, log, statementTimeoutMs: 0 });
  try {
    let readerDone = false;
    const report = reader.transaction(async (tx) => {
      await tx.raw('SELECT count(*) FROM actors');
      await sleep(6000);
      readerDone = true;
    });
    let running = true;
    let written = 0;
    const writes = (async () => {
      while (running) {
        await writer.transaction(async (tx) => {
          await tx.raw(`SET LOCAL lock_timeout = '5s'`);
          await tx('actors').insert({ id: uuidv7(), workspace_id: workspaceId, kind: 'agent', display_name: 'w' });
        });
        written++;
      }
    })();
    const applied = await migrate(migrating, schema, to);
    const done = readerDone;
    running = false;
    await Promise.all([writes, report]);
    return { applied, readerDone: done, written };
  } finally {
    await Promise.all([writer.destroy(), reader.destroy(), migrating.destroy()]);
  }
}

async function primaryKey(db: Knex, table: string): Promise<string> {
  const { rows } = await db.raw<{ rows: Array<{ def: string }> }>(
    `SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conrelid = to_regclass(?) AND contype = 'p'`,
    [table],
  );
  return rows[0]!.def;
}

describe(CITUS_KEYS, () => {
  let db: Knex;
  let drop: () => Promise<void>;
  beforeAll(async () => ({ db, drop } = await previousSchema()));
  afterAll(() => drop?.());

  it("leads every key with the workspace, keeping every row and the previous release's writes working", async () => {
    const seeded = await seed(db);
    const counts = async () =>
      Promise.all(['actors', 'workspace_users', 'avatars', 'tokens', 'invitations'].map((t) => db(t).count()));
    const rowsBefore = await counts();
    await migrate(db, schema, expanded);
    expect(await counts()).toEqual(rowsBefore);
    for (const table of ['actors', 'workspace_users', 'avatars'])
      expect(await primaryKey(db, table)).toBe('PRIMARY KEY (workspace_id, id)');
    // A member's actor must be of its own workspace now.
    const other = await seed(db);
    const stray = db('workspace_users').insert({
      id: uuidv7(),
      workspace_id: other.workspaceId,
      user_id: randomUUID(),
      actor_id: seeded.agentId,
      role: 'member',
    });
    await expect(stray).rejects.toSatisfy((err) => isForeignKeyViolation(err, 'workspace_users_actor_id_fkey'));
    // The previous release's purge deletes the actors and counts on their tokens going with them.
    await db('invitations').where({ workspace_id: seeded.workspaceId }).delete();
    await db('workspace_users').where({ workspace_id: seeded.workspaceId }).delete();
    await db('actors').where({ workspace_id: seeded.workspaceId }).delete();
    expect(await db('tokens').where({ workspace_id: seeded.workspaceId })).toEqual([]);
    expect(await db('tokens').where({ workspace_id: other.workspaceId })).toHaveLength(1);
  });

  it('runs again as a no-op, and finishes a run that stopped halfway', async () => {
    const { db: fresh, drop: dropFresh } = await previousSchema();
    try {
      await seed(fresh);
      // Stopped after the new key of members was added, not yet validated.
      await fresh.raw('CREATE UNIQUE INDEX actors_pkey_next ON actors (workspace_id, id)');
      await fresh.raw(`ALTER TABLE workspace_users ADD CONSTRAINT workspace_users_actor_id_fkey_next
        FOREIGN KEY (workspace_id, actor_id) REFERENCES actors (workspace_id, id) NOT VALID`);
      await migrate(fresh, schema, expanded);
      const migration = migrations.find((m) => m.name === CITUS_KEYS)!;
      await migration.up(fresh);
      const { rows } = await fresh.raw<{ rows: Array<{ conname: string; convalidated: boolean; def: string }> }>(
        `SELECT conname, convalidated, pg_get_constraintdef(oid) AS def FROM pg_constraint
          WHERE conrelid = 'workspace_users'::regclass AND contype = 'f' ORDER BY conname`,
      );
      expect(rows).toEqual([
        {
          conname: 'workspace_users_actor_id_fkey',
          convalidated: true,
          def: 'FOREIGN KEY (workspace_id, actor_id) REFERENCES actors(workspace_id, id)',
        },
        {
          conname: 'workspace_users_workspace_id_fkey',
          convalidated: true,
          def: 'FOREIGN KEY (workspace_id) REFERENCES workspaces(id) ON DELETE CASCADE',
        },
      ]);
      expect(await primaryKey(fresh, 'actors')).toBe('PRIMARY KEY (workspace_id, id)');
    } finally {
      await dropFresh();
    }
  });

  it("gives way to the previous release's writes while a long transaction holds the table", async () => {
    const { db: live, url, drop: dropLive } = await previousSchema();
    try {
      const { workspaceId } = await seed(live);
      await untimed(
        live,
        `INSERT INTO actors (id, workspace_id, kind, display_name)
         SELECT gen_random_uuid(), ?, 'agent', 'a' || i FROM generate_series(1, 20000) i`,
        [workspaceId],
      );
      const { readerDone, written } = await migrateBesideWrites(url, workspaceId, expanded);
      expect(readerDone).toBe(true);
      expect(written).toBeGreaterThan(0);
      expect(await live('actors').where({ workspace_id: workspaceId }).count()).toEqual([
        { count: String(20_002 + written) },
      ]);
      expect(await primaryKey(live, 'actors')).toBe('PRIMARY KEY (workspace_id, id)');
    } finally {
      await dropLive();
    }
  });
});

describe(CITUS_CONTRACT, () => {
  const LOOKUPS = ['actors_id_idx', 'workspace_users_id_idx', 'avatars_id_idx'];
  /** The trigger and the indexes by id alone that the expand half kept. */
  async function kept(db: Knex): Promise<string[]> {
    const { rows } = await db.raw<{ rows: Array<{ name: string }> }>(
      `SELECT tgname AS name FROM pg_trigger WHERE tgrelid = 'actors'::regclass AND NOT tgisinternal
       UNION ALL SELECT proname FROM pg_proc WHERE pronamespace = current_schema()::regnamespace
       UNION ALL SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND indexname = ANY (?)
       ORDER BY 1`,
      [LOOKUPS],
    );
    return rows.map((r) => r.name);
  }

  it('drops what the expand half kept, every row kept, and runs again as a no-op', async () => {
    const { db, drop } = await openTestDatabase(schema, expanded);
    try {
      const seeded = await seed(db);
      const counts = async () =>
        Promise.all(['actors', 'workspace_users', 'avatars', 'tokens', 'invitations'].map((t) => db(t).count()));
      const rowsBefore = await counts();
      expect(await kept(db)).toEqual([...LOOKUPS, 'actors_deleted_take_tokens', 'actors_deleted_take_tokens'].sort());
      expect(await migrate(db, schema, migrations)).toEqual([CITUS_CONTRACT]);
      expect(await counts()).toEqual(rowsBefore);
      expect(await kept(db)).toEqual([]);
      await migrations.find((m) => m.name === CITUS_CONTRACT)!.up(db);
      expect(await kept(db)).toEqual([]);
      // A deleted actor's tokens stay now: the previous release's purge deletes them itself (purge tests).
      await db('invitations').where({ workspace_id: seeded.workspaceId }).delete();
      await db('workspace_users').where({ workspace_id: seeded.workspaceId }).delete();
      await db('actors').where({ workspace_id: seeded.workspaceId }).delete();
      expect(await db('tokens').where({ workspace_id: seeded.workspaceId })).toHaveLength(1);
    } finally {
      await drop();
    }
  });

  it("gives way to the previous release's writes while a long transaction holds the table", async () => {
    const { db: live, url, drop: dropLive } = await openTestDatabase(schema, expanded);
    try {
      const { workspaceId } = await seed(live);
      const { applied, readerDone, written } = await migrateBesideWrites(url, workspaceId, migrations);
      expect(applied).toEqual([CITUS_CONTRACT]);
      expect(readerDone).toBe(true);
      expect(written).toBeGreaterThan(0);
      expect(await kept(live)).toEqual([]);
    } finally {
      await dropLive();
    }
  });
});
