import { randomBytes } from 'node:crypto';
import { createTestDatabase, testAdminUrl } from '@wms/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb, requireExtension } from '../src/db.ts';
import { createLogger } from '../src/logger.ts';

const db = createDb({
  url: testAdminUrl,
  schema: 'kit_db_test',
  log: createLogger('db-test', 'silent'),
  statementTimeoutMs: 1234,
});
afterAll(() => db.destroy());

describe('createDb', () => {
  it("sets every connection's schema, statement timeout and name, and turns JIT compilation off", async () => {
    const show = async (setting: string) =>
      (await db.raw<{ rows: Array<Record<string, string>> }>(`SHOW ${setting}`)).rows[0]![setting];
    expect(await show('search_path')).toBe('kit_db_test');
    expect(await show('statement_timeout')).toBe('1234ms');
    expect(await show('application_name')).toBe('wms-kit_db_test');
    expect(await show('jit')).toBe('off');
  });
});

describe('requireExtension', () => {
  it('creates an extension once however many services ask at once, and tells a role that may not create it what to run', async () => {
    const database = await createTestDatabase('kit_ext_test', []);
    const log = createLogger('db-test', 'silent');
    const role = `wms_noext_${randomBytes(4).toString('hex')}`;
    await db.raw(`CREATE ROLE ${role} LOGIN`);
    const url = new URL(database.url);
    url.username = role;
    const unprivileged = createDb({ url: url.toString(), schema: 'kit_ext_test', log });
    const services = [1, 2, 3].map(() => createDb({ url: database.url, schema: 'kit_ext_test', log }));
    const installed = async () =>
      (
        await services[0]!.raw<{ rows: Array<{ n: number }> }>(
          "SELECT count(*)::int AS n FROM pg_extension WHERE extname = 'pg_trgm'",
        )
      ).rows[0]!.n;
    try {
      await expect(requireExtension(unprivileged, 'pg_trgm')).rejects.toThrow(
        'run "CREATE EXTENSION pg_trgm WITH SCHEMA public" as the database\'s owner',
      );
      expect(await installed()).toBe(0);
      await Promise.all(services.map((s) => requireExtension(s, 'pg_trgm')));
      expect(await installed()).toBe(1);
      // Once it is there, a role that could not create it goes on.
      await requireExtension(unprivileged, 'pg_trgm');
    } finally {
      await Promise.all([unprivileged, ...services].map((d) => d.destroy()));
      await database.drop();
      await db.raw(`DROP ROLE ${role}`);
    }
  });
});
