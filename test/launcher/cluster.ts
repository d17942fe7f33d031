import { type ChildProcess, spawn } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createHealthClient } from '@wms/kit/grpc-client';
import { dropRedisPrefix, withDatabase } from '@wms/kit/testing';
import pg from 'pg';
import { type ComponentSpec, components as defaultComponents, grpcUrlVariable } from './components.ts';
import { acceptsTcp, freePorts, isPortFree, redact, resolvePostgres, resolveRedis, sleep, terminate } from './infra.ts';
import { type SmtpCatcher, startSmtpCatcher } from './smtp-catcher.ts';

export interface ClusterOptions {
  /** `dev`: persistent database `wms`, keys kept across starts, mail on 1025/8025. `test`: everything fresh and removed on stop. */
  mode: 'dev' | 'test';
  /** `inherit`: children's lines prefixed with `[name]` on stdout. `files`: `.wms/logs/<run-id>/<name>.log`. */
  logs: 'inherit' | 'files';
  /** Defaults to a free port. */
  gatewayPort?: number;
  /** Passed to every process, over the launcher's own values. */
  env?: Record<string, string>;
  /** The processes to run; defaults to the cluster's table (components.ts). */
  components?: readonly ComponentSpec[];
  /** Defaults to the repository holding this file. */
  repoRoot?: string;
  /** Aborting stops whatever has started and rejects. */
  signal?: AbortSignal;
  /** How long each process may take to become ready. */
  readyTimeoutMs?: number;
}

export interface Cluster {
  /** The gateway on 127.0.0.1, for programmatic clients. */
  gatewayUrl: string;
  /** `PUBLIC_URL` as the services see it (links in mails point here). */
  publicUrl: string;
  inboxUrl: string;
  smtpUrl: string;
  /** Where caught mails are written as .eml files (dev mode). */
  mailDir: string | undefined;
  databaseUrl: string;
  databaseName: string;
  redisUrl: string;
  redisPrefix: string;
  /** Where the filesystem storage driver keeps objects. */
  storageDir: string;
  jwt: { privateKey: string; publicKey: string };
  /** Log files of this run (`files` mode). */
  logDir: string | undefined;
  /** Stops the processes (gateway first), the mail catcher, test data and any Postgres/Redis the launcher started. Idempotent. */
  stop(): Promise<void>;
}

const defaultRepoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const MIGRATE_TIMEOUT_MS = 120_000;
const STOP_GRACE_MS = 10_000;
const TAIL_LINES = 50;
const KEPT_LOG_RUNS = 20;

/** Starts Postgres/Redis (or finds them), the mail catcher and every component, each ready before the next step. */
export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const { mode, signal } = options;
  const repoRoot = options.repoRoot ?? defaultRepoRoot;
  const specs = options.components ?? defaultComponents;
  const readyTimeoutMs = options.readyTimeoutMs ?? 30_000;
  const wmsDir = path.join(repoRoot, '.wms');
  const runSuffix = randomBytes(4).toString('hex');
  const runId = `${new Date().toISOString().replace(/[:.]/g, '-')}-${runSuffix}`;
  const sink = options.logs === 'files' ? await fileSink(path.join(wmsDir, 'logs'), runId) : inheritSink(specs.map((s) => s.name));
  const log = (line: string) => sink.write('launcher', line);

  const cleanups: Array<{ what: string; run: () => Promise<void> }> = [];
  const live = new Set<ManagedProcess>();
  // Children run in their own process groups (so a Ctrl-C reaches them only through the launcher's orderly stop);
  // should the launcher exit without stop(), they must not outlive it.
  const killAllNow = () => {
    for (const proc of live) proc.child.kill('SIGKILL');
  };
  process.on('exit', killAllNow);

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      for (const { what, run } of cleanups.reverse()) {
        try {
          await run();
        } catch (err) {
          log(`stop: ${what} failed: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
      process.removeListener('exit', killAllNow);
      log('stopped');
      await sink.close();
    })());
  const throwIfAborted = () => {
    if (signal?.aborted) throw new Error('cluster start aborted');
  };

  try {
    throwIfAborted();
    if (options.gatewayPort !== undefined && !(await isPortFree(options.gatewayPort))) {
      throw new Error(`port ${options.gatewayPort} is in use; stop what listens there or choose another gateway port (PORT=...)`);
    }
    // Both are awaited before either failure is thrown, so one that did start is stopped with the rest.
    const [postgresResult, redisResult] = await Promise.allSettled([resolvePostgres({ repoRoot, log }), resolveRedis({ repoRoot, log })]);
    if (postgresResult.status === 'fulfilled') cleanups.push({ what: 'postgres', run: () => postgresResult.value.stop() });
    if (redisResult.status === 'fulfilled') cleanups.push({ what: 'redis', run: () => redisResult.value.stop() });
    const postgres = settledValue(postgresResult);
    const redis = settledValue(redisResult);
    throwIfAborted();

    const databaseName = mode === 'dev' ? 'wms' : `wms_t_${runSuffix}`;
    await createDatabase(postgres.url, databaseName, mode === 'dev');
    if (mode === 'test') cleanups.push({ what: `drop database ${databaseName}`, run: () => dropDatabase(postgres.url, databaseName) });
    const databaseUrl = withDatabase(postgres.url, databaseName);
    log(`database: ${databaseName}`);

    const redisPrefix = mode === 'dev' ? 'wms' : `wms-t-${runSuffix}`;
    if (mode === 'test') cleanups.push({ what: `delete redis keys ${redisPrefix}:*`, run: async () => void (await dropRedisPrefix(redis.url, redisPrefix)) });

    const jwt = mode === 'dev' ? await persistentJwtKeys(path.join(wmsDir, 'jwt')) : generateJwtKeys();

    const mailDir = mode === 'dev' ? path.join(wmsDir, 'mail') : undefined;
    const catcher = await startCatcher(mode, mailDir, (line) => sink.write('mail', line));
    cleanups.push({ what: 'mail catcher', run: () => catcher.stop() });
    throwIfAborted();

    const grpcSpecs = specs.filter((s) => s.kind === 'grpc');
    const httpSpecs = specs.filter((s) => s.kind === 'http');
    const workerSpecs = specs.filter((s) => s.kind === 'worker');
    const storage = await storageSettings(mode, wmsDir, runId);
    if (mode === 'test') cleanups.push({ what: 'test storage', run: () => rm(storage.dir, { recursive: true, force: true }) });
    const ports = await freePorts(grpcSpecs.length + httpSpecs.length + 1);
    const gatewayPort = options.gatewayPort ?? ports.pop()!;
    const portOf = new Map<string, number>();
    for (const spec of [...grpcSpecs, ...httpSpecs]) portOf.set(spec.name, spec.public ? gatewayPort : ports.pop()!);
    const publicUrl = `http://localhost:${gatewayPort}`;

    const common: Record<string, string> = {
      LOG_LEVEL: process.env.LOG_LEVEL ?? (mode === 'dev' ? 'info' : 'warn'),
      PUBLIC_URL: publicUrl,
      DATABASE_URL: databaseUrl,
      REDIS_URL: redis.url,
      REDIS_PREFIX: redisPrefix,
      SMTP_URL: catcher.smtpUrl,
      MAIL_FROM: 'wms <no-reply@wms.local>',
      JWT_PRIVATE_KEY: jwt.privateKey,
      JWT_PUBLIC_KEY: jwt.publicKey,
      STORAGE_DRIVER: 'fs',
      STORAGE_DIR: storage.dir,
      STORAGE_SECRET: storage.secret,
      // Tests simulate client addresses with X-Forwarded-For from loopback.
      ...(mode === 'test' ? { TRUST_PROXY: 'loopback' } : {}),
      ...Object.fromEntries(grpcSpecs.map((s) => [grpcUrlVariable(s.name), `127.0.0.1:${portOf.get(s.name)}`])),
    };
    const envFor = (spec: ComponentSpec, role: 'migrate' | 'server' | 'worker'): NodeJS.ProcessEnv => ({
      ...inheritedEnv(),
      ...common,
      ...options.env,
      ...spec.env,
      ROLE: role,
      ...(spec.kind === 'grpc' ? { GRPC_PORT: String(portOf.get(spec.name)) } : spec.kind === 'http' ? { PORT: String(portOf.get(spec.name)) } : {}),
    });
    const launch = (spec: ComponentSpec, role: 'migrate' | 'server' | 'worker') => {
      const proc = spawnComponent(spec, repoRoot, envFor(spec, role), sink);
      live.add(proc);
      void proc.exited.then(() => live.delete(proc));
      return proc;
    };
    // Should startup fail midway, whatever still runs (a migration, a server) is stopped with the rest.
    cleanups.push({ what: 'stray processes', run: async () => void (await Promise.all([...live].map((p) => p.stop(STOP_GRACE_MS)))) });

    const migrations = grpcSpecs.concat(httpSpecs).filter((s) => s.migrate);
    if (migrations.length > 0) {
      log(`migrating: ${migrations.map((s) => s.name).join(', ')}`);
      const results = await Promise.allSettled(migrations.map((spec) => runToCompletion(launch(spec, 'migrate'), MIGRATE_TIMEOUT_MS, signal)));
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
    }
    throwIfAborted();

    const servers: ManagedProcess[] = [];
    cleanups.push({ what: 'grpc services', run: async () => void (await Promise.all(servers.map((p) => p.stop(STOP_GRACE_MS)))) });
    const grpcProcs = grpcSpecs.map((spec) => launch(spec, 'server'));
    servers.push(...grpcProcs, ...workerSpecs.map((spec) => launch(spec, 'worker')));
    await Promise.all(grpcProcs.map((proc) => waitReady(proc, grpcProbe(portOf.get(proc.name)!), readyTimeoutMs, signal)));
    log(`ready: ${grpcSpecs.map((s) => s.name).join(', ') || '(no grpc services)'}`);

    for (const spec of httpSpecs) {
      const proc = launch(spec, 'server');
      cleanups.push({ what: spec.name, run: () => proc.stop(STOP_GRACE_MS) });
      await waitReady(proc, httpProbe(`http://127.0.0.1:${portOf.get(spec.name)}${spec.readyPath ?? '/readyz'}`), readyTimeoutMs, signal);
      log(`ready: ${spec.name}`);
    }

    // A server that dies after startup is worth a line: nothing restarts it.
    for (const proc of live) {
      void proc.exited.then((code) => {
        if (!stopping) log(`${proc.name} exited unexpectedly (${code ?? 'signal'}); last output:\n${proc.tail()}`);
      });
    }

    return {
      gatewayUrl: `http://127.0.0.1:${gatewayPort}`,
      publicUrl,
      inboxUrl: catcher.inboxUrl,
      smtpUrl: catcher.smtpUrl,
      mailDir,
      databaseUrl,
      databaseName,
      redisUrl: redis.url,
      redisPrefix,
      storageDir: storage.dir,
      jwt,
      logDir: sink.dir,
      stop,
    };
  } catch (err) {
    log(`start failed: ${err instanceof Error ? err.message : String(err)}`);
    await stop();
    throw err;
  }
}

function settledValue<T>(result: PromiseSettledResult<T>): T {
  if (result.status === 'rejected') throw result.reason;
  return result.value;
}

/** Where the filesystem storage driver keeps objects and the key that signs its download URLs (kept across dev starts). */
async function storageSettings(mode: 'dev' | 'test', wmsDir: string, runId: string): Promise<{ dir: string; secret: string }> {
  if (mode === 'test') return { dir: path.join(wmsDir, 'test-storage', runId), secret: randomBytes(32).toString('hex') };
  const secretFile = path.join(wmsDir, 'storage-secret');
  let secret = await readFile(secretFile, 'utf8').catch(() => '');
  if (secret.length < 32) {
    secret = randomBytes(32).toString('hex');
    await mkdir(wmsDir, { recursive: true });
    await writeFile(secretFile, secret, { mode: 0o600 });
  }
  return { dir: path.join(wmsDir, 'storage'), secret: secret.trim() };
}

/** A fresh Ed25519 key pair in PEM (pkcs8 private, spki public). */
export function generateJwtKeys(): { privateKey: string; publicKey: string } {
  return generateKeyPairSync('ed25519', {
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
}

/** Keys kept in `dir` across starts, so tokens issued before a restart stay valid. */
export async function persistentJwtKeys(dir: string): Promise<{ privateKey: string; publicKey: string }> {
  const privatePath = path.join(dir, 'private.pem');
  const publicPath = path.join(dir, 'public.pem');
  const [privateKey, publicKey] = await Promise.all([readFile(privatePath, 'utf8').catch(() => ''), readFile(publicPath, 'utf8').catch(() => '')]);
  if (privateKey && publicKey) return { privateKey, publicKey };
  const keys = generateJwtKeys();
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await writeFile(privatePath, keys.privateKey, { mode: 0o600 });
  await writeFile(publicPath, keys.publicKey);
  return keys;
}

/** The same connection URL pointing at another database. */

async function withPg<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new Error(`postgres at ${redact(adminUrl)} refused the connection (${reason}); set DATABASE_URL to an admin connection URL`);
  }
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => {});
  }
}

/** Creates the database; with `reuse`, an existing one is kept. */
export async function createDatabase(adminUrl: string, name: string, reuse: boolean): Promise<void> {
  await withPg(adminUrl, async (client) => {
    if (reuse) {
      const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (rowCount) return;
    }
    try {
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
    } catch (err) {
      // Two launchers starting at once may both see it missing.
      if (!(reuse && (err as { code?: string }).code === '42P04')) throw err;
    }
  });
}

/** Drops the database even while connections remain (Postgres 13+). */
export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  await withPg(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`));
}

/** Deletes every key under `<prefix>:` (SCAN + UNLINK, never KEYS). */
async function startCatcher(mode: 'dev' | 'test', dir: string | undefined, log: (line: string) => void): Promise<SmtpCatcher> {
  if (mode === 'test') return startSmtpCatcher({ smtpPort: 0, httpPort: 0, log });
  // Well-known ports for developers' mail clients and bookmarks, when nothing else holds them.
  const [smtpFree, httpFree] = await Promise.all([isPortFree(1025), isPortFree(8025)]);
  return startSmtpCatcher({ smtpPort: smtpFree ? 1025 : 0, httpPort: httpFree ? 8025 : 0, dir, log });
}

/** The launcher's environment minus what the launcher decides per process. */
function inheritedEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) {
    // A schema from the developer's shell would make every service share it.
    if (['ROLE', 'PORT', 'GRPC_PORT', 'DATABASE_SCHEMA'].includes(key) || key.endsWith('_GRPC_URL')) delete env[key];
  }
  return env;
}

interface LogSink {
  dir: string | undefined;
  write(name: string, line: string): void;
  close(): Promise<void>;
}

function inheritSink(names: string[]): LogSink {
  const width = Math.max(...['launcher', 'mail', ...names].map((n) => n.length)) + 2;
  return {
    dir: undefined,
    write: (name, line) => process.stdout.write(`${`[${name}]`.padEnd(width)} ${line}\n`),
    close: async () => {},
  };
}

async function fileSink(root: string, runId: string): Promise<LogSink> {
  const dir = path.join(root, runId);
  await mkdir(dir, { recursive: true });
  await pruneOldRuns(root);
  const files = new Map<string, WriteStream>();
  return {
    dir,
    write(name, line) {
      let file = files.get(name);
      if (!file) {
        file = createWriteStream(path.join(dir, `${name}.log`), { flags: 'a' });
        file.on('error', () => {});
        files.set(name, file);
      }
      file.write(`${line}\n`);
    },
    close: async () => {
      await Promise.all([...files.values()].map((f) => new Promise((resolve) => f.end(resolve))));
      files.clear();
    },
  };
}

async function pruneOldRuns(root: string): Promise<void> {
  const runs = (await readdir(root).catch(() => [])).sort();
  await Promise.all(runs.slice(0, Math.max(0, runs.length - KEPT_LOG_RUNS)).map((run) => rm(path.join(root, run), { recursive: true, force: true })));
}

interface ManagedProcess {
  name: string;
  child: ChildProcess;
  /** Resolves with the exit code (null when killed by a signal); never rejects. */
  exited: Promise<number | null>;
  tail(): string;
  stop(graceMs: number): Promise<void>;
}

function spawnComponent(spec: ComponentSpec, repoRoot: string, env: NodeJS.ProcessEnv, sink: LogSink): ManagedProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, spec.entry)], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const lines: string[] = [];
  const record = (line: string) => {
    lines.push(line);
    if (lines.length > TAIL_LINES) lines.shift();
    sink.write(spec.name, line);
  };
  createInterface({ input: child.stdout! }).on('line', record);
  createInterface({ input: child.stderr! }).on('line', record);
  const exited = new Promise<number | null>((resolve) => {
    child.once('error', (err) => {
      record(`cannot start: ${err.message}`);
      resolve(-1);
    });
    child.once('exit', (code) => resolve(code));
  });
  return {
    name: spec.name,
    child,
    exited,
    tail: () => lines.join('\n') || '(no output)',
    stop: (graceMs) => terminate(child, exited, graceMs),
  };
}

function hasExited(proc: ManagedProcess): boolean {
  return proc.child.exitCode !== null || proc.child.signalCode !== null;
}

async function runToCompletion(proc: ManagedProcess, timeoutMs: number, signal: AbortSignal | undefined): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!hasExited(proc)) {
    if (signal?.aborted) throw new Error('cluster start aborted');
    if (Date.now() > deadline) {
      await proc.stop(1000);
      throw new Error(`${proc.name} migration did not finish within ${timeoutMs / 1000} s; last output:\n${proc.tail()}`);
    }
    await Promise.race([proc.exited, sleep(100)]);
  }
  const code = await proc.exited;
  if (code !== 0) throw new Error(`${proc.name} migration failed (exit ${code ?? proc.child.signalCode}); last output:\n${proc.tail()}`);
}

type Probe = { check(): Promise<boolean>; close(): void };

async function waitReady(proc: ManagedProcess, probe: Probe, timeoutMs: number, signal: AbortSignal | undefined): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      if (hasExited(proc)) {
        throw new Error(`${proc.name} exited (${proc.child.exitCode ?? proc.child.signalCode}) before it was ready; last output:\n${proc.tail()}`);
      }
      if (signal?.aborted) throw new Error('cluster start aborted');
      if (await probe.check()) return;
      if (Date.now() > deadline) throw new Error(`${proc.name} was not ready within ${timeoutMs / 1000} s; last output:\n${proc.tail()}`);
      await sleep(100);
    }
  } finally {
    probe.close();
  }
}

function grpcProbe(port: number): Probe {
  let health: ReturnType<typeof createHealthClient> | undefined;
  return {
    async check() {
      // Until the port accepts connections, probe with plain TCP: a gRPC channel that failed to connect backs
      // off for seconds before trying again, which would delay every start.
      if (!health) {
        if (!(await acceptsTcp(port))) return false;
        health = createHealthClient(`127.0.0.1:${port}`);
      }
      return health.check(1000);
    },
    close: () => health?.close(),
  };
}

function httpProbe(url: string): Probe {
  return {
    check: () =>
      fetch(url, { signal: AbortSignal.timeout(1000) }).then(
        async (res) => {
          await res.body?.cancel();
          return res.status === 200;
        },
        () => false,
      ),
    close: () => {},
  };
}
