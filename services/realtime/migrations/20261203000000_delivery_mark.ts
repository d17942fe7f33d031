import type { Knex } from '@wms/kit/db';

// Delivery goes in id order, one batch at a time, so what has been triggered is every id up to a mark: one number,
// raised per batch, instead of a triggered_at on every row (whose update wrote each row again, with new entries in
// its indexes). Retention removes events a day after they were stored, never one above the mark.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE event_retention ADD COLUMN triggered_through bigint NOT NULL DEFAULT 0;
    UPDATE event_retention SET triggered_through = greatest(removed_through, coalesce(
      (SELECT min(id) - 1 FROM events WHERE triggered_at IS NULL),
      (SELECT max(id) FROM events),
      0));
    DROP INDEX events_untriggered_idx;
    DROP INDEX events_triggered_idx;
    ALTER TABLE events DROP COLUMN triggered_at;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE events ADD COLUMN triggered_at timestamptz;
    UPDATE events SET triggered_at = created_at WHERE id <= (SELECT triggered_through FROM event_retention);
    CREATE INDEX events_untriggered_idx ON events (id) WHERE triggered_at IS NULL;
    CREATE INDEX events_triggered_idx ON events (triggered_at) WHERE triggered_at IS NOT NULL;
    ALTER TABLE event_retention DROP COLUMN triggered_through;
  `);
}
