import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import net from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import nodemailer from 'nodemailer';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import {
  freePort,
  launcherLog,
  listenAddresses,
  processesOf,
  startTestPostgres,
  startTestRedis,
  waitFor,
  withDatabase,
} from '@wms/testkit';
import { bannerLines } from '../src/banner.ts';
import { type Cluster, type DevCluster, generateJwtKeys, nextRestartDelay, startCluster } from '../src/cluster.ts';
import { type ComponentSpec, components, soketi } from '../src/components.ts';
import { acceptsTcp, listenersOf, redisAnswers } from '../src/infra.ts';
import { isPortFree } from '../src/ports.ts';
import { soketiConfigFile, soketiEnv, soketiServer } from '../src/soketi.ts';
import { resolveSettings, type SettingsInput } from '../src/settings.ts';
import { type CaughtMail, startSmtpCatcher } from '../src/smtp-catcher.ts';
import { prettyLine } from '../src/pretty.ts';

// The launcher is tested with stand-in components, so it does not depend on any service's business logic.
const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const fakeCluster: ComponentSpec[] = [
  { name: 'fake', entry: path.join(fixtures, 'fake-service.ts'), kind: 'grpc', migrate: true },
  { name: 'fake-worker', entry: path.join(fixtures, 'fake-service.ts'), kind: 'worker' },
  {
    name: 'fake-command',
    command: process.execPath,
    args: [path.join(fixtures, 'fake-command.mjs')],
    kind: 'http',
    readyPath: '/ready',
  },
  { name: 'gateway', entry: path.join(fixtures, 'fake-gateway.ts'), kind: 'http', public: true, readyPath: '/readyz' },
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
    const { rows } = await client.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE 'wms\\_t\\_%'`,
    );
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
      await transport.sendMail({
        from: 'no-reply@wms.local',
        to: 'other@example.test',
        subject: 'Other',
        text: 'nothing here',
      });
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
    // Settings in the developer's shell do not reach a test cluster.
    process.env.AUTH_RATE_LIMIT_PER_IP = '1';
    process.env.GRPC_DEADLINE_MS = '1';
    process.env.GRPC_HOST = '0.0.0.0';
    try {
      cluster = await startCluster({ mode: 'test', logs: 'files', components: fakeCluster });
    } finally {
      delete process.env.AUTH_RATE_LIMIT_PER_IP;
      delete process.env.GRPC_DEADLINE_MS;
      delete process.env.GRPC_HOST;
    }
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
    expect(env).not.toHaveProperty('GRPC_HOST');
    expect(env).not.toHaveProperty('AUTH_RATE_LIMIT_PER_IP');
    expect(env).not.toHaveProperty('GRPC_DEADLINE_MS');
    expect(cluster.jwt.privateKey).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(cluster.databaseName).toMatch(/^wms_t_[0-9a-f]+$/);
    expect(redisPrefix).toMatch(/^wms-t-[0-9a-f]+$/);

    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    expect((await db.query('SELECT what FROM fake.marks')).rows).toEqual([{ what: 'migrated' }]);
    await db.end();
    const redis = new Redis(redisUrl);
    expect(await redis.get(`${redisPrefix}:fake:up`)).toBe('1');

    // A worker gets a port of its own (for its coming gRPC health service), taken by no other component.
    const grpcPort = Number(env.FAKE_GRPC_URL!.split(':')[1]);
    const workerPort = await waitFor(
      'the fake worker to report its GRPC_PORT',
      async () => (await redis.get(`${redisPrefix}:fake:worker-grpc-port`)) ?? undefined,
    );
    expect(workerPort).toMatch(/^\d+$/);
    expect([grpcPort, Number(env.PORT)]).not.toContain(Number(workerPort));
    expect(cluster.pidOf('fake-worker')).toEqual(expect.any(Number));

    // Internal gRPC (services and workers' health) listens on loopback only, whatever the shell's GRPC_HOST said.
    expect(await redis.get(`${redisPrefix}:fake:worker-grpc-host`)).toBe('127.0.0.1');
    for (const port of [grpcPort, Number(workerPort)]) {
      expect(listenAddresses(port)).toEqual(['127.0.0.1']);
      // Another address of this host, which every machine has (all of 127/8 is local on Linux): a listener on any
      // address would accept there.
      expect(await acceptsTcp(port, '127.0.0.2')).toBe(false);
    }

    // A row may run any command, with the same wiring, readiness and logs as an entry's.
    const command = cluster.pidOf('fake-command')!;
    expect(readFileSync(`/proc/${command}/cmdline`, 'utf8').split('\0')).toEqual([
      process.execPath,
      path.join(fixtures, 'fake-command.mjs'),
      '',
    ]);
    expect(readFileSync(`/proc/${command}/environ`, 'utf8').split('\0')).toContain(
      `FAKE_GRPC_URL=${env.FAKE_GRPC_URL}`,
    );
    expect(await readFile(path.join(cluster.logDir!, 'fake-command.log'), 'utf8')).toMatch(
      /^fake command listening on \d+$/m,
    );

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
    await expect(
      startCluster({ mode: 'test', logs: 'files', components: fakeCluster, env: { FAKE_FAIL: failing } }),
    ).rejects.toThrow(message);
    expect((await testDatabases(adminUrl)).filter((name) => !before.includes(name))).toEqual([]);
  });

  it('reports a command that cannot start', async () => {
    const missing: ComponentSpec = { name: 'missing', command: 'wms-no-such-command', kind: 'http' };
    await expect(startCluster({ mode: 'test', logs: 'files', components: [missing] })).rejects.toThrow(
      /missing exited \(-2\) before it was ready; last output:\ncannot start: spawn wms-no-such-command ENOENT/,
    );
  });
});

/** The UDP sockets a process holds, as `address:port` (IPv4). */
function udpAddressesOf(pid: number): string[] {
  const inodes = new Set(
    readdirSync(`/proc/${pid}/fd`).flatMap((fd) => {
      try {
        return /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1] ?? [];
      } catch {
        return [];
      }
    }),
  );
  return readFileSync('/proc/net/udp', 'utf8')
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => inodes.has(fields[9]!))
    .map(([, local]) => {
      const [hex, port] = local!.split(':') as [string, string];
      return `${[6, 4, 2, 0].map((i) => parseInt(hex.slice(i, i + 2), 16)).join('.')}:${parseInt(port, 16)}`;
    });
}

/** A GET of the Pusher HTTP API, signed as the `pusher` SDK signs it; Soketi answers its errors with HTTP 200 too. */
async function pusherGet(
  port: number,
  app: { appId: string; key: string; secret: string },
  resource: string,
): Promise<unknown> {
  const path = `/apps/${app.appId}/${resource}`;
  const params = new URLSearchParams({
    auth_key: app.key,
    auth_timestamp: String(Math.floor(Date.now() / 1000)),
    auth_version: '1.0',
  });
  params.sort();
  const signature = createHmac('sha256', app.secret)
    .update(`GET\n${path}\n${decodeURIComponent(params.toString())}`)
    .digest('hex');
  const res = await fetch(`http://127.0.0.1:${port}${path}?${params.toString()}&auth_signature=${signature}`);
  expect(res.status).toBe(200);
  return res.json();
}

describe('the realtime provider row (Soketi)', () => {
  it("runs before the services with the cluster's app on loopback, its webhooks pointed at the gateway, logs plainly, and leaves nothing running", async () => {
    const cluster = await startCluster({ mode: 'test', logs: 'files', components: [soketi, ...fakeCluster] });
    const env = await getJson<Record<string, string>>(`${cluster.gatewayUrl}/env`);
    const port = Number(env.PUSHER_PORT);
    const pid = cluster.pidOf('soketi')!;
    const soketiEnv = Object.fromEntries(
      readFileSync(`/proc/${pid}/environ`, 'utf8')
        .split('\0')
        .map((v) => [v.slice(0, v.indexOf('=')), v.slice(v.indexOf('=') + 1)]),
    );
    const metricsPort = Number(soketiEnv.SOKETI_METRICS_SERVER_PORT);
    try {
      expect(env).toMatchObject({
        PUSHER_HOST: '127.0.0.1',
        PUSHER_USE_TLS: 'false',
        PUSHER_APP_ID: expect.stringMatching(/^wms-[0-9a-f]+$/),
      });
      const app = { appId: env.PUSHER_APP_ID!, key: env.PUSHER_KEY!, secret: env.PUSHER_SECRET! };
      // Non-numeric (Soketi would read a numeric secret as a number and crash), fresh for each test cluster.
      for (const value of Object.values(app)) expect(value).toMatch(/^wms-[0-9a-f]+$/);
      expect(soketiEnv).toMatchObject({
        SOKETI_PORT: String(port),
        SOKETI_DEFAULT_APP_ID: app.appId,
        SOKETI_DEFAULT_APP_KEY: app.key,
        SOKETI_DEFAULT_APP_SECRET: app.secret,
      });
      expect(JSON.parse(soketiEnv.SOKETI_DEFAULT_APP_WEBHOOKS!)).toEqual([
        {
          url: `http://127.0.0.1:${new URL(cluster.gatewayUrl).port}/realtime/webhooks/pusher`,
          event_types: ['channel_occupied', 'channel_vacated', 'member_added', 'member_removed'],
        },
      ]);
      // Its config file moves cluster discovery (UDP, always on) to loopback.
      expect(udpAddressesOf(pid)).toEqual(['127.0.0.1:11002']);

      // It answers the cluster's app, and only it.
      expect(await pusherGet(port, app, 'channels')).toEqual({ channels: {} });
      expect(await pusherGet(port, { ...app, secret: 'wms-wrong' }, 'channels')).toMatchObject({ code: 401 });
      expect((await fetch(`http://127.0.0.1:${metricsPort}/ready`)).status).toBe(200);
      for (const p of [port, metricsPort]) expect(listenAddresses(p)).toEqual(['127.0.0.1']);
      expect(await listenersOf(port, pid)).toEqual({ self: true, others: false });

      const launcher = await launcherLog(cluster.logDir);
      expect(launcher.indexOf('ready: soketi')).toBeGreaterThan(-1);
      expect(launcher.indexOf('ready: soketi')).toBeLessThan(launcher.indexOf('ready: fake, fake-worker'));
      expect(cluster.metricsUrls).not.toHaveProperty('soketi');
      const log = await readFile(path.join(cluster.logDir!, 'soketi.log'), 'utf8');
      expect(log).toContain(`Server is up and running`);
      expect(log).not.toContain('\x1b[');
      expect(log).not.toMatch(/AWS SDK|\n\s*\n/);
    } finally {
      await cluster.stop();
    }
    expect(processesOf(cluster.databaseUrl)).toEqual([]);
    for (const p of [port, metricsPort]) expect(await acceptsTcp(p)).toBe(false);
  });

  it('sees a port shared with another process: Soketi takes a taken port with SO_REUSEPORT, and reports success', async () => {
    const [port, firstMetrics, secondMetrics] = await Promise.all([freePort(), freePort(), freePort()]);
    const app = { appId: 'wms-a', key: 'wms-k', secret: 'wms-s' };
    const start = (metricsPort: number) => {
      const child = spawn(process.execPath, [soketiServer, 'start', `--config=${soketiConfigFile}`], {
        env: { ...process.env, ...soketiEnv({ port, metricsPort, app, webhookUrl: 'http://127.0.0.1:9/' }) },
        stdio: 'ignore',
      });
      return { child, exited: new Promise((resolve) => child.once('exit', resolve)) };
    };
    const first = start(firstMetrics);
    try {
      await waitFor('the first Soketi', async () => (await listenersOf(port, first.child.pid!))?.self || undefined);
      const second = start(secondMetrics);
      try {
        await waitFor('the second Soketi', async () => (await listenersOf(port, second.child.pid!))?.self || undefined);
        expect(await listenersOf(port, first.child.pid!)).toEqual({ self: true, others: true });
        expect(await listenersOf(port, second.child.pid!)).toEqual({ self: true, others: true });
        expect(await listenersOf(firstMetrics, first.child.pid!)).toEqual({ self: true, others: false });
        expect(await listenersOf(firstMetrics, second.child.pid!)).toEqual({ self: false, others: true });
      } finally {
        second.child.kill('SIGKILL');
        await second.exited;
      }
    } finally {
      first.child.kill('SIGKILL');
      await first.exited;
    }
  });
});

describe('supervision', () => {
  it('relaunches a component that dies, with a growing backoff and a line saying why; stop() leaves nothing behind', async () => {
    const cluster = await startCluster({ mode: 'test', logs: 'files', components: fakeCluster, restart: true });
    try {
      const first = cluster.pidOf('fake')!;
      process.kill(first, 'SIGKILL');
      const second = await waitFor('fake to be relaunched', () => {
        const pid = cluster.pidOf('fake');
        return pid !== undefined && pid !== first ? pid : undefined;
      });
      expect(await launcherLog(cluster.logDir)).toMatch(
        /fake exited \(signal SIGKILL\); restarting in 250 ms; last output: .*fake service listening on \d+/,
      );
      expect(cluster.pidOf('gateway')).toEqual(expect.any(Number));

      // A command row is supervised as an entry is.
      const command = cluster.pidOf('fake-command')!;
      process.kill(command, 'SIGKILL');
      await waitFor('fake-command to be relaunched', () => {
        const pid = cluster.pidOf('fake-command');
        return pid !== undefined && pid !== command ? pid : undefined;
      });

      // Dying again soon after a restart doubles the wait; stop() during it must not relaunch anything.
      process.kill(second, 'SIGKILL');
      await waitFor('the second exit to be reported', async () =>
        (await launcherLog(cluster.logDir)).includes('fake exited (signal SIGKILL); restarting in 500 ms')
          ? true
          : undefined,
      );
    } finally {
      await cluster.stop();
    }
    expect(processesOf(cluster.databaseUrl)).toEqual([]);
    expect(fakeCluster.map((c) => cluster.pidOf(c.name))).toEqual(fakeCluster.map(() => undefined));
    expect((await launcherLog(cluster.logDir)).trimEnd().split('\n').at(-1)).toBe('stopped');
  });

  it('leaves nothing running when the process that owns a cluster is killed (SIGKILL): the reaper ends every child', async () => {
    const owner = spawn(process.execPath, ['--import', 'tsx', path.join(fixtures, 'cluster-owner.ts')], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    owner.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    owner.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const exited = new Promise((resolve) => owner.once('exit', resolve));
    let databaseUrl: string | undefined;
    try {
      const ready = await waitFor(
        "the owner's cluster",
        () =>
          /^ready (.*)$/m.exec(output)?.[1] ??
          (owner.exitCode !== null ? Promise.reject(new Error(output)) : undefined),
        60_000,
        50,
      );
      const started = JSON.parse(ready) as { databaseUrl: string; gatewayUrl: string };
      databaseUrl = started.databaseUrl;
      const children = processesOf(databaseUrl);
      expect(children.length).toBeGreaterThanOrEqual(fakeCluster.length);
      owner.kill('SIGKILL');
      await exited;
      // The children get SIGTERM and, after the grace, SIGKILL: gone within a few seconds.
      await waitFor(
        'every child of the killed owner to end',
        () => processesOf(started.databaseUrl).length === 0,
        10_000,
        50,
      );
      expect(await isPortFree(Number(new URL(started.gatewayUrl).port))).toBe(true);
    } finally {
      if (owner.exitCode === null) owner.kill('SIGKILL');
      // Should the reaper have failed, the test does not leave its orphans behind.
      for (const pid of databaseUrl ? processesOf(databaseUrl) : []) process.kill(pid, 'SIGKILL');
    }
  });

  it('in test mode reports an exit without restarting', async () => {
    const cluster = await startCluster({ mode: 'test', logs: 'files', components: fakeCluster });
    try {
      const pid = cluster.pidOf('fake-worker')!;
      process.kill(pid, 'SIGKILL');
      await waitFor('the exit to be reported', async () =>
        (await launcherLog(cluster.logDir)).includes('fake-worker exited unexpectedly (signal SIGKILL); not restarted')
          ? true
          : undefined,
      );
      expect(cluster.pidOf('fake-worker')).toBeUndefined();
    } finally {
      await cluster.stop();
    }
  });

  it('backs off from 250 ms doubling to 10 s, and starts over once a process stayed up 30 s', () => {
    const delays: number[] = [];
    let delay: number | undefined;
    for (let i = 0; i < 8; i++) delays.push((delay = nextRestartDelay(delay, 1000)));
    expect(delays).toEqual([250, 500, 1000, 2000, 4000, 8000, 10_000, 10_000]);
    expect(nextRestartDelay(10_000, 29_999)).toBe(10_000);
    expect(nextRestartDelay(10_000, 30_000)).toBe(250);
  });
});

describe(resolveSettings.name, () => {
  const root = '/srv/wms';
  const launcherKeys = generateJwtKeys();
  const operatorKeys = generateJwtKeys();
  const launcherApp = { appId: 'wms-0a1b2c3d', key: 'wms-launcher-key', secret: 'wms-launcher-secret' };

  /** The launcher's defaults, recording which were asked for (each has a cost: a catcher, a file). */
  function launcherDefaults() {
    const asked: string[] = [];
    const defaults: SettingsInput['defaults'] = {
      publicUrl: 'http://localhost:8080',
      storageDir: '/srv/wms/.wms/storage',
      mailCatcher: async () => {
        asked.push('mail catcher');
        return { smtpUrl: 'smtp://127.0.0.1:1025', inboxUrl: 'http://127.0.0.1:8025', dir: '/srv/wms/.wms/mail' };
      },
      storageSecret: async () => {
        asked.push('storage secret');
        return { secret: 'l'.repeat(64), file: '/srv/wms/.wms/storage-secret' };
      },
      jwtKeys: async () => {
        asked.push('jwt keys');
        return { ...launcherKeys, dir: '/srv/wms/.wms/jwt' };
      },
      realtime: {
        port: 6001,
        app: async () => {
          asked.push('realtime app');
          return { ...launcherApp, file: '/srv/wms/.wms/realtime-app.json' };
        },
      },
    };
    return { asked, defaults };
  }

  const operatorEnv = {
    SMTP_URL: 'smtp://mailer:relay-password@relay.example.org:587',
    PUBLIC_URL: 'https://chat.example.org',
    MAIL_FROM: 'Chat <chat@example.org>',
    STORAGE_DRIVER: 's3',
    S3_ENDPOINT: 'http://minio.internal:9000',
    S3_ACCESS_KEY: 'minio-access',
    S3_SECRET_KEY: 'minio-secret-key',
    S3_BUCKET: 'chat',
    TRUST_PROXY: '10.0.0.0/8',
    JWT_PRIVATE_KEY: operatorKeys.privateKey,
    JWT_PUBLIC_KEY: operatorKeys.publicKey,
    PUSHER_APP_ID: '1234567',
    PUSHER_KEY: 'pusher-key',
    PUSHER_SECRET: 'pusher-secret-value',
    PUSHER_CLUSTER: 'eu',
  };

  it('in dev mode lets every variable the environment sets win, asks for no default, and names each source', async () => {
    const { asked, defaults } = launcherDefaults();
    const settings = await resolveSettings({ mode: 'dev', env: operatorEnv, root, defaults });
    expect(asked).toEqual([]);
    // s3 gets no fs directory or key, which would only confuse; the S3_* variables travel with the inherited environment.
    expect(settings.env).toEqual({
      PUBLIC_URL: 'https://chat.example.org',
      SMTP_URL: operatorEnv.SMTP_URL,
      MAIL_FROM: 'Chat <chat@example.org>',
      STORAGE_DRIVER: 's3',
      JWT_PRIVATE_KEY: operatorKeys.privateKey,
      JWT_PUBLIC_KEY: operatorKeys.publicKey,
      TRUST_PROXY: '10.0.0.0/8',
      PUSHER_APP_ID: '1234567',
      PUSHER_KEY: 'pusher-key',
      PUSHER_SECRET: 'pusher-secret-value',
      PUSHER_CLUSTER: 'eu',
    });
    expect(settings).toMatchObject({
      publicUrl: 'https://chat.example.org',
      smtpUrl: operatorEnv.SMTP_URL,
      inboxUrl: undefined,
      mailDir: undefined,
      storageDir: undefined,
      jwt: operatorKeys,
      localRealtime: false,
    });
    expect(settings.sources).toEqual([
      { name: 'public URL', value: 'https://chat.example.org', from: 'PUBLIC_URL' },
      { name: 'mail', value: 'relay smtp://mailer:***@relay.example.org:587; no mail catcher', from: 'SMTP_URL' },
      { name: 'mail from', value: 'Chat <chat@example.org>', from: 'MAIL_FROM' },
      {
        name: 'storage',
        value: 's3 at http://minio.internal:9000, bucket chat',
        from: 'STORAGE_DRIVER, S3_ENDPOINT, S3_ACCESS_KEY, S3_SECRET_KEY, S3_BUCKET',
      },
      { name: 'JWT keys', value: 'from the environment', from: 'JWT_PRIVATE_KEY, JWT_PUBLIC_KEY' },
      { name: 'trust proxy', value: '10.0.0.0/8', from: 'TRUST_PROXY' },
      {
        name: 'realtime',
        value: 'Pusher Channels, cluster eu, app 1234567; no Soketi',
        from: 'PUSHER_APP_ID, PUSHER_KEY, PUSHER_SECRET, PUSHER_CLUSTER',
      },
    ]);
    const banner = bannerLines({
      gatewayUrl: 'http://127.0.0.1:8080',
      settings: settings.sources,
      logDir: undefined,
    }).join('\n');
    expect(banner).toContain(
      'mail         relay smtp://mailer:***@relay.example.org:587; no mail catcher  (from SMTP_URL)',
    );
    expect(banner).toContain('trust proxy  10.0.0.0/8  (from TRUST_PROXY)');
    expect(banner).toContain(
      'realtime     Pusher Channels, cluster eu, app 1234567; no Soketi  (from PUSHER_APP_ID, PUSHER_KEY, PUSHER_SECRET, PUSHER_CLUSTER)',
    );
    for (const secret of ['relay-password', 'minio-secret-key', 'minio-access', 'PRIVATE KEY', 'pusher-secret-value'])
      expect(banner).not.toContain(secret);
  });

  it("in dev mode fills what the environment leaves unset (or empty) with the launcher's defaults", async () => {
    const { asked, defaults } = launcherDefaults();
    const settings = await resolveSettings({
      mode: 'dev',
      env: { SMTP_URL: '', TRUST_PROXY: '', HOME: '/root' },
      root,
      defaults,
    });
    expect(asked).toEqual(['mail catcher', 'storage secret', 'jwt keys', 'realtime app']);
    expect(settings.env).toEqual({
      PUBLIC_URL: 'http://localhost:8080',
      SMTP_URL: 'smtp://127.0.0.1:1025',
      MAIL_FROM: 'wms <no-reply@wms.local>',
      STORAGE_DRIVER: 'fs',
      STORAGE_DIR: '/srv/wms/.wms/storage',
      STORAGE_SECRET: 'l'.repeat(64),
      JWT_PRIVATE_KEY: launcherKeys.privateKey,
      JWT_PUBLIC_KEY: launcherKeys.publicKey,
      PUSHER_APP_ID: launcherApp.appId,
      PUSHER_KEY: launcherApp.key,
      PUSHER_SECRET: launcherApp.secret,
      PUSHER_HOST: '127.0.0.1',
      PUSHER_PORT: '6001',
      PUSHER_USE_TLS: 'false',
    });
    expect(settings).toMatchObject({
      inboxUrl: 'http://127.0.0.1:8025',
      mailDir: '/srv/wms/.wms/mail',
      storageDir: '/srv/wms/.wms/storage',
      localRealtime: true,
    });
    expect(settings.sources).toEqual([
      { name: 'public URL', value: 'http://localhost:8080', from: 'default' },
      {
        name: 'mail',
        value: 'mail catcher, inbox http://127.0.0.1:8025 (SMTP smtp://127.0.0.1:1025), files .wms/mail/*.eml',
        from: 'default',
      },
      { name: 'mail from', value: 'wms <no-reply@wms.local>', from: 'default' },
      { name: 'storage', value: 'fs at .wms/storage, URL signing key kept in .wms/storage-secret', from: 'default' },
      { name: 'JWT keys', value: 'kept in .wms/jwt', from: 'default' },
      { name: 'trust proxy', value: 'false (X-Forwarded-For is ignored)', from: 'default' },
      {
        name: 'realtime',
        value:
          'Soketi on 127.0.0.1:6001, clients connect through the gateway (/realtime/ws); app wms-0a1b2c3d kept in .wms/realtime-app.json',
        from: 'default',
      },
    ]);
  });

  it("uses the environment's own realtime provider, refuses one without its app's ID, key and secret, and says when there is none", async () => {
    const { asked, defaults } = launcherDefaults();
    const app = { PUSHER_APP_ID: 'chat', PUSHER_KEY: 'chat-key', PUSHER_SECRET: 'chat-secret' };
    const own = await resolveSettings({
      mode: 'dev',
      env: { ...app, PUSHER_HOST: 'soketi.internal', PUSHER_PORT: '443', PUSHER_USE_TLS: 'true' },
      root,
      defaults,
    });
    expect(asked).not.toContain('realtime app');
    expect(own.localRealtime).toBe(false);
    expect(own.env).toMatchObject({
      ...app,
      PUSHER_HOST: 'soketi.internal',
      PUSHER_PORT: '443',
      PUSHER_USE_TLS: 'true',
    });
    expect(own.sources.find((s) => s.name === 'realtime')).toEqual({
      name: 'realtime',
      value: 'provider at soketi.internal:443 over TLS, app chat; no Soketi',
      from: 'PUSHER_APP_ID, PUSHER_KEY, PUSHER_SECRET, PUSHER_HOST, PUSHER_PORT, PUSHER_USE_TLS',
    });
    await expect(
      resolveSettings({ mode: 'dev', env: { PUSHER_KEY: 'chat-key', PUSHER_CLUSTER: 'eu' }, root, defaults }),
    ).rejects.toThrow(/PUSHER_KEY, PUSHER_CLUSTER set without PUSHER_APP_ID, PUSHER_SECRET/);
    const none = await resolveSettings({ mode: 'dev', env: {}, root, defaults: { ...defaults, realtime: undefined } });
    expect(none.localRealtime).toBe(false);
    expect(Object.keys(none.env).filter((name) => name.startsWith('PUSHER_'))).toEqual([]);
    expect(none.sources.find((s) => s.name === 'realtime')).toEqual({
      name: 'realtime',
      value: 'none (this cluster runs no provider)',
      from: 'default',
    });
  });

  it('takes an fs directory (relative to the repository) and signing key from the environment, never showing the key', async () => {
    const { asked, defaults } = launcherDefaults();
    const secret = 'operator-storage-secret-of-40-characters!';
    const settings = await resolveSettings({
      mode: 'dev',
      env: { STORAGE_DIR: 'data/objects', STORAGE_SECRET: secret },
      root,
      defaults,
    });
    expect(asked).not.toContain('storage secret');
    expect(settings.env).toMatchObject({
      STORAGE_DRIVER: 'fs',
      STORAGE_DIR: '/srv/wms/data/objects',
      STORAGE_SECRET: secret,
    });
    expect(settings.storageDir).toBe('/srv/wms/data/objects');
    expect(settings.sources.find((s) => s.name === 'storage')).toEqual({
      name: 'storage',
      value: 'fs at data/objects, URL signing key from STORAGE_SECRET',
      from: 'STORAGE_DIR, STORAGE_SECRET',
    });
  });

  it('derives the public key from a private key set alone, and refuses a public key set alone', async () => {
    const derived = await resolveSettings({
      mode: 'dev',
      env: { JWT_PRIVATE_KEY: operatorKeys.privateKey },
      root,
      defaults: launcherDefaults().defaults,
    });
    expect(derived.jwt).toEqual(operatorKeys);
    expect(derived.sources.find((s) => s.name === 'JWT keys')).toEqual({
      name: 'JWT keys',
      value: 'from the environment, public key derived from the private one',
      from: 'JWT_PRIVATE_KEY',
    });
    await expect(
      resolveSettings({
        mode: 'dev',
        env: { JWT_PUBLIC_KEY: operatorKeys.publicKey },
        root,
        defaults: launcherDefaults().defaults,
      }),
    ).rejects.toThrow(/JWT_PUBLIC_KEY is set without JWT_PRIVATE_KEY/);
    await expect(
      resolveSettings({
        mode: 'dev',
        env: { JWT_PRIVATE_KEY: 'not a key' },
        root,
        defaults: launcherDefaults().defaults,
      }),
    ).rejects.toThrow(/JWT_PRIVATE_KEY is not a PEM private key/);
  });

  it('in test mode sets everything itself, whatever the environment holds', async () => {
    const { asked, defaults } = launcherDefaults();
    const settings = await resolveSettings({ mode: 'test', env: operatorEnv, root, defaults });
    expect(asked).toEqual(['mail catcher', 'storage secret', 'jwt keys', 'realtime app']);
    expect(settings.env).toMatchObject({
      SMTP_URL: 'smtp://127.0.0.1:1025',
      PUBLIC_URL: 'http://localhost:8080',
      STORAGE_DRIVER: 'fs',
      TRUST_PROXY: 'loopback',
      JWT_PRIVATE_KEY: launcherKeys.privateKey,
      PUSHER_KEY: launcherApp.key,
      PUSHER_HOST: '127.0.0.1',
    });
    expect(settings.sources.every((s) => s.from === 'default')).toBe(true);
  });
});

describe('startCluster in dev mode', () => {
  it('lets the environment win over its defaults, runs no mail catcher beside a relay, keeps its own wiring and restarts what dies', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'wms-launcher-dev-'));
    // A Postgres and a Redis of the test's own, so the dev database `wms` and prefix `wms` are nobody else's.
    const [postgres, redis] = await Promise.all([startTestPostgres(), startTestRedis()]);
    const operator: Record<string, string> = {
      SMTP_URL: 'smtp://mailer:relay-password@127.0.0.1:2525',
      PUBLIC_URL: 'https://chat.example.org',
      MAIL_FROM: 'Chat <chat@example.org>',
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_ACCESS_KEY: 'minio-access',
      S3_SECRET_KEY: 'minio-secret-key',
      TRUST_PROXY: 'loopback, 10.0.0.0/8',
      PUSHER_APP_ID: 'chat',
      PUSHER_KEY: 'chat-key',
      PUSHER_SECRET: 'chat-secret',
      PUSHER_HOST: 'soketi.internal',
    };
    // `pnpm start` reads the shell's environment: this worker's process.env, restored afterwards.
    const touched = [
      ...Object.keys(operator),
      ...[
        'STORAGE_DIR',
        'STORAGE_SECRET',
        'JWT_PRIVATE_KEY',
        'JWT_PUBLIC_KEY',
        'PUSHER_PORT',
        'PUSHER_USE_TLS',
        'PUSHER_CLUSTER',
        'DATABASE_URL',
        'REDIS_URL',
      ],
    ];
    const saved = new Map(touched.map((key) => [key, process.env[key]]));
    for (const key of touched) delete process.env[key];
    Object.assign(process.env, operator);
    let cluster: DevCluster | undefined;
    try {
      // options.env counts as environment too; the wiring (here REDIS_PREFIX) stays the launcher's.
      cluster = await startCluster({
        mode: 'dev',
        logs: 'files',
        repoRoot: root,
        // With the environment's own realtime provider, the local one does not start.
        components: [soketi, ...fakeCluster],
        postgresUrl: postgres.url,
        redisUrl: redis.url,
        env: { LOG_LEVEL: 'debug', REDIS_PREFIX: 'not-the-launchers' },
      });
      const keysOnDisk = {
        privateKey: await readFile(path.join(root, '.wms', 'jwt', 'private.pem'), 'utf8'),
        publicKey: await readFile(path.join(root, '.wms', 'jwt', 'public.pem'), 'utf8'),
      };
      const env = await getJson<Record<string, string>>(`${cluster.gatewayUrl}/env`);
      expect(env).toMatchObject({
        ...operator,
        LOG_LEVEL: 'debug',
        DATABASE_URL: withDatabase(postgres.url, 'wms'),
        REDIS_URL: redis.url,
        REDIS_PREFIX: 'wms',
        JWT_PRIVATE_KEY: keysOnDisk.privateKey,
        JWT_PUBLIC_KEY: keysOnDisk.publicKey,
      });
      expect(env).not.toHaveProperty('STORAGE_DIR');
      expect(env).not.toHaveProperty('STORAGE_SECRET');
      expect(cluster).toMatchObject({
        publicUrl: 'https://chat.example.org',
        smtpUrl: operator.SMTP_URL,
        inboxUrl: undefined,
        mailDir: undefined,
        storageDir: undefined,
        databaseName: 'wms',
      });
      expect(existsSync(path.join(root, '.wms', 'mail'))).toBe(false);

      expect(cluster.settings.map(({ name, from }) => `${name}: ${from}`)).toEqual([
        'public URL: PUBLIC_URL',
        'mail: SMTP_URL',
        'mail from: MAIL_FROM',
        'storage: STORAGE_DRIVER, S3_ENDPOINT, S3_ACCESS_KEY, S3_SECRET_KEY',
        'JWT keys: default',
        'trust proxy: TRUST_PROXY',
        'realtime: PUSHER_APP_ID, PUSHER_KEY, PUSHER_SECRET, PUSHER_HOST',
        'database: caller',
        'redis: caller',
      ]);
      const banner = bannerLines(cluster).join('\n');
      expect(banner).toContain('relay smtp://mailer:***@127.0.0.1:2525; no mail catcher  (from SMTP_URL)');
      expect(banner).toContain(
        's3 at http://127.0.0.1:9000, bucket wms  (from STORAGE_DRIVER, S3_ENDPOINT, S3_ACCESS_KEY, S3_SECRET_KEY)',
      );
      expect(banner).toContain('kept in .wms/jwt  (default)');
      expect(banner).toContain(
        'provider at soketi.internal:6001, app chat; no Soketi  (from PUSHER_APP_ID, PUSHER_KEY, PUSHER_SECRET, PUSHER_HOST)',
      );
      expect(cluster.pidOf('soketi')).toBeUndefined();
      expect(existsSync(path.join(root, '.wms', 'realtime-app.json'))).toBe(false);
      for (const secret of ['relay-password', 'minio-secret-key', 'minio-access', 'PRIVATE KEY', 'chat-secret'])
        expect(banner).not.toContain(secret);

      // Dev mode supervises by default.
      const worker = cluster.pidOf('fake-worker')!;
      process.kill(worker, 'SIGKILL');
      await waitFor('the worker to be relaunched', () => {
        const pid = cluster!.pidOf('fake-worker');
        return pid !== undefined && pid !== worker ? pid : undefined;
      });
      expect(await launcherLog(cluster.logDir)).toContain('fake-worker exited (signal SIGKILL); restarting in 250 ms');

      await cluster.stop();
      expect(processesOf(cluster.databaseUrl)).toEqual([]);
      // The caller's Postgres and Redis are the caller's to stop.
      expect(await redisAnswers(Number(new URL(redis.url).port))).toBe(true);
      const client = new pg.Client({ connectionString: postgres.url });
      await client.connect();
      expect(
        (await client.query('SELECT count(*)::int AS n FROM pg_database WHERE datname = $1', ['wms'])).rows,
      ).toEqual([{ n: 1 }]);
      await client.end();
    } finally {
      for (const [key, value] of saved) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
      await cluster?.stop();
      await Promise.all([postgres.destroy(), redis.destroy()]);
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe('pnpm start (local-cluster/src/start.ts)', () => {
  it('warns when the mail catcher cannot have its usual port, and exits 0 after a Ctrl-C that reaches it twice', async () => {
    const repoRoot = path.resolve(fixtures, '..', '..', '..');
    // Its own Postgres and Redis, so the dev database `wms` and prefix `wms` are nobody else's.
    const [postgres, redis] = await Promise.all([startTestPostgres(), startTestRedis()]);
    // Held for the test when free; when something else holds it, it is just as taken.
    const holder = net.createServer();
    await new Promise<void>((resolve) => {
      holder.once('error', () => resolve());
      holder.listen(8025, '127.0.0.1', () => resolve());
    });
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(await freePort()),
      DATABASE_URL: postgres.url,
      REDIS_URL: redis.url,
      LOG_LEVEL: 'warn',
    };
    delete env.SMTP_URL;
    // Detached: a group of its own, as a terminal's foreground job is, so the group can be sent the Ctrl-C.
    const launcher = spawn(process.execPath, ['--import', 'tsx', 'local-cluster/src/start.ts'], {
      cwd: repoRoot,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    launcher.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    launcher.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    // On close, not exit: by then all of its output has been read.
    const exited = new Promise<number | null>((resolve) => launcher.once('close', (code) => resolve(code)));
    try {
      await waitFor(
        'the start banner',
        () => output.includes('wms is running') || launcher.exitCode !== null,
        90_000,
        200,
      );
      expect(output).toContain('wms is running');
      expect(output).toMatch(
        /\[mail\] +warning: port 8025 is taken; the inbox is on port \d+ instead \(http:\/\/127\.0\.0\.1:\d+\)/,
      );
      expect(output).not.toContain('inbox http://127.0.0.1:8025 ');
      // The realtime provider runs, its log among the others'.
      expect(output).toMatch(
        /realtime +Soketi on 127\.0\.0\.1:\d+, clients connect through the gateway \(\/realtime\/ws\); app wms-[0-9a-f]+ kept in \.wms\/realtime-app\.json +\(default\)/,
      );
      expect(output).toMatch(/\[soketi\] +.*Server is up and running/);
      const names = processesOf(withDatabase(postgres.url, 'wms')).map((pid) =>
        readFileSync(`/proc/${pid}/comm`, 'utf8').trim(),
      );
      expect(names).toContain('soketi-server');

      // The real services and workers listen for gRPC on loopback only.
      const grpcPorts = processesOf(withDatabase(postgres.url, 'wms'))
        .map((pid) =>
          readFileSync(`/proc/${pid}/environ`, 'utf8')
            .split('\0')
            .find((v) => v.startsWith('GRPC_PORT='))
            ?.slice('GRPC_PORT='.length),
        )
        .filter((port): port is string => port !== undefined)
        .map(Number);
      expect(grpcPorts).toHaveLength(components.filter((c) => c.kind === 'grpc' || c.kind === 'worker').length);
      for (const port of grpcPorts) expect(listenAddresses(port)).toEqual(['127.0.0.1']);

      // The terminal's Ctrl-C goes to the whole group; a runner (pnpm, npm) forwards one more to its child, which
      // arrives once the first has been handled (two at once would be one signal).
      process.kill(-launcher.pid!, 'SIGINT');
      await waitFor(
        'the launcher to stop on the first Ctrl-C',
        () => output.includes('SIGINT: stopping the cluster'),
        5000,
        10,
      );
      process.kill(launcher.pid!, 'SIGINT');
      expect(await exited).toBe(0);
      expect(output).toContain('SIGINT: stopping the cluster');
      expect(output).not.toContain('again: killing the cluster');
      expect(output.trimEnd().split('\n').at(-1)).toMatch(/\[launcher\] +stopped$/);
      expect(processesOf(withDatabase(postgres.url, 'wms'))).toEqual([]);
    } finally {
      if (launcher.exitCode === null) {
        launcher.kill('SIGKILL');
        await exited;
      }
      await new Promise((resolve) => holder.close(resolve));
      await Promise.all([postgres.destroy(), redis.destroy()]);
    }
  }, 150_000);
});

describe('pnpm start killed (SIGKILL)', () => {
  it('leaves no process running, Soketi included, and starts again at once', async () => {
    const repoRoot = path.resolve(fixtures, '..', '..', '..');
    const [postgres, redis] = await Promise.all([startTestPostgres(), startTestRedis()]);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(await freePort()),
      DATABASE_URL: postgres.url,
      REDIS_URL: redis.url,
      LOG_LEVEL: 'warn',
    };
    const dbUrl = withDatabase(postgres.url, 'wms');
    const start = () => {
      const launcher = spawn(process.execPath, ['--import', 'tsx', 'local-cluster/src/start.ts'], {
        cwd: repoRoot,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      const run = {
        launcher,
        output: '',
        exited: new Promise<void>((resolve) => launcher.once('close', () => resolve())),
      };
      launcher.stdout.on('data', (chunk: Buffer) => (run.output += chunk.toString('utf8')));
      launcher.stderr.on('data', (chunk: Buffer) => (run.output += chunk.toString('utf8')));
      return run;
    };
    const running = async (run: ReturnType<typeof start>) => {
      await waitFor(
        'the start banner',
        () => run.output.includes('wms is running') || run.launcher.exitCode !== null,
        90_000,
        200,
      );
      expect(run.output).toContain('wms is running');
    };
    const first = start();
    let second: ReturnType<typeof start> | undefined;
    try {
      await running(first);
      const names = processesOf(dbUrl).map((pid) => readFileSync(`/proc/${pid}/comm`, 'utf8').trim());
      expect(names).toContain('soketi-server');
      // Every server and worker, Soketi and the gateway.
      expect(names.length).toBeGreaterThanOrEqual(
        components.filter((c) => c.kind === 'grpc' || c.kind === 'worker').length + 2,
      );

      process.kill(first.launcher.pid!, 'SIGKILL');
      await first.exited;
      await waitFor('every process of the killed launcher to end', () => processesOf(dbUrl).length === 0, 10_000, 50);

      second = start();
      await running(second);
      expect(second.output).not.toMatch(/in use|EADDRINUSE/);
      process.kill(second.launcher.pid!, 'SIGINT');
      await second.exited;
      expect(processesOf(dbUrl)).toEqual([]);
    } finally {
      for (const run of [first, second])
        if (run && run.launcher.exitCode === null && run.launcher.signalCode === null) run.launcher.kill('SIGKILL');
      for (const pid of processesOf(dbUrl)) process.kill(pid, 'SIGKILL');
      await Promise.all([postgres.destroy(), redis.destroy()]);
    }
  }, 240_000);
});

describe('prettyLine', () => {
  it('shows a pino line as time, level, message and the other fields, with an error stack below', () => {
    const line = JSON.stringify({
      level: 'info',
      time: '2026-11-24T12:00:01.234Z',
      service: 'gateway',
      msg: 'request',
      method: 'GET',
      route: '/users/me',
      status: 200,
      ms: 3,
    });
    expect(prettyLine(line, false)).toBe('12:00:01.234 INFO  request method=GET route=/users/me status=200 ms=3');
    const failed = JSON.stringify({
      level: 'error',
      time: '2026-11-24T12:00:02.000Z',
      msg: 'rpc failed',
      rpc: 'Login',
      err: { message: 'boom', stack: 'Error: boom\n    at x' },
    });
    expect(prettyLine(failed, false)).toBe('12:00:02.000 ERROR rpc failed rpc=Login\n    Error: boom\n        at x');
    expect(prettyLine(line, true)).toContain('\x1b[36mINFO ');
  });

  it('leaves lines that are not pino JSON as they are', () => {
    for (const line of ['plain text', '{"no":"msg"}', '[1,2]', '']) expect(prettyLine(line, true)).toBe(line);
  });
});
