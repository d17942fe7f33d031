import { appendFileSync } from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';

/** One line of a statement log: a distinct statement text as Postgres received it, and the pool's schema. */
export interface LoggedStatement {
  schema: string;
  sql: string;
}

/** The file a process appends its statements to (one per process, so that processes never share a file). */
export const statementLogFile = (dir: string, schema: string, pid = process.pid): string =>
  path.join(dir, `${schema}-${pid}.jsonl`);

/**
 * Test-only (`WMS_STATEMENT_LOG`): appends each distinct statement text the pool sends, the first time it is sent, to
 * `statementLogFile` as a JSON line (`LoggedStatement`); the end-to-end suite's statement test reads them. knex emits
 * `query` for every statement it sends (prepared ones, a transaction's BEGIN and COMMIT too) with the text already
 * numbered as Postgres receives it (`$1`).
 */
export function recordStatements(knex: Knex, schema: string, dir: string): void {
  const file = statementLogFile(dir, schema);
  const seen = new Set<string>();
  knex.on('query', ({ sql }: { sql: string }) => {
    if (seen.has(sql)) return;
    seen.add(sql);
    appendFileSync(file, `${JSON.stringify({ schema, sql } satisfies LoggedStatement)}\n`);
  });
}
