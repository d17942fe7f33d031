import { loadService, type ServiceName } from '@wms/protos';
import { createDb, type Knex, type Migration, runMigrationRole } from './db.ts';
import { bindHandlers, onShutdown, type ServiceHandlers, startGrpcServer, startHealthServer } from './grpc-server.ts';
import { type DependencyCheck, postgresCheck } from './health.ts';
import { createLogger, type Logger } from './logger.ts';
import { type ProcessMetrics, startProcessMetrics } from './metrics.ts';

/** The settings every service of the topology reads (kit config's `serviceEnvOf`). */
export interface ServiceConfig {
  LOG_LEVEL: string;
  ROLE: string;
  GRPC_HOST: string;
  GRPC_PORT: number;
  METRICS_PORT: number;
  DATABASE_URL: string;
  DATABASE_SCHEMA: string;
  DATABASE_POOL_MAX: number;
  WMS_STATEMENT_LOG?: string | undefined;
}

/** What every server or worker process of a service holds, made by `runService` before the role starts. */
export interface ProcessBase {
  log: Logger;
  db: Knex;
  metrics: ProcessMetrics;
}

/** A started role: its dependencies besides Postgres (health is NOT_SERVING while one fails), and how it stops. */
export interface StartedRole {
  checks?: DependencyCheck[];
  /** Shutdown steps after the gRPC server stopped and before the pool closes, in order. */
  stop?: Array<[string, () => Promise<unknown>]>;
}

export interface StartedServer<N extends ServiceName> extends StartedRole {
  handlers: ServiceHandlers<N>;
}

export interface ServiceRoles<N extends ServiceName> {
  migrations: Migration[];
  /** Runs in the migrate role after the migrations (outside any transaction). */
  migrated?(db: Knex, log: Logger): Promise<unknown>;
  server(base: ProcessBase): Promise<StartedServer<N>>;
  /** The BullMQ consumers of a service with queues; its process serves grpc.health.v1 only. */
  worker?(base: ProcessBase): Promise<StartedRole>;
}

/**
 * Runs the process `config.ROLE` asks for, the same way in every service: `migrate` applies the migrations and
 * exits; `server` serves the service's RPCs, `worker` runs its queues; both serve health and metrics and stop in
 * order on SIGTERM (gRPC off, the role's own steps, the pool, metrics).
 */
export async function runService<N extends ServiceName>(
  name: N,
  config: ServiceConfig,
  roles: ServiceRoles<N>,
): Promise<void> {
  const worker = config.ROLE === 'worker';
  const log = createLogger(worker ? `${name}-worker` : name, config.LOG_LEVEL);
  const db = createDb({
    url: config.DATABASE_URL,
    schema: config.DATABASE_SCHEMA,
    log,
    poolMax: config.DATABASE_POOL_MAX,
    // Test-only (docs/configuration.md): what a server or worker sends, for the end-to-end suite's statement test; not
    // what a migration sends, once.
    statementLog: config.ROLE === 'migrate' ? undefined : config.WMS_STATEMENT_LOG,
    // A migration's index build or validation reads a whole table; what it may wait for a lock is its own to bound.
    ...(config.ROLE === 'migrate' ? { statementTimeoutMs: 0 } : {}),
  });
  if (config.ROLE === 'migrate') {
    return runMigrationRole(db, config.DATABASE_SCHEMA, roles.migrations, log, async (knex) =>
      roles.migrated?.(knex, log),
    );
  }
  if (worker && !roles.worker) throw new Error(`${name} has no worker role`);

  const { metrics, server: metricsServer } = await startProcessMetrics({
    port: config.METRICS_PORT,
    host: config.GRPC_HOST,
    log,
    db,
  });
  const base: ProcessBase = { log, db, metrics };
  const started: StartedRole & { handlers?: ServiceHandlers<N> } = worker
    ? await roles.worker!(base)
    : await roles.server(base);
  const listen = {
    port: config.GRPC_PORT,
    host: config.GRPC_HOST,
    dependencies: { checks: [postgresCheck(db), ...(started.checks ?? [])], log },
  };
  const { service } = loadService(name);
  const grpc = started.handlers
    ? await startGrpcServer({
        ...listen,
        services: [{ definition: service, implementation: bindHandlers(service, started.handlers, log, metrics) }],
      })
    : await startHealthServer(listen);
  log.info(
    { host: config.GRPC_HOST, port: grpc.port, metrics_port: metricsServer.port },
    worker ? `${name} worker running` : `${name} serving`,
  );
  onShutdown(log, [
    ['grpc', () => grpc.stop()],
    ...(started.stop ?? []),
    ['db', () => db.destroy()],
    ['metrics', () => metricsServer.close()],
  ]);
}
