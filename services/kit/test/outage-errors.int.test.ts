import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from '../src/db.ts';
import { isDependencyOutage, isUnstorableText } from '../src/errors.ts';
import { createLogger } from '../src/logger.ts';
import { createRedis, redisAt } from '../src/redis.ts';
import { freePort, testAdminUrl } from '@wms/testkit';

// The errors real clients raise when a dependency is gone, classified as outages (503), and Postgres refusing text
// classified as the caller's mistake (400); anything else stays a bug (500).
const log = createLogger('outage-test', 'silent');
const db = createDb({ url: testAdminUrl, schema: 'public', log });
afterAll(() => db.destroy());

const failureOf = async (work: () => Promise<unknown>) =>
  work().then(
    () => undefined,
    (err: unknown) => err,
  );

describe('isDependencyOutage', () => {
  it('recognises a Postgres that does not listen', async () => {
    const closed = createDb({
      url: `postgres://postgres@127.0.0.1:${await freePort()}/postgres`,
      schema: 'public',
      log,
    });
    try {
      expect(isDependencyOutage(await failureOf(() => closed.raw('select 1')))).toBe(true);
    } finally {
      await closed.destroy();
    }
  });

  it('recognises a connection Postgres ended and a statement cut by its timeout', async () => {
    const ended = await failureOf(() => db.raw('select pg_terminate_backend(pg_backend_pid())'));
    expect(isDependencyOutage(ended)).toBe(true);
    const slow = createDb({ url: testAdminUrl, schema: 'public', log, statementTimeoutMs: 50 });
    try {
      expect(isDependencyOutage(await failureOf(() => slow.raw('select pg_sleep(1)')))).toBe(true);
    } finally {
      await slow.destroy();
    }
  });

  it('recognises a Redis that does not listen', async () => {
    const redis = createRedis(redisAt(`redis://127.0.0.1:${await freePort()}`), 'outage-test', log);
    try {
      expect(isDependencyOutage(await failureOf(() => redis.get('x')))).toBe(true);
    } finally {
      redis.disconnect();
    }
  });

  it('leaves bugs and refused text alone', async () => {
    const syntax = await failureOf(() => db.raw('selec 1'));
    expect(isDependencyOutage(syntax)).toBe(false);
    expect(isUnstorableText(syntax)).toBe(false);
    const nul = await failureOf(() => db.raw('select ?::text', ['a\u0000b']));
    expect(isUnstorableText(nul)).toBe(true);
    expect(isDependencyOutage(nul)).toBe(false);
    expect(isDependencyOutage(new TypeError('x is undefined'))).toBe(false);
  });
});
