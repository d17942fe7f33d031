import nodemailer from 'nodemailer';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { withDatabase } from '@wms/kit/testing';
import { type Cluster, startCluster } from '../launcher/cluster.ts';
import type { ComponentSpec } from '../launcher/components.ts';
import { acceptsTcp } from '../launcher/infra.ts';
import { type CaughtMail, startSmtpCatcher } from '../launcher/smtp-catcher.ts';

// The launcher is tested with stand-in components, so it does not depend on any service's business logic.
const fakeCluster: ComponentSpec[] = [
  { name: 'fake', entry: 'test/launcher/fixtures/fake-service.ts', kind: 'grpc', migrate: true },
  { name: 'gateway', entry: 'test/launcher/fixtures/fake-gateway.ts', kind: 'http', public: true, readyPath: '/readyz' },
];

async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return (await res.json()) as T;
}

async function testDatabases(adminUrl: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE 'wms\\_t\\_%'`);
    return rows.map((r) => r.datname);
  } finally {
    await client.end();
  }
}

describe('smtp catcher', () => {
  it('catches a mail, extracts links and codes, filters by recipient and clears', async () => {
    const catcher = await startSmtpCatcher({ smtpPort: 0, httpPort: 0 });
    try {
      const transport = nodemailer.createTransport(catcher.smtpUrl);
      await transport.sendMail({
        from: 'wms <no-reply@wms.local>',
        to: 'Someone@Example.test',
        subject: 'Your code 123456',
        text: 'Confirm: http://localhost/x?token=abc.\nOr type 123456. Reference 1234567 is not a code.',
        html: '<p>Confirm: <a href="http://localhost/x?token=abc">here</a></p>',
      });
      await transport.sendMail({ from: 'no-reply@wms.local', to: 'other@example.test', subject: 'Other', text: 'nothing here' });
      transport.close();

      const mine = await getJson<CaughtMail[]>(`${catcher.inboxUrl}/messages?to=SOMEONE@example.test`);
      expect(mine).toHaveLength(1);
      const mail = mine[0]!;
      expect(mail).toMatchObject({
        to: ['someone@example.test'],
        from: 'no-reply@wms.local',
        subject: 'Your code 123456',
        links: ['http://localhost/x?token=abc'],
        codes: ['123456'],
      });
      expect(mail.html).toContain('<a href=');
      expect(Date.parse(mail.date)).toBeGreaterThan(Date.now() - 60_000);
      expect(await getJson<CaughtMail>(`${catcher.inboxUrl}/messages/${mail.id}`)).toEqual(mail);

      const all = await getJson<CaughtMail[]>(`${catcher.inboxUrl}/messages`);
      expect(all.map((m) => m.subject)).toEqual(['Other', 'Your code 123456']);
      const page = await fetch(`${catcher.inboxUrl}/`);
      expect(await page.text()).toContain('href="http://localhost/x?token=abc"');

      expect((await fetch(`${catcher.inboxUrl}/messages`, { method: 'DELETE' })).status).toBe(204);
      expect(await getJson<CaughtMail[]>(`${catcher.inboxUrl}/messages`)).toEqual([]);
      expect((await fetch(`${catcher.inboxUrl}/messages/${mail.id}`)).status).toBe(404);
    } finally {
      await catcher.stop();
    }
  });
});

describe('startCluster', () => {
  let cluster: Cluster | undefined;
  afterAll(() => cluster?.stop());

  it('migrates, starts and wires every component, then removes its test data on stop', async () => {
    cluster = await startCluster({ mode: 'test', logs: 'files', components: fakeCluster });
    const { gatewayUrl, databaseUrl, redisUrl, redisPrefix } = cluster;
    const adminUrl = withDatabase(databaseUrl, 'postgres');

    const env = await getJson<Record<string, string>>(`${gatewayUrl}/env`);
    expect(env).toMatchObject({
      ROLE: 'server',
      PORT: new URL(gatewayUrl).port,
      PUBLIC_URL: cluster.publicUrl,
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      REDIS_PREFIX: redisPrefix,
      SMTP_URL: cluster.smtpUrl,
      MAIL_FROM: 'wms <no-reply@wms.local>',
      JWT_PRIVATE_KEY: cluster.jwt.privateKey,
      JWT_PUBLIC_KEY: cluster.jwt.publicKey,
      TRUST_PROXY: 'loopback',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      FAKE_GRPC_URL: expect.stringMatching(/^127\.0\.0\.1:\d+$/),
    });
    expect(env).not.toHaveProperty('GRPC_PORT');
    expect(cluster.jwt.privateKey).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(cluster.databaseName).toMatch(/^wms_t_[0-9a-f]+$/);
    expect(redisPrefix).toMatch(/^wms-t-[0-9a-f]+$/);

    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    expect((await db.query('SELECT what FROM fake.marks')).rows).toEqual([{ what: 'migrated' }]);
    await db.end();
    const redis = new Redis(redisUrl);
    expect(await redis.get(`${redisPrefix}:fake:up`)).toBe('1');

    const grpcPort = Number(env.FAKE_GRPC_URL!.split(':')[1]);
    await cluster.stop();
    await cluster.stop();
    expect(await testDatabases(adminUrl)).not.toContain(cluster.databaseName);
    expect(await redis.keys(`${redisPrefix}:*`)).toEqual([]);
    redis.disconnect();
    expect(await acceptsTcp(Number(new URL(gatewayUrl).port))).toBe(false);
    expect(await acceptsTcp(grpcPort)).toBe(false);
  });

  it.each([
    ['migration', 'migrate', /fake migration failed \(exit 3\)[\s\S]*fake migration: boom/],
    ['server', 'server', /fake exited \(2\) before it was ready[\s\S]*fake server: boom/],
  ])('reports a failing %s with its output and leaves nothing behind', async (_, failing, message) => {
    const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
    const before = await testDatabases(adminUrl);
    await expect(startCluster({ mode: 'test', logs: 'files', components: fakeCluster, env: { FAKE_FAIL: failing } })).rejects.toThrow(message);
    expect((await testDatabases(adminUrl)).filter((name) => !before.includes(name))).toEqual([]);
  });
});
