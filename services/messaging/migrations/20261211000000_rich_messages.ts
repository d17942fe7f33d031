import type { Knex } from '@wms/kit/db';
import { readBody } from '../src/domain/markdown.ts';

// Rich messages (contract §13): each message's `children`, parsed from its body when it is written, and the versions
// an edit replaces. Adding a nullable column without a default changes no row. Messages already stored are parsed
// here, a batch at a time, each batch committed on its own: a batch's rows are locked only while it is written, and
// posting goes on throughout. Their `<@actor_id>` spellings stay text (they were written before mentions were read
// from the text). A row the previous release writes or edits later has no `children`: the store reads it from its
// body then.
export const config = { transaction: false };

/** Rows parsed and written per statement. */
const BATCH = 500;

export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE messages ADD COLUMN IF NOT EXISTS children jsonb');
  await knex.raw(`
    CREATE TABLE IF NOT EXISTS message_versions (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      message_id uuid NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
      body_text text NOT NULL,
      children jsonb,
      mentioned_actor_ids uuid[] NOT NULL,
      written_at timestamptz NOT NULL
    )`);
  await knex.raw('CREATE INDEX IF NOT EXISTS message_versions_message_idx ON message_versions (message_id, id)');
  // While the previous release still writes (a rolling upgrade), a message it edits keeps no stale children (none:
  // parsed when read), and one it deletes loses its versions. To drop once no release without children runs.
  await knex.raw(`
    CREATE OR REPLACE FUNCTION messages_written_before_children() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.body_text IS DISTINCT FROM OLD.body_text AND NEW.children IS NOT DISTINCT FROM OLD.children THEN
        NEW.children := NULL;
      END IF;
      IF NEW.deleted_at IS NOT NULL AND OLD.deleted_at IS NULL THEN
        DELETE FROM message_versions WHERE message_id = NEW.id;
      END IF;
      RETURN NEW;
    END $$;
    DROP TRIGGER IF EXISTS messages_written_before_children ON messages;
    CREATE TRIGGER messages_written_before_children BEFORE UPDATE OF body_text, deleted_at ON messages
      FOR EACH ROW EXECUTE FUNCTION messages_written_before_children();`);
  await backfill(knex);
}

/** Parses every message without `children`, in id order, a committed batch at a time. */
async function backfill(knex: Knex): Promise<void> {
  for (let after = '00000000-0000-0000-0000-000000000000'; ;) {
    const { rows } = await knex.raw<{ rows: Array<{ id: string; body_text: string; body_md5: string }> }>(
      `SELECT id, body_text, md5(body_text) AS body_md5 FROM messages
       WHERE id > :after AND children IS NULL ORDER BY id LIMIT :limit`,
      { after, limit: BATCH },
    );
    if (rows.length === 0) return;
    const parsed = rows.map((r) => ({ id: r.id, body_md5: r.body_md5, children: readBody(r.body_text) }));
    // A row edited since it was read keeps its new text and no children (read from its body).
    await knex.raw(
      `UPDATE messages m SET children = v.children
       FROM jsonb_to_recordset(:rows::jsonb) AS v(id uuid, body_md5 text, children jsonb)
       WHERE m.id = v.id AND m.children IS NULL AND md5(m.body_text) = v.body_md5`,
      { rows: JSON.stringify(parsed) },
    );
    after = rows.at(-1)!.id;
  }
}
