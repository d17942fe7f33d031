import type { Knex } from '@wms/kit/db';
import type { Logger } from '@wms/kit/logger';

// The replication slot through which the realtime worker follows the events the data owners write into their
// transactions (kit outbox.ts). A slot is the cluster's, named for one database and realtime schema; it keeps the WAL
// that its reader has not acknowledged, so it is created before any event is written (by the migrate role) and
// dropped with its database (local-cluster data.ts).

/** The publication the stream names: it publishes no table, so the stream carries the logical messages alone. */
export const EVENTS_PUBLICATION = 'wms_events';

/** The slot's name: `wms_events_` and a digest of the database's and the realtime schema's names (slot names are the cluster's). */
export async function eventSlotName(db: Knex): Promise<string> {
  const { rows } = await db.raw<{ rows: Array<{ slot: string }> }>(
    `SELECT 'wms_events_' || left(md5(current_database() || '/' || current_schema()), 16) AS slot`,
  );
  return rows[0]!.slot;
}

/** 42710 duplicate_object: another process created it first. */
const isDuplicate = (err: unknown) => (err as { code?: string }).code === '42710';

/**
 * Creates the publication and the slot when missing (the slot in a transaction that writes nothing: Postgres refuses
 * one in a transaction that wrote). Returns whether the slot was new. Fails with what to do when Postgres does not
 * decode its WAL.
 */
export async function ensureEventSlot(db: Knex, log: Logger): Promise<boolean> {
  const { rows: level } = await db.raw<{ rows: Array<{ wal_level: string }> }>('SHOW wal_level');
  if (level[0]!.wal_level !== 'logical') {
    throw new Error(
      `realtime follows events through logical decoding, and this Postgres has wal_level = ${level[0]!.wal_level}: ` +
        'set wal_level = logical and restart it (docs/operations.md#postgres)',
    );
  }
  try {
    await db.raw(
      `DO $$ BEGIN
         IF NOT EXISTS (SELECT 1 FROM pg_publication WHERE pubname = '${EVENTS_PUBLICATION}') THEN
           CREATE PUBLICATION ${EVENTS_PUBLICATION};
         END IF;
       END $$`,
    );
  } catch (err) {
    if (!isDuplicate(err)) throw err;
  }
  const slot = await eventSlotName(db);
  try {
    // Creating it waits for every transaction then running on the server to end, for as long as that takes: not under
    // the pool's statement timeout, in a transaction that writes nothing (Postgres refuses one that wrote).
    const { rows } = await db.transaction(async (trx) => {
      await trx.raw('SET LOCAL statement_timeout = 0');
      return trx.raw<{ rows: unknown[] }>(
        `SELECT pg_create_logical_replication_slot(?, 'pgoutput')
         WHERE NOT EXISTS (SELECT 1 FROM pg_replication_slots WHERE slot_name = ?)`,
        [slot, slot],
      );
    });
    if (rows.length > 0) log.info({ slot }, 'created the replication slot that realtime follows events through');
    return rows.length > 0;
  } catch (err) {
    if (isDuplicate(err)) return false;
    throw err;
  }
}

/**
 * Makes the slot again after it was lost: dropped, or invalidated by Postgres for keeping more WAL than
 * `max_slot_wal_keep_size` (it then refuses to stream, and would for ever). What committed meanwhile is not followed.
 */
export async function replaceEventSlot(db: Knex, log: Logger): Promise<void> {
  const slot = await eventSlotName(db);
  // Only an invalidated slot: one that another worker found lost and made again meanwhile is left to be read.
  await db.raw(
    "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = ? AND NOT active AND wal_status = 'lost'",
    [slot],
  );
  await ensureEventSlot(db, log);
}
