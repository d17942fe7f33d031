import type { Knex } from '@wms/kit/db';
import { briefLockStep, fillFromParent, type ParentFill, setNotNull } from '@wms/kit/schema-changes';

// Citus distributes messaging by workspace (issue 42): every table needs `workspace_id`. The five that lack it get it
// nullable (no row rewritten), filled in from their parent a committed batch at a time while writes go on, then made
// NOT NULL through a validated check (kit schema-changes.ts). Each step can run again after a run that stopped halfway.
//
// The previous release does not name the column when it inserts these rows, nor do some of this release's statements
// yet: a BEFORE INSERT trigger per table fills it from the parent, from the moment the column exists. A release whose
// statements all set it, and whose previous release's do too, drops the triggers (placement.ts, untilNextRelease).
export const config = { transaction: false };

/** A table, its parent, and how a new row (`NEW`) finds the parent's workspace. */
interface Child extends ParentFill {
  /** The trigger's lookup of a new row's workspace, into `NEW.workspace_id`. */
  lookup: string;
}

const fromMessage = `SELECT workspace_id INTO NEW.workspace_id FROM messages WHERE id = NEW.message_id`;

const CHILDREN: Child[] = [
  {
    table: 'mentions',
    key: ['actor_id', 'message_id'],
    column: 'workspace_id',
    parent: 'messages',
    on: 'p.id = t.message_id',
    lookup: fromMessage,
  },
  {
    table: 'reactions',
    key: ['message_id', 'emoji', 'actor_id'],
    column: 'workspace_id',
    parent: 'messages',
    on: 'p.id = t.message_id',
    lookup: fromMessage,
  },
  {
    table: 'message_versions',
    key: ['id'],
    column: 'workspace_id',
    parent: 'messages',
    on: 'p.id = t.message_id',
    lookup: fromMessage,
  },
  {
    table: 'conversation_reads',
    key: ['actor_id', 'conversation_id'],
    column: 'workspace_id',
    parent: 'channels',
    on: 'p.id = t.conversation_id',
    lookup: `SELECT workspace_id INTO NEW.workspace_id FROM channels WHERE id = NEW.conversation_id`,
  },
  {
    table: 'client_messages',
    key: ['conversation_id', 'actor_id', 'client_message_id'],
    column: 'workspace_id',
    parent: 'messages',
    on: 'p.id = t.message_id',
    // A post claims its client_message_id before it inserts the message (its key to it is deferred), so the claim
    // takes the workspace of the conversation it names. A conversation that does not exist fails the post, which
    // rolls the claim back: a workspace that none has (the nil id) carries the claim that far, as before, instead of
    // an error.
    lookup: `SELECT workspace_id INTO NEW.workspace_id FROM channels WHERE id = NEW.conversation_id;
             NEW.workspace_id := coalesce(NEW.workspace_id, '00000000-0000-0000-0000-000000000000')`,
  },
];

/** The name of the trigger (and of its function) that fills a table's workspace_id. */
const fillTrigger = (table: string) => `${table}_workspace_id_fill`;

/** The column, nullable, and the trigger that fills it for every row inserted from then on, in one brief step. */
async function addColumn(knex: Knex, child: Child): Promise<void> {
  const name = fillTrigger(child.table);
  const { rows } = await knex.raw<{ rows: unknown[] }>(
    `SELECT 1 FROM pg_trigger WHERE tgrelid = to_regclass(?) AND tgname = ? AND NOT tgisinternal`,
    [child.table, name],
  );
  if (rows.length > 0) return;
  await briefLockStep(
    knex,
    [[child.table, 'ACCESS EXCLUSIVE']],
    [
      `ALTER TABLE "${child.table}" ADD COLUMN IF NOT EXISTS workspace_id uuid`,
      // The schema the migration runs in, whatever a writer's search_path.
      `CREATE OR REPLACE FUNCTION "${name}"() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
     BEGIN
       IF NEW.workspace_id IS NULL THEN
         ${child.lookup};
       END IF;
       RETURN NEW;
     END $$`,
      `CREATE TRIGGER "${name}" BEFORE INSERT ON "${child.table}" FOR EACH ROW EXECUTE FUNCTION "${name}"()`,
    ],
  );
}

export async function up(knex: Knex): Promise<void> {
  for (const child of CHILDREN) await addColumn(knex, child);
  for (const child of CHILDREN) await fillFromParent(knex, child);
  for (const child of CHILDREN) await setNotNull(knex, child.table, 'workspace_id');
}
