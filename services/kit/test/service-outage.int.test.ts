import { type ChildProcess, spawn } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHealthClient } from '../src/grpc-client.ts';
import { freePort, startTestPostgres, startTestRedis, type TestDependency, waitFor } from '@wms/testkit';

// Every server and worker role of every service, as real processes (their main.ts) against a Postgres and a Redis
// of this file's own: an outage of either turns the health of the roles that use it NOT_SERVING, ends no process,
// and health comes back by itself when the dependency does. The roles start on the default 1 s monitor.
const repoRoot = path.resolve(import.meta.dirname, '../../..');

interface Role {
  name: string;
  service: string;
  role: 'server' | 'worker';
  /** Whether the role holds a Redis client (the messaging and asset servers do not). */
  redis: boolean;
}

const roles: Role[] = [
  { name: 'identity', service: 'identity', role: 'server', redis: true },
  { name: 'workspace', service: 'workspace', role: 'server', redis: true },
  { name: 'messaging', service: 'messaging', role: 'server', redis: false },
  { name: 'asset', service: 'asset', role: 'server', redis: false },
  { name: 'realtime', service: 'realtime', role: 'server', redis: true },
  { name: 'workspace-worker', service: 'workspace', role: 'worker', redis: true },
  { name: 'messaging-worker', service: 'messaging', role: 'worker', redis: true },
  { name: 'asset-worker', service: 'asset', role: 'worker', redis: true },
  { name: 'realtime-worker', service: 'realtime', role: 'worker', redis: true },
];

interface Proc {
  role: Role;
  port: number;
  child: ChildProcess;
  lines: Array<Record<string, unknown>>;
  output: string[];
  exitCode?: number | null;
}

let pg: TestDependency;
let redis: TestDependency;
let storageDir: string;
const procs: Proc[] = [];
let env: NodeJS.ProcessEnv;

function spawnRole(service: string, role: string, extra: NodeJS.ProcessEnv) {
  return spawn(process.execPath, ['--import', 'tsx', `services/${service}/src/main.ts`], {
    cwd: repoRoot,
    env: { ...env, ROLE: role, ...extra },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

const statusOf = async (p: Proc) => {
  const client = createHealthClient(`127.0.0.1:${p.port}`);
  try {
    return await client.status(2000);
  } finally {
    client.close();
  }
};

async function statuses(): Promise<Record<string, string>> {
  const entries = await Promise.all(procs.map(async (p) => [p.role.name, await statusOf(p)] as const));
  return Object.fromEntries(entries);
}

/** Waits until every role answers the status `expected` gives it; fails with what they answered last. */
async function expectStatuses(what: string, expected: (r: Role) => string, timeoutMs = 30_000) {
  const want = Object.fromEntries(procs.map((p) => [p.role.name, expected(p.role)]));
  let last: Record<string, string> = {};
  try {
    await waitFor(
      what,
      async () => {
        last = await statuses();
        return JSON.stringify(last) === JSON.stringify(want);
      },
      timeoutMs,
      200,
    );
  } catch (err) {
    throw new Error(
      `${(err as Error).message}: wanted ${JSON.stringify(want)}, last ${JSON.stringify(last)}\n${crashes()}`,
      { cause: err },
    );
  }
}

const crashes = () =>
  procs
    .filter((p) => p.exitCode !== undefined)
    .map((p) => `${p.role.name} exited ${p.exitCode}:\n${p.output.slice(-20).join('\n')}`)
    .join('\n');

const allAlive = () => expect(crashes()).toBe('');

beforeAll(async () => {
  [pg, redis] = await Promise.all([startTestPostgres(), startTestRedis()]);
  storageDir = mkdtempSync(path.join(tmpdir(), 'wms-outage-storage-'));
  const { privateKey } = generateKeyPairSync('ed25519');
  const ports = new Map<string, number>();
  for (const r of roles) ports.set(r.name, await freePort());
  env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    LOG_LEVEL: 'info',
    DATABASE_URL: pg.url,
    REDIS_URL: redis.url,
    REDIS_PREFIX: `outage-${randomBytes(4).toString('hex')}`,
    JWT_PRIVATE_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    SMTP_URL: 'smtp://127.0.0.1:1',
    STORAGE_DRIVER: 'fs',
    STORAGE_DIR: storageDir,
    STORAGE_SECRET: randomBytes(24).toString('hex'),
    IDENTITY_GRPC_URL: `127.0.0.1:${ports.get('identity')}`,
    WORKSPACE_GRPC_URL: `127.0.0.1:${ports.get('workspace')}`,
    MESSAGING_GRPC_URL: `127.0.0.1:${ports.get('messaging')}`,
    ASSET_GRPC_URL: `127.0.0.1:${ports.get('asset')}`,
    REALTIME_GRPC_URL: `127.0.0.1:${ports.get('realtime')}`,
  };

  const migrations = ['identity', 'workspace', 'messaging', 'asset', 'realtime'].map(
    (service) =>
      new Promise<void>((resolve, reject) => {
        const child = spawnRole(service, 'migrate', {});
        let output = '';
        child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
        child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
        child.on('exit', (code) =>
          code === 0 ? resolve() : reject(new Error(`${service} migrate exited ${code}: ${output}`)),
        );
      }),
  );
  await Promise.all(migrations);

  for (const role of roles) {
    const port = ports.get(role.name)!;
    // Each role its own ports, as the launcher and the chart give them (a server and its worker share defaults).
    const child = spawnRole(role.service, role.role, {
      GRPC_PORT: String(port),
      METRICS_PORT: String(await freePort()),
      GRPC_HOST: '127.0.0.1',
    });
    const proc: Proc = { role, port, child, lines: [], output: [] };
    let buffered = '';
    child.stdout?.on('data', (d: Buffer) => {
      buffered += d.toString();
      const parts = buffered.split('\n');
      buffered = parts.pop() ?? '';
      for (const line of parts) {
        proc.output.push(line);
        try {
          proc.lines.push(JSON.parse(line) as Record<string, unknown>);
        } catch {
          // not a log line
        }
      }
    });
    child.stderr?.on('data', (d: Buffer) => proc.output.push(d.toString()));
    child.on('exit', (code) => (proc.exitCode = code));
    procs.push(proc);
  }
  await expectStatuses('every role up', () => 'SERVING', 60_000);
}, 120_000);

afterAll(async () => {
  await Promise.all(
    procs.map(
      (p) =>
        new Promise<void>((resolve) => {
          if (p.exitCode !== undefined) return resolve();
          const force = setTimeout(() => p.child.kill('SIGKILL'), 10_000);
          p.child.once('exit', () => {
            clearTimeout(force);
            resolve();
          });
          p.child.kill('SIGTERM');
        }),
    ),
  );
  await Promise.all([pg?.destroy(), redis?.destroy()]);
  if (storageDir) rmSync(storageDir, { recursive: true, force: true });
});

const transitionsOf = (p: Proc, dependency: string) =>
  p.lines.filter((l) => l.dependency === dependency).map((l) => l.health);

/**
 * The health transitions each role logged for the dependency, once every role has logged as many as `expected` gives
 * it (a role answers its new status before its log line has reached this process's pipe).
 */
async function loggedTransitions(dependency: string, expected: (r: Role) => string[]) {
  await waitFor(
    `every role to log its ${dependency} transitions`,
    () => procs.every((p) => transitionsOf(p, dependency).length >= expected(p.role).length),
    5000,
    50,
  ).catch(() => undefined);
  return procs.map((p) => [p.role.name, transitionsOf(p, dependency)]);
}

/** Every role's transition lines for the dependency, with their reasons: what a failed comparison of transitions shows. */
const transitionLines = (dependency: string) =>
  JSON.stringify(
    procs.map((p) => [
      p.role.name,
      p.lines
        .filter((l) => l.dependency === dependency)
        .map((l) => `${String(l.time)} ${String(l.msg)} ${typeof l.reason === 'string' ? l.reason : ''}`),
    ]),
    null,
    1,
  );

describe('service roles through dependency outages', () => {
  it('every role is NOT_SERVING while Postgres is down, keeps running, and serves again when it is back', async () => {
    await pg.stop();
    await expectStatuses('Postgres down', () => 'NOT_SERVING');
    allAlive();
    await pg.start();
    await expectStatuses('Postgres back', () => 'SERVING');
    allAlive();
    const both = () => ['NOT_SERVING', 'SERVING'];
    expect(await loggedTransitions('postgres', both), transitionLines('postgres')).toEqual(
      procs.map((p) => [p.role.name, both()]),
    );
  });

  it('the roles that use Redis are NOT_SERVING while it is down, the others keep serving, and all recover', async () => {
    await redis.stop();
    await expectStatuses('Redis down', (r) => (r.redis ? 'NOT_SERVING' : 'SERVING'));
    allAlive();
    await redis.start();
    await expectStatuses('Redis back', () => 'SERVING');
    allAlive();
    const expected = (r: Role) => (r.redis ? ['NOT_SERVING', 'SERVING'] : []);
    expect(await loggedTransitions('redis', expected), transitionLines('redis')).toEqual(
      procs.map((p) => [p.role.name, expected(p.role)]),
    );
  });

  it('survives both crashing at once (SIGKILL) and recovers', async () => {
    await Promise.all([pg.kill(), redis.kill()]);
    await expectStatuses('both down', () => 'NOT_SERVING');
    allAlive();
    await Promise.all([pg.start(), redis.start()]);
    await expectStatuses('both back', () => 'SERVING');
    allAlive();
  });

  it('every role stops cleanly on SIGTERM after the outages', async () => {
    await Promise.all(
      procs.map(
        (p) =>
          new Promise<void>((resolve) => {
            p.child.once('exit', () => resolve());
            p.child.kill('SIGTERM');
          }),
      ),
    );
    expect(procs.map((p) => [p.role.name, p.exitCode])).toEqual(procs.map((p) => [p.role.name, 0]));
    for (const p of procs) expect(p.lines.some((l) => l.msg === 'stopped')).toBe(true);
  });
});
