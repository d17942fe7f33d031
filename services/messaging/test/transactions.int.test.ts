import { createDb, type Knex, queryable, transactor, type Tx } from '@wms/kit/db';
import { createLogger } from '@wms/kit/logger';
import { createTestDatabase } from '@wms/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../migrations/index.ts';

// kit's transactor (db.ts), which every service's transactions run through, against the messaging schema's database.

const log = createLogger('transactions-test', 'silent');

let database: { url: string; drop(): Promise<void> };
let db: Knex;

/** The pool's connections lent out now. */
const inUse = () => (db.client as { pool: { numUsed(): number } }).pool.numUsed();
/** The pool's connections, lent out or free. */
const pooled = () => (db.client as { pool: { numUsed(): number; numFree(): number } }).pool.numFree() + inUse();

beforeAll(async () => {
  database = await createTestDatabase('messaging', migrations);
  db = createDb({ url: database.url, schema: 'messaging', log, poolMax: 3, statementTimeoutMs: 300 });
  // A deferred foreign key fails at COMMIT, not at the statement.
  await db.raw(
    `CREATE TABLE tx_probe (id int PRIMARY KEY, ref int REFERENCES tx_probe (id) DEFERRABLE INITIALLY DEFERRED)`,
  );
});

afterAll(async () => {
  await db?.destroy();
  await database?.drop();
});

const ids = async () => (await db('tx_probe').select('id').orderBy('id')).map((r: { id: number }) => r.id);
const insert = (tx: Tx, id: number, ref: number | null = null) => queryable(db, tx)('tx_probe').insert({ id, ref });

describe('transactor', () => {
  it('commits the work on one connection, unseen outside until the commit, and returns its result', async () => {
    const transact = transactor(db);
    const result = await transact(async (tx) => {
      await insert(tx, 1);
      await queryable(db, tx).raw('INSERT INTO tx_probe (id) VALUES (?)', [2]);
      expect(await ids()).not.toContain(1);
      const { rows } = await queryable(db, tx).raw<{ rows: Array<{ n: number }> }>(
        'SELECT count(*)::int AS n FROM tx_probe WHERE id IN (1, 2)',
      );
      return rows[0]!.n;
    });
    expect(result).toBe(2);
    expect(await ids()).toEqual(expect.arrayContaining([1, 2]));
    expect(inUse()).toBe(0);
  });

  it('rolls back when the work throws, and rejects with its error', async () => {
    const failure = new Error('work failed');
    await expect(
      transactor(db)(async (tx) => {
        await insert(tx, 10);
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await ids()).not.toContain(10);
    expect(inUse()).toBe(0);
  });

  it('rejects when the COMMIT fails, with nothing committed, and keeps the connection Postgres refused it on', async () => {
    await transactor(db)(async () => undefined);
    const before = pooled();
    await expect(transactor(db)((tx) => insert(tx, 20, 999))).rejects.toMatchObject({ code: '23503' });
    expect(await ids()).not.toContain(20);
    expect(inUse()).toBe(0);
    expect(pooled()).toBe(before);
    // The pool still serves transactions afterwards.
    await transactor(db)((tx) => insert(tx, 21));
    expect(await ids()).toContain(21);
  });

  it('rejects when a statement failed even though the work went on (Postgres rolled it back)', async () => {
    await expect(
      transactor(db)(async (tx) => {
        await insert(tx, 30);
        await insert(tx, 30).catch(() => undefined);
      }),
    ).rejects.toThrow(/rolled back/);
    expect(await ids()).not.toContain(30);
    expect(inUse()).toBe(0);
  });

  it('keeps the statement timeout inside a transaction', async () => {
    await expect(transactor(db)((tx) => queryable(db, tx).raw('SELECT pg_sleep(2)'))).rejects.toMatchObject({
      code: '57014',
    });
    expect(inUse()).toBe(0);
  });

  it('refuses a statement of a transaction that has ended', async () => {
    let kept: Tx | undefined;
    await transactor(db)(async (tx) => {
      kept = tx;
    });
    await expect(insert(kept!, 40)).rejects.toThrow(/after its transaction ended/);
    expect(await ids()).not.toContain(40);
  });

  it('runs concurrent transactions apart, each on its own connection, more of them than the pool holds', async () => {
    const transact = transactor(db);
    await Promise.all(Array.from({ length: 8 }, (_, i) => transact((tx) => insert(tx, 100 + i))));
    expect(await ids()).toEqual(expect.arrayContaining(Array.from({ length: 8 }, (_, i) => 100 + i)));
    expect(inUse()).toBe(0);
  });
});
