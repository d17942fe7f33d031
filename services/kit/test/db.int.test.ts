import { testAdminUrl } from '@wms/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from '../src/db.ts';
import { createLogger } from '../src/logger.ts';

const db = createDb({ url: testAdminUrl, schema: 'kit_db_test', log: createLogger('db-test', 'silent'), statementTimeoutMs: 1234 });
afterAll(() => db.destroy());

describe('createDb', () => {
  it("sets every connection's schema, statement timeout and name, and turns JIT compilation off", async () => {
    const show = async (setting: string) => ((await db.raw(`SHOW ${setting}`)) as { rows: Array<Record<string, string>> }).rows[0]![setting];
    expect(await show('search_path')).toBe('kit_db_test');
    expect(await show('statement_timeout')).toBe('1234ms');
    expect(await show('application_name')).toBe('wms-kit_db_test');
    expect(await show('jit')).toBe('off');
  });
});
