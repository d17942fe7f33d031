import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inspect, promisify } from 'node:util';
import { logicalFlags } from '@wms/local-cluster/infra';
import { freePorts } from '@wms/local-cluster/ports';

/**
 * A Postgres and a Redis of a test's own, on free ports with their data in a temp dir, that the test can stop,
 * start again and kill: for fault tests (a dependency that goes away and comes back). The machine's shared
 * Postgres and Redis (databases.ts) stay for everything else.
 */

const run = promisify(execFile);

/** A free TCP port on 127.0.0.1, leased to this process until it exits (the local cluster's `freePorts`). */
export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  return port!;
}

/** A running process's environment as it was started (Linux `/proc`), by variable name. */
export function processEnvironment(pid: number): Map<string, string> {
  const entries = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
  return new Map(entries.map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]));
}

/**
 * Polls `probe` until it returns a value other than `undefined` or `false`, and returns that value; fails naming
 * `what` after `timeoutMs` (no fixed sleeps in tests). A probe that throws is tried again.
 */
export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 15_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline)
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}${last ? ` (last error: ${describeThrown(last)})` : ''}`,
      );
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** A dependency process a test controls. */
export interface TestDependency {
  /** Where clients connect. */
  url: string;
  port: number;
  /** Its directory (data, socket, log); removed by `destroy()`. */
  dir: string;
  /** Whether it runs now (after start, before stop or kill). */
  readonly running: boolean;
  /** Orderly shutdown: open connections are closed, new ones refused, data kept. */
  stop(): Promise<void>;
  /** Starts again on the same port with the same data (after `stop` or `kill`). */
  start(): Promise<void>;
  /** SIGKILL, as a crash or an OOM kill would; `start()` recovers. */
  kill(): Promise<void>;
  /** Stops for good and removes its directory. */
  destroy(): Promise<void>;
}

/** Every test dependency still alive, killed when the test process exits (not when a signal kills it: its exit handlers do not run then). */
const alive = new Set<() => void>();
let exitHook = false;
function onExit(kill: () => void): () => void {
  if (!exitHook) {
    exitHook = true;
    process.once('exit', () => {
      for (const k of alive) k();
    });
  }
  alive.add(kill);
  return () => alive.delete(kill);
}

const isRoot = () => process.getuid?.() === 0;

/** The Postgres binaries: `PG_BIN`, else the newest /usr/lib/postgresql/<version>/bin. */
function pgBin(name: string): string {
  const fromEnv = process.env.PG_BIN;
  if (fromEnv) return path.join(fromEnv, name);
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  for (const v of versions) {
    const file = path.join(root, v, 'bin', name);
    if (existsSync(file)) return file;
  }
  throw new Error(`no Postgres ${name} found: set PG_BIN to the directory of initdb and pg_ctl`);
}

async function postgresUser(): Promise<{ uid: number; gid: number }> {
  const [{ stdout: uid }, { stdout: gid }] = await Promise.all([
    run('id', ['-u', 'postgres']),
    run('id', ['-g', 'postgres']),
  ]);
  return { uid: Number(uid.trim()), gid: Number(gid.trim()) };
}

/** Runs a Postgres binary, as the `postgres` user when we are root (Postgres refuses to run as root). */
function pgRun(bin: string, args: string[], timeoutMs = 60_000) {
  const file = pgBin(bin);
  return isRoot()
    ? run('runuser', ['-u', 'postgres', '--', file, ...args], { timeout: timeoutMs })
    : run(file, args, { timeout: timeoutMs });
}

const processAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The postmaster and its children (backends, background workers), from /proc. */
function postgresPids(dataDir: string): number[] {
  let postmaster: number;
  try {
    postmaster = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return [];
  }
  if (!postmaster || !processAlive(postmaster)) return [];
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === postmaster) children.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return [postmaster, ...children];
}

/**
 * A Postgres of its own (initdb in a temp dir, trust auth, user `postgres`, 200 connections) on a free port, listening
 * on 127.0.0.1 and a socket in its dir. `url` names the `postgres` database; create more with SQL. Durability is off
 * for speed unless `durable`, which keeps Postgres's defaults (each commit flushed), as a deployment runs it.
 * As root, initdb and pg_ctl run as the `postgres` user, which owns the dir.
 */
export async function startTestPostgres({ durable = false }: { durable?: boolean } = {}): Promise<TestDependency> {
  const { dir, dataDir } = await initTestPostgres();
  const port = await freePort();
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    '-c listen_addresses=127.0.0.1',
    ...(durable ? [] : ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off']),
    '-c max_connections=200',
    ...logicalFlags(),
  ].join(' ');
  const pg = controlledPostgres({ dir, dataDir, port, options });
  try {
    await pg.start();
  } catch (err) {
    await pg.destroy();
    throw new Error(`test Postgres did not start: ${String(err)}; log: ${safeRead(path.join(dir, 'postgres.log'))}`, {
      cause: err,
    });
  }
  return pg;
}

/** A temp dir (owned by `postgres` when we are root) with a fresh data directory in it. */
async function initTestPostgres(): Promise<{ dir: string; dataDir: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'wms-test-pg-'));
  const dataDir = path.join(dir, 'data');
  if (isRoot()) {
    const { uid, gid } = await postgresUser();
    chownSync(dir, uid, gid);
  }
  await pgRun('initdb', [
    '-D',
    dataDir,
    '-U',
    'postgres',
    '-A',
    'trust',
    '-E',
    'UTF8',
    '--locale=C.UTF-8',
    '--no-sync',
    '--no-instructions',
  ]);
  return { dir, dataDir };
}

/** The test's handle on an initialised Postgres, not yet started; killed and removed should the test process exit. */
function controlledPostgres({
  dir,
  dataDir,
  port,
  options,
}: {
  dir: string;
  dataDir: string;
  port: number;
  /** The server's options (pg_ctl -o). */
  options: string;
}): TestDependency {
  let running = false;
  const killAll = () => {
    for (const pid of postgresPids(dataDir)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  };
  const forget = onExit(() => {
    killAll();
    rmSync(dir, { recursive: true, force: true });
  });

  const pg: TestDependency = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    dir,
    get running() {
      return running;
    },
    async start() {
      if (running) return;
      // After a kill, backends may still hold the old shared memory for a moment; pg_ctl then fails, so retry.
      await waitFor('the killed Postgres to be gone', () => postgresPids(dataDir).length === 0, 10_000, 50);
      await pgRun('pg_ctl', [
        '-D',
        dataDir,
        '-o',
        options,
        '-l',
        path.join(dir, 'postgres.log'),
        '-w',
        '-t',
        '60',
        'start',
      ]);
      running = true;
    },
    async stop() {
      running = false;
      if (postgresPids(dataDir).length === 0) return;
      await pgRun('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', '-t', '60', 'stop']);
    },
    async kill() {
      running = false;
      killAll();
      await waitFor('Postgres to die', () => postgresPids(dataDir).every((pid) => !processAlive(pid)), 10_000, 50);
    },
    async destroy() {
      if (postgresPids(dataDir).length > 0) {
        await pg.stop().catch(() => pg.kill());
      }
      running = false;
      forget();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return pg;
}

/**
 * A redis-server of its own on a free port, bound to 127.0.0.1, a child of the test process. It keeps nothing on disk
 * unless `durable`, which writes every command to an append-only file first, as a deployment that must not lose
 * queued jobs across a restart does.
 */
export async function startTestRedis({ durable = false }: { durable?: boolean } = {}): Promise<TestDependency> {
  const dir = mkdtempSync(path.join(tmpdir(), 'wms-test-redis-'));
  const port = await freePort();
  const redis = controlledRedis({ dir, port, durable });
  try {
    await redis.start();
  } catch (err) {
    await redis.destroy();
    throw err;
  }
  return redis;
}

/** The test's handle on a redis-server, not yet started; killed and its dir removed should the test process exit. */
function controlledRedis({ dir, port, durable }: { dir: string; port: number; durable: boolean }): TestDependency {
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  const forget = onExit(() => {
    child?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  const redis: TestDependency = {
    url: `redis://127.0.0.1:${port}`,
    port,
    dir,
    get running() {
      return child !== undefined;
    },
    async start() {
      if (child) return;
      const persistence = durable ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no'];
      const proc = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...persistence, '--dir', dir],
        {
          stdio: ['ignore', 'ignore', 'pipe'],
        },
      );
      let stderr = '';
      proc.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
      exited = new Promise((resolve) => proc.once('exit', () => resolve()));
      let gone = false;
      void exited.then(() => {
        gone = true;
        if (child === proc) child = undefined;
      });
      child = proc;
      await waitFor(
        `redis-server on port ${port}`,
        async () => {
          if (gone) throw new Error(`redis-server exited: ${stderr.trim()}`);
          return redisPing(port);
        },
        15_000,
        50,
      );
    },
    async stop() {
      const proc = child;
      if (!proc) return;
      proc.kill('SIGTERM');
      await exited;
    },
    async kill() {
      const proc = child;
      if (!proc) return;
      proc.kill('SIGKILL');
      await exited;
    },
    async destroy() {
      await redis.stop();
      forget();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return redis;
}

/** Whether a Redis on 127.0.0.1:`port` answers PING. */
function redisPing(port: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const socket = new Socket();
    socket.setTimeout(500, () => socket.destroy());
    socket.once('error', () => resolve(false));
    socket.once('close', () => resolve(false));
    socket.once('data', (data: Buffer) => {
      resolve(data.toString().startsWith('+PONG'));
      socket.destroy();
    });
    socket.connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
  });
}

/**
 * A thrown value for a message: an Error as `Name: message` and a string as it is (as String() shows them), anything
 * else as util.inspect shows it rather than `[object Object]`.
 */
function describeThrown(value: unknown): string {
  return value instanceof Error || typeof value === 'string' ? String(value) : inspect(value);
}

function safeRead(file: string): string {
  try {
    return readFileSync(file, 'utf8').slice(-2000);
  } catch {
    return '(none)';
  }
}
