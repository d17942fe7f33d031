import { type ChildProcess, spawn } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createHealthClient } from '@wms/kit/grpc-client';
import { type HandoffTarget, handoffTarget } from '@wms/kit/handoff';
import { grpcUrlVariable, type ServiceName, topology } from '@wms/protos';
import { startBalancer } from './balancer.ts';
import { type Reaper, startReaper } from './reaper.ts';
import { type ComponentSpec, components as defaultComponents } from './components.ts';
import { createDatabase, dropDatabase, dropRedisPrefix, withDatabase } from './data.ts';
import { ensureLogicalDecoding } from './postgres-logical.ts';
import {
  acceptsTcp,
  type Dependency,
  listenersOf,
  redact,
  resolvePostgres,
  resolveRedis,
  sleep,
  terminate,
} from './infra.ts';
import { freePorts, isPortFree } from './ports.ts';
import { resolveSettings, type Settings, type SettingSource } from './settings.ts';
import { prettyLine } from './pretty.ts';
import { type SmtpCatcher, startSmtpCatcher } from './smtp-catcher.ts';
import { generateRealtimeApp, persistentRealtimeApp } from './soketi.ts';

export interface ClusterOptions {
  /** `dev`: persistent database `wms`, keys kept across starts, mail on 1025/8025. `test`: everything fresh and removed on stop. */
  mode: 'dev' | 'test';
  /**
   * `pretty`: children's lines on stdout, readable (prettyLine) and prefixed with `[name]`; `json`: the same as raw
   * JSON lines; `files`: `.wms/logs/<run-id>/<name>.log`.
   */
  logs: 'pretty' | 'json' | 'files';
  /** Defaults to a free port. */
  gatewayPort?: number;
  /**
   * Passed to every process, over the launcher's own values (in dev mode it counts as part of the operator's
   * environment, so the start banner names it too). The cluster's wiring stays the launcher's: `DATABASE_URL`,
   * `REDIS_URL`, `REDIS_CLUSTER_NODES`, `REDIS_PREFIX`, `*_GRPC_URL`, `GRPC_HOST`, `GRPC_PORT`, `METRICS_PORT`, `PORT` and `ROLE`.
   */
  env?: Record<string, string>;
  /** Admin URL of a Postgres the caller runs (instead of DATABASE_URL, 127.0.0.1:5432 or an embedded one); never stopped by the launcher. */
  postgresUrl?: string;
  /** URL of a Redis the caller runs (instead of REDIS_URL, 127.0.0.1:6379 or a started one); never stopped by the launcher. */
  redisUrl?: string;
  /** The nodes (`host:port`) of a Redis Cluster the caller runs, for `REDIS_CLUSTER_NODES` (`redisUrl`: credentials). */
  redisClusterNodes?: string[];
  /**
   * Relaunch a component that exits after startup, with exponential backoff (250 ms doubling to 10 s, back to 250 ms
   * once it has stayed up 30 s). Defaults to true in dev mode and false in test mode.
   */
  restart?: boolean;
  /** The processes to run; defaults to the cluster's table (components.ts). */
  components?: readonly ComponentSpec[];
  /** Defaults to the repository holding this file. */
  repoRoot?: string;
  /** Aborting stops whatever has started and rejects. */
  signal?: AbortSignal;
  /** How long each process may take to become ready. */
  readyTimeoutMs?: number;
  /**
   * How many processes of each gRPC server and worker row, and of the gateway, to run (default 1): a number for all, or
   * by row name. The second of `messaging` is `messaging-2`, and so on; peers get every replica's address (`ipv4:a,b`)
   * and spread their calls over them; each row migrates once. Several gateways are handed the connections the
   * launcher accepts on the gateway port (balancer.ts); each listens on a port of its own too (readiness, /metrics).
   */
  replicas?: number | Readonly<Record<string, number>>;
}

/** The rows as processes: a gRPC server, worker or gateway row `replicas` times, its copies named `<name>-2`... */
export function withReplicas(rows: readonly ComponentSpec[], replicas: ClusterOptions['replicas']): ComponentSpec[] {
  const countOf = (name: string) => (typeof replicas === 'number' ? replicas : (replicas?.[name] ?? 1));
  return rows.flatMap((row) => {
    const count = row.kind === 'grpc' || row.kind === 'worker' || row.public ? countOf(row.name) : 1;
    if (!Number.isInteger(count) || count < 1 || count > 8)
      throw new Error(`replicas of ${row.name}: ${count}; 1 to 8`);
    if (count === 1) return [row];
    return [
      { ...row, replicas: count },
      ...Array.from({ length: count - 1 }, (_, i): ComponentSpec => ({
        ...row,
        name: `${row.name}-${i + 2}`,
        replicaOf: row.name,
        migrate: false,
        replicas: count,
      })),
    ];
  });
}

/**
 * Replicas as `pnpm start` and `pnpm bench` take them from the environment: `WMS_REPLICAS` for every row that can run
 * several (the gRPC servers, the workers and the gateway), `WMS_REPLICAS_<ROW>` (e.g. `WMS_REPLICAS_MESSAGING_WORKER`)
 * for one; 1 to 8. Throws naming the variable that is wrong.
 */
export function replicasFromEnv(env: NodeJS.ProcessEnv): Record<string, number> {
  const parse = (name: string) => {
    const value = Number(env[name]);
    if (!Number.isInteger(value) || value < 1 || value > 8)
      throw new Error(`${name} must be a whole number from 1 to 8, got "${env[name]}"`);
    return value;
  };
  const all = env.WMS_REPLICAS ? parse('WMS_REPLICAS') : 1;
  const byRow = Object.fromEntries(
    defaultComponents.filter((c) => c.kind === 'grpc' || c.kind === 'worker' || c.public).map((c) => [c.name, all]),
  );
  for (const name of Object.keys(env).filter((n) => n.startsWith('WMS_REPLICAS_') && env[n])) {
    const row = name.slice('WMS_REPLICAS_'.length).toLowerCase().replaceAll('_', '-');
    if (!(row in byRow))
      throw new Error(`${name}: no row ${row} runs replicas (rows: ${Object.keys(byRow).join(', ')})`);
    byRow[row] = parse(name);
  }
  return byRow;
}

/**
 * The replicas of a service's row share the row's Postgres pool (the topology's `poolMax`, each ⌈pool / replicas⌉),
 * so that on one machine Postgres sees as many connections at work as with one process: more would only contend
 * for the same cores. A `DATABASE_POOL_MAX` of the operator's (or a test's) wins.
 */
export function poolShareOf(spec: ComponentSpec): Record<string, string> {
  const service = (spec.replicaOf ?? spec.name).replace(/-worker$/, '');
  if (!spec.replicas || !(service in topology)) return {};
  return { DATABASE_POOL_MAX: String(Math.ceil(topology[service as ServiceName].poolMax / spec.replicas)) };
}

/** A running cluster of either mode. */
export interface DevCluster {
  /** The gateway on 127.0.0.1, for programmatic clients. */
  gatewayUrl: string;
  /** `PUBLIC_URL` as the services see it (links in mails point here). */
  publicUrl: string;
  /** The mail catcher's inbox; unset when `SMTP_URL` names a relay (dev mode), since no catcher runs then. */
  inboxUrl: string | undefined;
  /** `SMTP_URL` as the identity service sees it (may hold a password: never print it unredacted). */
  smtpUrl: string;
  /** Where caught mails are written as .eml files (dev mode, with the catcher). */
  mailDir: string | undefined;
  databaseUrl: string;
  databaseName: string;
  redisUrl: string;
  /** The Redis Cluster's nodes; empty on one Redis. */
  redisClusterNodes: string[];
  redisPrefix: string;
  /** Where the filesystem storage driver keeps objects; unset with another driver (dev mode). */
  storageDir: string | undefined;
  jwt: { privateKey: string; publicKey: string };
  /** Each setting as it may be shown, and whether the environment or the launcher chose it (the start banner). */
  settings: readonly SettingSource[];
  /** Log files of this run (`files` mode). */
  logDir: string | undefined;
  /** Where each server and worker serves Prometheus metrics (`http://127.0.0.1:<METRICS_PORT>/metrics`), by component name. */
  metricsUrls: Readonly<Record<string, string>>;
  /** Where the realtime provider (Soketi) answers 200 once it serves; undefined without one. */
  providerReadyUrl: string | undefined;
  /** The pid of a component's current process; undefined while it is down (or waits to be restarted) and for unknown names. */
  pidOf(name: string): number | undefined;
  /**
   * Runs every migrating row's migrations (`ROLE=migrate`) from `repoRoot` (another release's tree; default the
   * cluster's), as the chart's hook Jobs do before an upgrade's new pods start.
   */
  migrate(options?: { repoRoot?: string }): Promise<void>;
  /**
   * Replaces a component's process as a rolling update replaces a pod: SIGTERM and its exit awaited (up to
   * `graceMs`, then SIGKILL), the row started again from `repoRoot` (default: the tree it ran from), its readiness
   * awaited, and `minReadyMs` more (a Deployment's `minReadySeconds`, which paces a rollout). Supervision relaunches
   * the new process from that tree.
   */
  replace(name: string, options?: { repoRoot?: string; graceMs?: number; minReadyMs?: number }): Promise<Replacement>;
  /** Stops supervision, then the processes (gateway first), the mail catcher, test data and any Postgres/Redis the launcher started. Idempotent. */
  stop(): Promise<void>;
}

/** What one replacement cost. */
export interface Replacement {
  /** From SIGTERM to the old process's exit. */
  stoppedMs: number;
  /** The old process's exit code (null: ended by a signal, SIGKILL after the grace among them). */
  exitCode: number | null;
  /** From the new process's start to its readiness. */
  readyMs: number;
}

/** A test-mode cluster: the launcher sets everything, so the mail catcher and the fs storage directory are always there. */
export interface Cluster extends DevCluster {
  inboxUrl: string;
  storageDir: string;
}

const defaultRepoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
// Resolved here rather than from each child's working directory, so a cluster can run in another repoRoot.
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const MIGRATE_TIMEOUT_MS = 120_000;
const STOP_GRACE_MS = 10_000;
const RESTART_FIRST_DELAY_MS = 250;
const RESTART_MAX_DELAY_MS = 10_000;
const RESTART_RESET_AFTER_MS = 30_000;
const TAIL_LINES = 50;
const KEPT_LOG_RUNS = 20;
/** The mail catcher's usual ports in dev mode (MailHog's and Mailpit's). */
const SMTP_PORT = 1025;
const INBOX_PORT = 8025;

/** Starts Postgres/Redis (or finds them), the mail catcher and every component, each ready before the next step. */
export function startCluster(options: ClusterOptions & { mode: 'test' }): Promise<Cluster>;
export function startCluster(options: ClusterOptions): Promise<DevCluster>;
export async function startCluster(options: ClusterOptions): Promise<DevCluster> {
  const launcher = await setUpLauncher(options);
  const stop = stopFunction(launcher);
  const { log } = launcher;
  try {
    launcher.throwIfAborted();
    await checkGatewayPort(options.gatewayPort);
    const { postgres, redis } = await resolveInfrastructure(launcher, options);
    launcher.throwIfAborted();
    const data = await prepareData(launcher, postgres, redis, options.redisClusterNodes ?? []);
    const layout = await allocatePorts(launcher.specs, options.gatewayPort);
    const settings = await resolveClusterSettings(launcher, layout);
    const sources = settingSources(settings, data, { postgres, redis }, options);
    for (const { name, value, from } of sources) log(`${name}: ${value} (${from})`);
    launcher.throwIfAborted();

    const starter = componentStarter(launcher, layout, environmentFor(launcher, options, layout, settings, data));
    await startProviderAndMigrations(launcher, layout, settings, starter);
    launcher.throwIfAborted();
    const metricsUrls = await startBackServices(launcher, layout, starter);
    await startGateways(launcher, layout, starter);
    launcher.restart = options.restart ?? options.mode === 'dev';
    superviseAll(launcher, starter);

    return {
      gatewayUrl: `http://127.0.0.1:${layout.gatewayPort}`,
      publicUrl: settings.publicUrl,
      inboxUrl: settings.inboxUrl,
      smtpUrl: settings.smtpUrl,
      mailDir: settings.mailDir,
      databaseUrl: data.databaseUrl,
      databaseName: data.databaseName,
      redisUrl: data.redisUrl,
      redisClusterNodes: data.redisClusterNodes,
      redisPrefix: data.redisPrefix,
      storageDir: settings.storageDir,
      jwt: settings.jwt,
      settings: sources,
      logDir: launcher.sink.dir,
      metricsUrls,
      providerReadyUrl:
        layout.provider &&
        `http://127.0.0.1:${layout.metricsPortOf.get(layout.provider.name)}${layout.provider.readyPath ?? '/ready'}`,
      migrate: (o) => runMigrations(launcher, layout, starter, o?.repoRoot),
      replace: (name, o) => replaceComponent(launcher, layout, starter, name, o),
      pidOf: (name) => {
        const slot = launcher.slots.get(name);
        return slot && !hasExited(slot.proc) ? slot.proc.child.pid : undefined;
      },
      stop,
    };
  } catch (err) {
    log(`start failed: ${err instanceof Error ? err.message : String(err)}`);
    await stop();
    throw err;
  }
}

/** What the steps of one start share: the options as resolved, the log, the processes, and what stop() undoes. */
interface Launcher {
  mode: 'dev' | 'test';
  signal: AbortSignal | undefined;
  /** Dev mode reads the operator's environment; options.env is part of it there. */
  operatorEnv: NodeJS.ProcessEnv;
  repoRoot: string;
  wmsDir: string;
  runSuffix: string;
  runId: string;
  specs: ComponentSpec[];
  readyTimeoutMs: number;
  sink: LogSink;
  log: (line: string) => void;
  /** Run in reverse order by stop(). */
  cleanups: Array<{ what: string; run: () => Promise<void> }>;
  /** The child processes that have not exited yet. */
  live: Set<ManagedProcess>;
  /** The supervised components, by name. */
  slots: Map<string, Slot>;
  /** Whether a component's exit is acted on: from the end of startup until stop(). */
  supervising: boolean;
  /** Whether supervision relaunches a component that exited. */
  restart: boolean;
  /** Kills every live child; on the process's `exit` until stop(). */
  killAllNow: () => void;
  reaper: Reaper;
  throwIfAborted(): void;
}

/** The run's identity, log sink and guards: children killed when the launcher exits, and the reaper for a SIGKILL. */
async function setUpLauncher(options: ClusterOptions): Promise<Launcher> {
  const { mode, signal } = options;
  const repoRoot = options.repoRoot ?? defaultRepoRoot;
  const specs = withReplicas(options.components ?? defaultComponents, options.replicas);
  const wmsDir = path.join(repoRoot, '.wms');
  const runSuffix = randomBytes(4).toString('hex');
  const runId = `${new Date().toISOString().replace(/[:.]/g, '-')}-${runSuffix}`;
  const sink =
    options.logs === 'files'
      ? await fileSink(path.join(wmsDir, 'logs'), runId)
      : stdoutSink(
          specs.map((s) => s.name),
          options.logs === 'pretty',
        );
  const live = new Set<ManagedProcess>();
  // Children run in their own process groups (so a Ctrl-C reaches them only through the launcher's orderly stop);
  // should the launcher exit without stop(), they must not outlive it.
  const killAllNow = () => {
    for (const proc of live) proc.child.kill('SIGKILL');
  };
  process.on('exit', killAllNow);
  return {
    mode,
    signal,
    operatorEnv: mode === 'dev' ? { ...process.env, ...options.env } : process.env,
    repoRoot,
    wmsDir,
    runSuffix,
    runId,
    specs,
    // A process that exits is reported at once; this bounds only a slow start, which on a machine busy with other
    // clusters (a full test run beside a bench) can take several times the quiet machine's few seconds.
    readyTimeoutMs: options.readyTimeoutMs ?? 90_000,
    sink,
    log: (line) => sink.write('launcher', line),
    cleanups: [],
    live,
    slots: new Map(),
    supervising: false,
    restart: false,
    killAllNow,
    // And should it die at once (SIGKILL), the reaper ends them.
    reaper: startReaper(tsxLoader),
    throwIfAborted: () => {
      if (signal?.aborted) throw new Error('cluster start aborted');
    },
  };
}

/** The cluster's stop(): ends supervision, then runs the cleanups in reverse order, once however often it is called. */
function stopFunction(launcher: Launcher): () => Promise<void> {
  let stopping: Promise<void> | undefined;
  return () =>
    (stopping ??= (async () => {
      // Before anything is stopped, so nothing is relaunched during shutdown.
      launcher.supervising = false;
      for (const slot of launcher.slots.values()) clearTimeout(slot.timer);
      for (const { what, run } of launcher.cleanups.reverse()) {
        try {
          await run();
        } catch (err) {
          launcher.log(`stop: ${what} failed: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
      process.removeListener('exit', launcher.killAllNow);
      launcher.reaper.close();
      launcher.log('stopped');
      await launcher.sink.close();
    })());
}

async function checkGatewayPort(gatewayPort: number | undefined): Promise<void> {
  if (gatewayPort !== undefined && !(await isPortFree(gatewayPort))) {
    throw new Error(`port ${gatewayPort} is in use; stop what listens there or choose another gateway port (PORT=...)`);
  }
}

/** The caller's Postgres and Redis, the environment's, the machine's, or ones the launcher starts (then stopped with it). */
async function resolveInfrastructure(
  launcher: Launcher,
  options: ClusterOptions,
): Promise<{ postgres: Dependency; redis: Dependency }> {
  const { log, reaper, cleanups } = launcher;
  // Both are awaited before either failure is thrown, so one that did start is stopped with the rest.
  const infra = { repoRoot: launcher.repoRoot, log, env: launcher.operatorEnv };
  const [postgresResult, redisResult] = await Promise.allSettled([
    options.postgresUrl ? callersDependency('postgres', options.postgresUrl, log) : resolvePostgres(infra),
    options.redisUrl || options.redisClusterNodes?.length
      ? callersDependency('redis', options.redisUrl ?? `redis://${options.redisClusterNodes![0]}`, log)
      : resolveRedis(infra),
  ]);
  for (const result of [postgresResult, redisResult])
    if (result.status === 'fulfilled' && result.value.process) reaper.watch(result.value.process);
  if (postgresResult.status === 'fulfilled')
    cleanups.push({ what: 'postgres', run: () => postgresResult.value.stop() });
  if (redisResult.status === 'fulfilled') cleanups.push({ what: 'redis', run: () => redisResult.value.stop() });
  const postgres = settledValue(postgresResult);
  // The machine's Postgres is set up for logical decoding once (a restart); DATABASE_URL's is only checked.
  if (postgres.source === 'local' || postgres.source === 'env') {
    await ensureLogicalDecoding(postgres.url, log, { restart: postgres.source === 'local' });
  }
  return { postgres, redis: settledValue(redisResult) };
}

/** Where the cluster keeps its data: a database on the Postgres and a key prefix on the Redis. */
interface ClusterData {
  databaseName: string;
  databaseUrl: string;
  redisUrl: string;
  redisClusterNodes: string[];
  redisPrefix: string;
}

/** Dev mode keeps database `wms` and prefix `wms`; a test run gets its own, removed on stop. */
async function prepareData(
  launcher: Launcher,
  postgres: Dependency,
  redis: Dependency,
  redisClusterNodes: string[],
): Promise<ClusterData> {
  const { mode, runSuffix, cleanups } = launcher;
  const databaseName = mode === 'dev' ? 'wms' : `wms_t_${runSuffix}`;
  await createDatabase(postgres.url, databaseName, mode === 'dev');
  if (mode === 'test')
    cleanups.push({ what: `drop database ${databaseName}`, run: () => dropDatabase(postgres.url, databaseName) });
  const databaseUrl = withDatabase(postgres.url, databaseName);

  const redisPrefix = mode === 'dev' ? 'wms' : `wms-t-${runSuffix}`;
  if (mode === 'test')
    cleanups.push({
      what: `delete redis keys ${redisPrefix}:*`,
      run: async () => void (await dropRedisPrefix({ url: redis.url, clusterNodes: redisClusterNodes }, redisPrefix)),
    });
  return { databaseName, databaseUrl, redisUrl: redis.url, redisClusterNodes, redisPrefix };
}

/** The components by kind, and the ports each listens on. */
interface Layout {
  grpcSpecs: ComponentSpec[];
  httpSpecs: ComponentSpec[];
  workerSpecs: ComponentSpec[];
  provider: ComponentSpec | undefined;
  /** The public rows (the gateway and its replicas). */
  gateways: ComponentSpec[];
  gatewayPort: number;
  portOf: Map<string, number>;
  metricsPortOf: Map<string, number>;
}

async function allocatePorts(specs: ComponentSpec[], givenGatewayPort: number | undefined): Promise<Layout> {
  // Workers get a port of their own too, for the gRPC health service they are to serve; every server and worker
  // one more for its metrics (the gateway serves /metrics on its own port), and the provider one for its readiness.
  const backSpecs = specs.filter((s) => s.kind !== 'http');
  const ports = await freePorts(specs.length + 2 + backSpecs.length);
  const gatewayPort = givenGatewayPort ?? ports.pop()!;
  const portOf = new Map<string, number>();
  // One gateway listens on the gateway port itself; several listen on ports of their own and are handed the
  // connections the balancer accepts on the gateway port.
  const gateways = specs.filter((spec) => spec.public);
  for (const spec of specs) portOf.set(spec.name, spec.public && gateways.length === 1 ? gatewayPort : ports.pop()!);
  const metricsPortOf = new Map<string, number>(backSpecs.map((spec) => [spec.name, ports.pop()!]));
  return {
    grpcSpecs: specs.filter((s) => s.kind === 'grpc'),
    httpSpecs: specs.filter((s) => s.kind === 'http'),
    workerSpecs: specs.filter((s) => s.kind === 'worker'),
    provider: specs.find((s) => s.kind === 'provider'),
    gateways,
    gatewayPort,
    portOf,
    metricsPortOf,
  };
}

/** The settings (settings.ts) with the launcher's defaults: the mail catcher, storage, keys and realtime app. */
async function resolveClusterSettings(launcher: Launcher, layout: Layout): Promise<Settings> {
  const { mode, wmsDir, cleanups, sink } = launcher;
  const { provider } = layout;
  const testStorageDir = path.join(wmsDir, 'test-storage', launcher.runId);
  if (mode === 'test')
    cleanups.push({ what: 'test storage', run: () => rm(testStorageDir, { recursive: true, force: true }) });
  return resolveSettings({
    mode,
    env: launcher.operatorEnv,
    root: launcher.repoRoot,
    defaults: {
      publicUrl: `http://localhost:${layout.gatewayPort}`,
      storageDir: mode === 'dev' ? path.join(wmsDir, 'storage') : testStorageDir,
      mailCatcher: async () => {
        const mailDir = mode === 'dev' ? path.join(wmsDir, 'mail') : undefined;
        const catcher = await startCatcher(mode, mailDir, (line) => sink.write('mail', line));
        cleanups.push({ what: 'mail catcher', run: () => catcher.stop() });
        return { smtpUrl: catcher.smtpUrl, inboxUrl: catcher.inboxUrl, dir: mailDir };
      },
      storageSecret: () => storageSecret(mode, wmsDir),
      jwtKeys: async () =>
        mode === 'dev'
          ? { ...(await persistentJwtKeys(path.join(wmsDir, 'jwt'))), dir: path.join(wmsDir, 'jwt') }
          : { ...generateJwtKeys(), dir: undefined },
      realtime: provider && {
        port: layout.portOf.get(provider.name)!,
        app: async () => {
          const file = path.join(wmsDir, 'realtime-app.json');
          return mode === 'dev'
            ? { ...(await persistentRealtimeApp(file)), file }
            : { ...generateRealtimeApp(), file: undefined };
        },
      },
    },
  });
}

/** The start banner's lines: the settings, then where the data lives. */
function settingSources(
  settings: Settings,
  data: ClusterData,
  { postgres, redis }: { postgres: Dependency; redis: Dependency },
  options: ClusterOptions,
): SettingSource[] {
  return [
    ...settings.sources,
    {
      name: 'database',
      value: `${data.databaseName} on ${describeDependency(postgres)}`,
      from: dependencyFrom(postgres, 'DATABASE_URL', options.postgresUrl),
    },
    {
      name: 'redis',
      value: `prefix "${data.redisPrefix}" on ${describeDependency(redis)}`,
      from: dependencyFrom(redis, 'REDIS_URL', options.redisUrl),
    },
  ];
}

type ProcessRole = 'migrate' | 'server' | 'worker';

/** How the processes find each other and their data: never the operator's or a test's to change. */
function wiringEnv(layout: Layout, data: ClusterData): Record<string, string> {
  const { grpcSpecs, portOf } = layout;
  return {
    DATABASE_URL: data.databaseUrl,
    REDIS_URL: data.redisUrl,
    REDIS_CLUSTER_NODES: data.redisClusterNodes.join(','),
    REDIS_PREFIX: data.redisPrefix,
    // A row with replicas is a list of their addresses, which the clients balance over.
    ...Object.fromEntries(
      grpcSpecs
        .filter((s) => s.replicaOf === undefined)
        .map((row) => {
          const addresses = grpcSpecs
            .filter((s) => (s.replicaOf ?? s.name) === row.name)
            .map((s) => `127.0.0.1:${portOf.get(s.name)}`);
          return [grpcUrlVariable(row.name), addresses.length === 1 ? addresses[0]! : `ipv4:${addresses.join(',')}`];
        }),
    ),
  };
}

/** Each process's environment: inherited, the settings, the caller's, the row's, then the wiring and its ports. */
function environmentFor(
  launcher: Launcher,
  options: ClusterOptions,
  layout: Layout,
  settings: Settings,
  data: ClusterData,
): (spec: ComponentSpec, role: ProcessRole) => NodeJS.ProcessEnv {
  const { mode, operatorEnv } = launcher;
  const { portOf, metricsPortOf, gatewayPort } = layout;
  const common: Record<string, string> = {
    LOG_LEVEL: operatorEnv.LOG_LEVEL || (mode === 'dev' ? 'info' : 'warn'),
    ...settings.env,
  };
  const wiring = wiringEnv(layout, data);
  return (spec, role) => ({
    ...poolShareOf(spec),
    ...inheritedEnv(mode),
    ...common,
    ...options.env,
    ...spec.env,
    ...spec.wiredEnv?.({
      port: portOf.get(spec.name)!,
      metricsPort: metricsPortOf.get(spec.name),
      gatewayPort,
      settings: settings.env,
    }),
    ...wiring,
    ROLE: role,
    // gRPC on loopback only: the processes reach each other there, and internal services are no one else's to call.
    ...(spec.kind === 'http'
      ? { PORT: String(portOf.get(spec.name)) }
      : spec.kind === 'provider'
        ? { PORT: String(portOf.get(spec.name)), METRICS_PORT: String(metricsPortOf.get(spec.name)) }
        : {
            GRPC_HOST: '127.0.0.1',
            GRPC_PORT: String(portOf.get(spec.name)),
            METRICS_PORT: String(metricsPortOf.get(spec.name)),
          }),
  });
}

interface ComponentStarter {
  /** Spawns a component's process from `repoRoot` (default the cluster's), watched by the reaper and killed should the launcher exit. */
  launch(spec: ComponentSpec, role: ProcessRole, repoRoot?: string): ManagedProcess;
  /** Launches a component that runs for the cluster's life, in a slot that supervision relaunches it into. */
  launchSlot(spec: ComponentSpec, role: 'server' | 'worker'): Slot;
}

function componentStarter(
  launcher: Launcher,
  layout: Layout,
  envFor: (spec: ComponentSpec, role: ProcessRole) => NodeJS.ProcessEnv,
): ComponentStarter {
  const { live, reaper, slots } = launcher;
  const launch = (spec: ComponentSpec, role: ProcessRole, repoRoot = launcher.repoRoot) => {
    // Several gateways are handed their connections by the balancer, over an IPC channel.
    const proc = spawnComponent(
      spec,
      repoRoot,
      envFor(spec, role),
      launcher.sink,
      spec.public === true && layout.gateways.length > 1,
    );
    live.add(proc);
    const pid = proc.child.pid;
    if (pid !== undefined) reaper.watch({ pid, group: true, signal: 'SIGTERM' });
    void proc.exited.then(() => {
      live.delete(proc);
      if (pid !== undefined) reaper.forget(pid);
    });
    return proc;
  };
  const launchSlot = (spec: ComponentSpec, role: 'server' | 'worker'): Slot => {
    const slot: Slot = {
      spec,
      role,
      proc: launch(spec, role),
      repoRoot: launcher.repoRoot,
      delayMs: undefined,
      timer: undefined,
    };
    slots.set(spec.name, slot);
    return slot;
  };
  // Should startup fail midway, whatever still runs (a migration, a server) is stopped with the rest.
  launcher.cleanups.push({
    what: 'stray processes',
    run: async () => void (await Promise.all([...live].map((p) => p.stop(STOP_GRACE_MS)))),
  });
  return { launch, launchSlot };
}

/** The provider starts while the migrations run; the services call it, so it is ready before any of them starts. */
async function startProviderAndMigrations(
  launcher: Launcher,
  layout: Layout,
  settings: Settings,
  starter: ComponentStarter,
): Promise<void> {
  const providerReady = settings.localRealtime ? startProvider(launcher, layout, starter) : Promise.resolve();
  const migrated = runMigrations(launcher, layout, starter);
  await Promise.all([providerReady, migrated]);
}

/** Launches the realtime provider (when the cluster has one); resolves once it is ready. */
function startProvider(launcher: Launcher, layout: Layout, starter: ComponentStarter): Promise<void> {
  const { provider, portOf, metricsPortOf } = layout;
  if (!provider) return Promise.resolve();
  const slot = starter.launchSlot(provider, 'server');
  launcher.cleanups.push({ what: provider.name, run: () => slot.proc.stop(STOP_GRACE_MS) });
  const probe = providerProbe(
    slot.proc,
    portOf.get(provider.name)!,
    metricsPortOf.get(provider.name)!,
    provider.readyPath ?? '/ready',
  );
  return waitReady(slot.proc, probe, launcher.readyTimeoutMs, launcher.signal).then(() =>
    launcher.log(`ready: ${provider.name}`),
  );
}

/** Each row that migrates runs its migrations (`ROLE=migrate`) from `repoRoot` to completion, all at once. */
async function runMigrations(
  launcher: Launcher,
  layout: Layout,
  starter: ComponentStarter,
  repoRoot = launcher.repoRoot,
): Promise<void> {
  const migrations = layout.grpcSpecs.concat(layout.httpSpecs).filter((s) => s.migrate);
  if (migrations.length === 0) return;
  launcher.log(`migrating: ${migrations.map((s) => s.name).join(', ')} (from ${repoRoot})`);
  const results = await Promise.allSettled(
    migrations.map((spec) =>
      runToCompletion(starter.launch(spec, 'migrate', repoRoot), MIGRATE_TIMEOUT_MS, launcher.signal),
    ),
  );
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}

/** Starts the gRPC services and workers, all at once; resolves with their metrics URLs once every one is ready. */
async function startBackServices(
  launcher: Launcher,
  layout: Layout,
  starter: ComponentStarter,
): Promise<Record<string, string>> {
  const { grpcSpecs, workerSpecs, portOf, metricsPortOf } = layout;
  const { log } = launcher;
  // Each cleanup stops the slot's process of the moment, so a restarted one is stopped too.
  const backSlots: Slot[] = [];
  launcher.cleanups.push({
    what: 'grpc services and workers',
    run: async () => void (await Promise.all(backSlots.map((s) => s.proc.stop(STOP_GRACE_MS)))),
  });
  backSlots.push(
    ...grpcSpecs.map((spec) => starter.launchSlot(spec, 'server')),
    ...workerSpecs.map((spec) => starter.launchSlot(spec, 'worker')),
  );
  // Servers and workers alike answer grpc.health.v1 SERVING once their dependencies answer.
  await Promise.all(
    backSlots.map(({ proc }) =>
      waitReady(proc, grpcProbe(portOf.get(proc.name)!), launcher.readyTimeoutMs, launcher.signal),
    ),
  );
  log(`ready: ${[...grpcSpecs, ...workerSpecs].map((s) => s.name).join(', ') || '(no grpc services)'}`);
  // The provider's port serves readiness, not Prometheus metrics.
  const metricsUrls = Object.fromEntries(
    [...grpcSpecs, ...workerSpecs].map((spec) => [
      spec.name,
      `http://127.0.0.1:${metricsPortOf.get(spec.name)}/metrics`,
    ]),
  );
  if (Object.keys(metricsUrls).length > 0)
    log(
      `metrics: ${Object.entries(metricsUrls)
        .map(([name, url]) => `${name} ${url}`)
        .join(', ')}`,
    );
  return metricsUrls;
}

/** Starts the HTTP rows (the gateway and its replicas) one by one, then, for several gateways, the balancer. */
async function startGateways(launcher: Launcher, layout: Layout, starter: ComponentStarter): Promise<void> {
  const { gateways, gatewayPort } = layout;
  const { log } = launcher;
  for (const spec of layout.httpSpecs) {
    const slot = starter.launchSlot(spec, 'server');
    launcher.cleanups.push({ what: spec.name, run: () => slot.proc.stop(STOP_GRACE_MS) });
    await waitReady(
      slot.proc,
      httpProbe(`http://127.0.0.1:${layout.portOf.get(spec.name)}${spec.readyPath ?? '/readyz'}`),
      launcher.readyTimeoutMs,
      launcher.signal,
    );
    log(`ready: ${spec.name}`);
  }
  if (gateways.length > 1) {
    const balancer = await startBalancer(
      gatewayPort,
      () => gateways.flatMap((g) => launcher.slots.get(g.name)?.proc.handoff ?? []),
      log,
    );
    // Stopped first (cleanups run in reverse): no new connection reaches a gateway that is stopping.
    launcher.cleanups.push({ what: 'balancer', run: () => balancer.close() });
    log(`balancer: 127.0.0.1:${gatewayPort} handing connections to ${gateways.map((g) => g.name).join(', ')}`);
  }
}

/** From here until stop(), a component that exits (a worker may already have) is relaunched, or at least reported. */
function superviseAll(launcher: Launcher, starter: ComponentStarter): void {
  launcher.supervising = true;
  for (const slot of launcher.slots.values()) supervise(launcher, slot, starter);
}

function supervise(launcher: Launcher, slot: Slot, starter: ComponentStarter): void {
  const { proc } = slot;
  const { log } = launcher;
  void proc.exited.then((code) => {
    // A process being replaced (replaceComponent) exits on purpose.
    if (!launcher.supervising || slot.proc !== proc || slot.retiring === proc) return;
    const why = code === null ? `signal ${proc.child.signalCode}` : `code ${code}`;
    if (!launcher.restart) {
      log(
        `${proc.name} exited unexpectedly (${why}); not restarted (restart is off); last output: ${lastOutput(proc)}`,
      );
      return;
    }
    slot.delayMs = nextRestartDelay(slot.delayMs, Date.now() - proc.startedAt);
    log(`${proc.name} exited (${why}); restarting in ${slot.delayMs} ms; last output: ${lastOutput(proc)}`);
    slot.timer = setTimeout(() => {
      slot.timer = undefined;
      if (!launcher.supervising) return;
      slot.proc = starter.launch(slot.spec, slot.role, slot.repoRoot);
      log(`${proc.name} restarted (pid ${slot.proc.child.pid ?? 'none'})`);
      supervise(launcher, slot, starter);
    }, slot.delayMs);
  });
}

/** A rolling update's step for one process (the cluster's `replace`). */
async function replaceComponent(
  launcher: Launcher,
  layout: Layout,
  starter: ComponentStarter,
  name: string,
  { repoRoot, graceMs = 30_000, minReadyMs = 0 }: { repoRoot?: string; graceMs?: number; minReadyMs?: number } = {},
): Promise<Replacement> {
  const slot = launcher.slots.get(name);
  if (!slot) throw new Error(`no component ${name}`);
  clearTimeout(slot.timer);
  const old = slot.proc;
  slot.retiring = old;
  const stopping = Date.now();
  await old.stop(graceMs);
  const exitCode = await old.exited;
  const stoppedMs = Date.now() - stopping;
  slot.repoRoot = repoRoot ?? slot.repoRoot;
  slot.proc = starter.launch(slot.spec, slot.role, slot.repoRoot);
  slot.retiring = undefined;
  const starting = Date.now();
  if (launcher.supervising) supervise(launcher, slot, starter);
  await waitReady(slot.proc, probeOf(slot, layout), launcher.readyTimeoutMs, launcher.signal);
  const readyMs = Date.now() - starting;
  launcher.log(
    `replaced ${name} (exit ${exitCode ?? old.child.signalCode} after ${stoppedMs} ms, ready in ${readyMs} ms)`,
  );
  await sleep(minReadyMs);
  return { stoppedMs, exitCode, readyMs };
}

/** How the launcher knows a component's process is ready (components.ts). */
function probeOf(slot: Slot, layout: Layout): Probe {
  const { spec } = slot;
  const port = layout.portOf.get(spec.name)!;
  if (spec.kind === 'http') return httpProbe(`http://127.0.0.1:${port}${spec.readyPath ?? '/readyz'}`);
  if (spec.kind === 'provider')
    return providerProbe(slot.proc, port, layout.metricsPortOf.get(spec.name)!, spec.readyPath ?? '/ready');
  return grpcProbe(port);
}

function settledValue<T>(result: PromiseSettledResult<T>): T {
  if (result.status === 'rejected') throw result.reason;
  return result.value;
}

/** A caller's own Postgres or Redis: used as given and left running. */
async function callersDependency(what: string, url: string, log: (line: string) => void): Promise<Dependency> {
  log(`${what}: given by the caller (${redact(url)})`);
  return { url, source: 'given', stop: async () => {} };
}

function describeDependency(dep: Dependency): string {
  const where = redact(dep.url);
  return dep.source === 'started' ? `${where} (started by the launcher)` : where;
}

function dependencyFrom(dep: Dependency, variable: string, given: string | undefined): string {
  if (given) return 'caller';
  return dep.source === 'env' ? variable : 'default';
}

/** Restart backoff: 250 ms doubling to 10 s, back to 250 ms once the process had stayed up 30 s. */
export function nextRestartDelay(previousMs: number | undefined, upMs: number): number {
  if (previousMs === undefined || upMs >= RESTART_RESET_AFTER_MS) return RESTART_FIRST_DELAY_MS;
  return Math.min(previousMs * 2, RESTART_MAX_DELAY_MS);
}

/** The key that signs fs download URLs: kept in `.wms/storage-secret` across dev starts, fresh per test run. */
async function storageSecret(
  mode: 'dev' | 'test',
  wmsDir: string,
): Promise<{ secret: string; file: string | undefined }> {
  if (mode === 'test') return { secret: randomBytes(32).toString('hex'), file: undefined };
  const secretFile = path.join(wmsDir, 'storage-secret');
  let secret = (await readFile(secretFile, 'utf8').catch(() => '')).trim();
  if (secret.length < 32) {
    secret = randomBytes(32).toString('hex');
    await mkdir(wmsDir, { recursive: true });
    await writeFile(secretFile, secret, { mode: 0o600 });
  }
  return { secret, file: secretFile };
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
  const [privateKey, publicKey] = await Promise.all([
    readFile(privatePath, 'utf8').catch(() => ''),
    readFile(publicPath, 'utf8').catch(() => ''),
  ]);
  if (privateKey && publicKey) return { privateKey, publicKey };
  const keys = generateJwtKeys();
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await writeFile(privatePath, keys.privateKey, { mode: 0o600 });
  await writeFile(publicPath, keys.publicKey);
  return keys;
}

async function startCatcher(
  mode: 'dev' | 'test',
  dir: string | undefined,
  log: (line: string) => void,
): Promise<SmtpCatcher> {
  if (mode === 'test') return startSmtpCatcher({ smtpPort: 0, httpPort: 0, log });
  // Well-known ports for developers' mail clients and bookmarks, when nothing else holds them.
  const [smtpFree, httpFree] = await Promise.all([isPortFree(SMTP_PORT), isPortFree(INBOX_PORT)]);
  const catcher = await startSmtpCatcher({
    smtpPort: smtpFree ? SMTP_PORT : 0,
    httpPort: httpFree ? INBOX_PORT : 0,
    dir,
    log,
  });
  // Said out loud: a developer's mail client or bookmark still points at the usual port.
  if (!smtpFree)
    log(`warning: port ${SMTP_PORT} is taken; SMTP on port ${catcher.smtpPort} instead (${catcher.smtpUrl})`);
  if (!httpFree)
    log(`warning: port ${INBOX_PORT} is taken; the inbox is on port ${catcher.httpPort} instead (${catcher.inboxUrl})`);
  return catcher;
}

/** The launcher's environment minus what the launcher decides per process. */
// What configures a wms process (docs/configuration.md): in test mode none of it comes from the developer's shell.
const WMS_SETTING =
  /^(AUTH_RATE_LIMIT_\w+|S3_\w+|STORAGE_\w+|PUSHER_\w+|SOKETI_\w+|JWT_\w+|SMTP_URL|MAIL_FROM|PUBLIC_URL|TRUST_PROXY|SESSION_TTL_SECONDS|GRPC_DEADLINE_MS|UPLOAD_IDLE_TIMEOUT_MS|TOKEN_RATE_LIMIT_PER_MINUTE|INVITATION_RATE_LIMIT_PER_HOUR|SEARCH_TEXT_CONFIG|CLEANUP_SWEEP_MS|PRESENCE_SWEEP_MS|DATABASE_POOL_MAX)$/;

function inheritedEnv(mode: 'dev' | 'test'): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) {
    // A schema from the developer's shell would make every service share it.
    if (
      ['ROLE', 'PORT', 'GRPC_HOST', 'GRPC_PORT', 'METRICS_PORT', 'DATABASE_SCHEMA'].includes(key) ||
      key.endsWith('_GRPC_URL')
    )
      delete env[key];
    if (mode === 'test' && WMS_SETTING.test(key)) delete env[key];
  }
  return env;
}

interface LogSink {
  dir: string | undefined;
  write(name: string, line: string): void;
  close(): Promise<void>;
}

function stdoutSink(names: string[], pretty: boolean): LogSink {
  const width = Math.max(...['launcher', 'mail', ...names].map((n) => n.length)) + 2;
  const colour = pretty && process.stdout.isTTY && !process.env.NO_COLOR;
  return {
    dir: undefined,
    write: (name, line) =>
      process.stdout.write(`${`[${name}]`.padEnd(width)} ${pretty ? prettyLine(line, colour) : line}\n`),
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
  await Promise.all(
    runs
      .slice(0, Math.max(0, runs.length - KEPT_LOG_RUNS))
      .map((run) => rm(path.join(root, run), { recursive: true, force: true })),
  );
}

interface ManagedProcess {
  name: string;
  child: ChildProcess;
  startedAt: number;
  /** Resolves with the exit code (null when killed by a signal); never rejects. */
  exited: Promise<number | null>;
  tail(): string;
  stop(graceMs: number): Promise<void>;
  /** Set when it was started with an IPC channel, to be handed connections (balancer.ts). */
  handoff: HandoffTarget | undefined;
}

/** The program and arguments of a row: a TypeScript entry under tsx, or the row's own command. */
function commandLine(spec: ComponentSpec, repoRoot: string): [string, string[]] {
  // WMS_CPU_PROF_DIR: each Node process writes a V8 CPU profile there when it exits (docs/benchmark.md).
  const profile = process.env.WMS_CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.WMS_CPU_PROF_DIR}`] : [];
  if (spec.entry !== undefined)
    return [process.execPath, [...profile, '--import', tsxLoader, path.resolve(repoRoot, spec.entry)]];
  return [spec.command, [...(spec.args ?? [])]];
}

function spawnComponent(
  spec: ComponentSpec,
  repoRoot: string,
  env: NodeJS.ProcessEnv,
  sink: LogSink,
  ipc: boolean,
): ManagedProcess {
  const [command, args] = commandLine(spec, repoRoot);
  const child = spawn(command, args, {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe', ...(ipc ? (['ipc'] as const) : [])],
    detached: true,
  });
  const lines: string[] = [];
  const record = (line: string) => {
    // Some programs (Soketi) frame their messages with blank lines, which say nothing in a merged log.
    if (line.trim() === '') return;
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
    startedAt: Date.now(),
    exited,
    tail: () => lines.join('\n') || '(no output)',
    stop: (graceMs) => terminate(child, exited, graceMs),
    handoff: ipc ? handoffTarget(child) : undefined,
  };
}

/** A supervised component: its process of the moment, the tree it runs from, and its restart backoff. */
interface Slot {
  spec: ComponentSpec;
  role: 'server' | 'worker';
  proc: ManagedProcess;
  repoRoot: string;
  /** The process a replacement is stopping. */
  retiring?: ManagedProcess;
  delayMs: number | undefined;
  timer: NodeJS.Timeout | undefined;
}

/** The end of a process's output on one line, for the line that reports its exit. */
function lastOutput(proc: ManagedProcess): string {
  const lines = proc.tail().split('\n').slice(-3);
  const joined = lines.map((line) => (line.length > 300 ? `${line.slice(0, 300)}…` : line)).join(' | ');
  return joined;
}

function hasExited(proc: ManagedProcess): boolean {
  return proc.child.exitCode !== null || proc.child.signalCode !== null;
}

async function runToCompletion(
  proc: ManagedProcess,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!hasExited(proc)) {
    if (signal?.aborted) throw new Error('cluster start aborted');
    if (Date.now() > deadline) {
      await proc.stop(1000);
      throw new Error(
        `${proc.name} migration did not finish within ${timeoutMs / 1000} s; last output:\n${proc.tail()}`,
      );
    }
    await Promise.race([proc.exited, sleep(100)]);
  }
  const code = await proc.exited;
  if (code !== 0)
    throw new Error(
      `${proc.name} migration failed (exit ${code ?? proc.child.signalCode}); last output:\n${proc.tail()}`,
    );
}

type Probe = { check(): Promise<boolean>; close(): void };

async function waitReady(
  proc: ManagedProcess,
  probe: Probe,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      if (hasExited(proc)) {
        throw new Error(
          `${proc.name} exited (${proc.child.exitCode ?? proc.child.signalCode}) before it was ready; last output:\n${proc.tail()}`,
        );
      }
      if (signal?.aborted) throw new Error('cluster start aborted');
      if (await probe.check()) return;
      if (Date.now() > deadline)
        throw new Error(`${proc.name} was not ready within ${timeoutMs / 1000} s; last output:\n${proc.tail()}`);
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

/**
 * The provider's readiness, answered by its own process: Soketi reports success even on a taken port, and listens with
 * SO_REUSEPORT, so another instance on the same port would answer the probe, or half of the clients.
 */
function providerProbe(proc: ManagedProcess, port: number, metricsPort: number, readyPath: string): Probe {
  const ready = httpProbe(`http://127.0.0.1:${metricsPort}${readyPath}`);
  return {
    async check() {
      if (!(await ready.check())) return false;
      for (const p of [port, metricsPort]) {
        const listeners = await listenersOf(p, proc.child.pid!);
        if (listeners?.others)
          throw new Error(`${proc.name}: another process listens on port ${p} too (a port clash); start again`);
        if (listeners && !listeners.self) return false;
      }
      return true;
    },
    close: () => ready.close(),
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
