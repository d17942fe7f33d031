import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import knexFactory from 'knex';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { ProcessMetrics, QUEUE_COUNT_TIMEOUT_MS, STATEMENT_KINDS, statementKind } from './metrics.ts';

/** Times the main thread of process `pid` gave up the CPU to wait (each wake-up of an idle event loop is one). */
const waits = (pid: number) =>
  Number(/^voluntary_ctxt_switches:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);

describe(ProcessMetrics.name, () => {
  it("leaves an idle process's event loop asleep: the lag is sampled ten times a second, not a hundred", async () => {
    // A process of its own doing nothing but keep the metrics (a test worker's loop is busy with vitest itself).
    const metrics = fileURLToPath(new URL('./metrics.ts', import.meta.url));
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `const { ProcessMetrics } = await import(${JSON.stringify(metrics)}); new ProcessMetrics(); console.log('up'); setInterval(() => {}, 1 << 30);`,
      ],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    onTestFinished(() => void child.kill('SIGKILL'));
    await new Promise((resolve) => child.stdout.once('data', resolve));
    // Past the start's own work (module loading, the first collections).
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const before = waits(child.pid!);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    // prom-client's default 10 ms sampling wakes it about 200 times in these 2 s; 100 ms sampling about 20.
    expect(waits(child.pid!) - before).toBeLessThan(60);
  });

  it('tells transaction control and the health probe from other statements, as knex writes them', () => {
    // Each string is what knex 3 sends for a transaction (seen on its `query` event against a real Postgres).
    expect(statementKind('BEGIN;')).toBe('begin');
    expect(statementKind('BEGIN TRANSACTION ISOLATION LEVEL serializable;')).toBe('begin');
    expect(statementKind('COMMIT;')).toBe('commit');
    expect(statementKind('ROLLBACK')).toBe('rollback');
    expect(statementKind('ROLLBACK TO SAVEPOINT trx5')).toBe('rollback');
    expect(statementKind('SAVEPOINT trx5;')).toBe('savepoint');
    expect(statementKind('RELEASE SAVEPOINT trx5;')).toBe('savepoint');
    expect(statementKind('select 1')).toBe('health');
    expect(statementKind('select 1 as one')).toBe('query');
    expect(statementKind('insert into "messages" ("id") values ($1) returning "id"')).toBe('query');
    expect(statementKind('with claimed as (update ...) select ...')).toBe('query');
    expect(statementKind('')).toBe('query');
  });

  it("counts each statement the pool's knex reports by kind, every kind shown from zero", async () => {
    // No connection is made: the counter listens to knex's `query` event, emitted here as knex emits it.
    const knex = knexFactory({ client: 'pg', connection: 'postgres://nobody@127.0.0.1:1/none' });
    const metrics = new ProcessMetrics();
    metrics.watchPool(knex);
    const counts = async () => {
      const family = (await metrics.registry.getMetricsAsJSON()).find((m) => m.name === 'wms_db_statements_total')!;
      return Object.fromEntries(family.values.map((v) => [v.labels.kind, v.value]));
    };
    expect(await counts()).toEqual(Object.fromEntries(STATEMENT_KINDS.map((kind) => [kind, 0])));

    for (const sql of [
      'BEGIN;',
      'select "id" from "messages" where "id" = $1',
      'insert into "messages" ("id") values ($1)',
      'COMMIT;',
      'select 1',
    ]) {
      knex.emit('query', { sql, bindings: [] });
    }
    expect(await counts()).toEqual({ begin: 1, commit: 1, rollback: 0, savepoint: 0, health: 1, query: 2 });
    await knex.destroy();
  });

  it('waits QUEUE_COUNT_TIMEOUT_MS for counts that never come, then reports the queues that answered', async () => {
    // The scrape's clock is the test's: the wait is measured in the timers it sets, not in how busy the machine is.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    onTestFinished(() => void vi.useRealTimers());
    const metrics = new ProcessMetrics();
    metrics.watchQueue('hung', () => new Promise(() => {}));
    metrics.watchQueue('fine', async () => ({ waiting: 3 }));
    let depth: Array<{ labels: object; value: number }> | undefined;
    void metrics.registry
      .getSingleMetric('wms_queue_jobs')!
      .get()
      .then((m) => (depth = m.values));
    await vi.advanceTimersByTimeAsync(QUEUE_COUNT_TIMEOUT_MS - 1);
    expect(depth).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(depth).toEqual([
      { labels: { queue: 'fine', state: 'waiting' }, value: 3 },
      { labels: { queue: 'fine', state: 'active' }, value: 0 },
      { labels: { queue: 'fine', state: 'delayed' }, value: 0 },
      { labels: { queue: 'fine', state: 'failed' }, value: 0 },
    ]);
  });
});
