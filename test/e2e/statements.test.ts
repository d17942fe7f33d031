import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { LoggedStatement } from '@wms/kit/statement-log';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { PLACEMENTS } from '../citus/placements.ts';
import { checkStatement, type Finding, loadParser, normaliseStatement } from '../citus/statements.ts';
import { sql } from './support/db.ts';

// Citus is not packaged for this machine: this test stands in for it on the statements (issue 42). Every process of the
// e2e project's cluster records each distinct statement it sends (WMS_STATEMENT_LOG, kit statement-log.ts). The
// project's files run in a fixed order, this one after the others but the fuzz test, whose random requests vary
// (test/sequencer.ts); it checks what they made the services send: a statement on a distributed table must name its
// workspace (test/citus/statements.ts). A cluster that runs elsewhere (E2E_GATEWAY_URL) records nothing here: skipped.

const dir = inject('statementLogDir');

/** A statement as this test's messages name it. */
const keyOf = ({ schema, sql: text }: LoggedStatement) => `${schema}: ${normaliseStatement(text)}`;

/** Every statement recorded, once per key. */
function recorded(): Map<string, LoggedStatement> {
  const statements = new Map<string, LoggedStatement>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.jsonl')))
    for (const line of readFileSync(path.join(dir, file), 'utf8').split('\n').filter(Boolean)) {
      const statement = JSON.parse(line) as LoggedStatement;
      statements.set(keyOf(statement), statement);
    }
  return statements;
}

/** The columns of every table of the schemas distributed by workspace, to place a column a statement leaves bare. */
async function columns(): Promise<Map<string, Set<string>>> {
  const schemas = PLACEMENTS.filter((p) => p.distribution === 'by-workspace').map((p) => p.schema);
  const rows = await sql<{ table_schema: string; table_name: string; column_name: string }>(
    'SELECT table_schema, table_name, column_name FROM information_schema.columns WHERE table_schema = ANY ($1)',
    [schemas],
  );
  const byTable = new Map<string, Set<string>>();
  for (const row of rows) {
    const table = `${row.table_schema}.${row.table_name}`;
    byTable.set(table, (byTable.get(table) ?? new Set()).add(row.column_name));
  }
  return byTable;
}

const described = (key: string, findings: Finding[]) =>
  `${key}\n${findings.map((f) => `    ${f.table}: ${f.reason}`).join('\n')}`;

describe.skipIf(!dir)('the statements the end-to-end suite sent', () => {
  let statements: Map<string, LoggedStatement>;
  /** Key → what is wrong with it, for each statement the rule flags. */
  const flagged = new Map<string, Finding[]>();

  beforeAll(async () => {
    await loadParser();
    statements = recorded();
    const rules = { placements: PLACEMENTS, columns: await columns() };
    for (const [key, { schema, sql: text }] of statements) {
      const findings = checkStatement(rules, schema, text);
      if (findings.length > 0) flagged.set(key, findings);
    }
  });

  it('were recorded', () => {
    expect(statements.size, `no statement in ${dir}: did WMS_STATEMENT_LOG reach the services?`).toBeGreaterThan(0);
  });

  it('name the workspace of every distributed table they read or write', () => {
    const found = [...flagged].map(([key, findings]) => described(key, findings));
    expect(
      found,
      `Statements that Citus would send to every shard (add a workspace_id = value predicate; a statement meant to span workspaces says so with /* citus: multi-shard (why) */):\n\n${found.join('\n\n')}\n`,
    ).toEqual([]);
  });
});
