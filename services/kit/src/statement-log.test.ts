import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDb, type Knex, prepared } from './db.ts';
import { createLogger } from './logger.ts';
import { type LoggedStatement, statementLogFile } from './statement-log.ts';

const log = createLogger('statement-log-test', 'silent');

/** A stand-in for a pg connection: keeps what the driver would send, answers every statement with no rows. */
function fakeConnection() {
  const sent: Array<{ text: string; name?: string }> = [];
  return {
    sent,
    query(config: { text: string; name?: string }, done: (err: null, res: unknown) => void) {
      sent.push({ text: config.text, name: config.name });
      done(null, { command: 'SELECT', rows: [] });
    },
  };
}

const dirs: string[] = [];
const dbs: Knex[] = [];
afterEach(async () => {
  await Promise.all(dbs.splice(0).map((db) => db.destroy()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function recordingDb(statementLog: string | undefined) {
  const db = createDb({ url: 'postgres://127.0.0.1:1/none', schema: 'messaging', log, statementLog });
  dbs.push(db);
  return db;
}

describe('recordStatements', () => {
  it('records each distinct text once, as the driver sends it, prepared statements included', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'wms-statement-log-'));
    dirs.push(dir);
    const db = recordingDb(dir);
    const conn = fakeConnection();
    const page = () => db('messages').select('id').where({ workspace_id: 'w', id: 'm' }).connection(conn);
    await page();
    await page();
    await prepared(db.raw('SELECT id FROM messages WHERE conversation_id = ? LIMIT 50', ['c'])).connection(conn);
    await db.raw(`SELECT payload \\? 'a' FROM outbox WHERE id = ANY(?)`, [[1]]).connection(conn);

    expect(conn.sent[2]?.name).toMatch(/^wms_[0-9a-f]{32}$/);
    const lines = readFileSync(statementLogFile(dir, 'messaging'), 'utf8').trim().split('\n');
    const logged = lines.map((line) => JSON.parse(line) as LoggedStatement);
    expect(logged.map((s) => s.schema)).toEqual(['messaging', 'messaging', 'messaging']);
    // The texts Postgres received, each once: `?` numbered, an escaped `\?` (jsonb's operator) left as `?`.
    expect(logged.map((s) => s.sql)).toEqual([...new Set(conn.sent.map((s) => s.text))]);
    expect(logged.map((s) => s.sql)).toEqual([
      'select "id" from "messages" where "workspace_id" = $1 and "id" = $2',
      'SELECT id FROM messages WHERE conversation_id = $1 LIMIT 50',
      `SELECT payload ? 'a' FROM outbox WHERE id = ANY($1)`,
    ]);
    expect(readdirSync(dir)).toEqual([`messaging-${process.pid}.jsonl`]);
  });

  it('listens to nothing when no directory is given', () => {
    expect(recordingDb(undefined).listenerCount('query')).toBe(0);
  });
});
