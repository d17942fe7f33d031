import * as grpc from '@grpc/grpc-js';
import type { MethodDefinition } from '@grpc/proto-loader';
import { loadHealthProto, type ServiceDefinitions, type ServiceName, type topology } from '@wms/protos';
import type { Logger } from 'pino';
import { type CallContext, contextFromHeaders, requestContext } from './context.ts';
import { DomainError, invalidInput, isDependencyOutage, isUnstorableText, unavailable } from './errors.ts';
import { internalGrpcError, toGrpcError } from './grpc-errors.ts';
import {
  type DependencyMonitor,
  type DependencyMonitorOptions,
  HealthService,
  serviceNameOf,
  startDependencyMonitor,
} from './health.ts';
import type { ProcessMetrics } from './metrics.ts';

export { HealthService } from './health.ts';

/**
 * Promise-style handlers for a generated service definition: `(request, ctx) => Promise<response>`; the
 * client-streaming methods named in `S` take the requests as an async iterable instead.
 */
export type AsyncHandlers<D, S extends string = never> = {
  [K in keyof D as string extends K ? never : K]: D[K] extends MethodDefinition<never, infer Res, infer ReqOut, unknown>
    ? K extends S
      ? (requests: AsyncIterable<ReqOut>, ctx: CallContext) => Promise<Res>
      : (req: ReqOut, ctx: CallContext) => Promise<Res>
    : never;
};

/** The handlers of one service of the topology, typed by its row. */
export type ServiceHandlers<N extends ServiceName> = AsyncHandlers<
  ServiceDefinitions[N],
  (typeof topology)[N]['clientStreams'][number]
>;

/**
 * Adapts promise-style handlers to grpc-js: context from metadata, request-scoped logs, errors to statuses; with
 * `metrics`, each call is counted and timed by method and status code.
 */
export function bindHandlers<D extends grpc.ServiceDefinition, S extends string = never>(
  definition: D,
  handlers: AsyncHandlers<D, S>,
  log: Logger,
  metrics?: ProcessMetrics,
): grpc.UntypedServiceImplementation {
  const impl: grpc.UntypedServiceImplementation = {};
  const service = serviceNameOf(definition) ?? 'unknown';
  for (const name of Object.keys(definition)) {
    const handler = (handlers as Record<string, unknown>)[name] as (req: unknown, ctx: CallContext) => Promise<unknown>;
    // A client-streaming call is itself an async iterable of the requests.
    const streaming = definition[name]!.requestStream;
    impl[name] = (
      call: grpc.ServerUnaryCall<unknown, unknown> | grpc.ServerReadableStream<unknown, unknown>,
      reply: grpc.sendUnaryData<unknown>,
    ) => {
      const started = performance.now();
      let counted = false;
      const count = (code: grpc.status) => {
        if (counted || !metrics) return;
        counted = true;
        metrics.observeGrpcCall(service, name, grpc.status[code] ?? String(code), (performance.now() - started) / 1000);
      };
      // A call the client cancelled, or whose deadline passed, ends then (grpc-js answers it), not when its handler does.
      if (metrics) call.on('cancelled', () => count(grpc.status.CANCELLED));
      const callback: grpc.sendUnaryData<unknown> = (err, res) => {
        count(err?.code ?? grpc.status.OK);
        reply(err, res);
      };
      const ctx = contextFromHeaders((key) => {
        const value = call.metadata.get(key)[0];
        return typeof value === 'string' ? value : undefined;
      });
      requestContext.run(ctx, () => {
        handler(streaming ? call : (call as grpc.ServerUnaryCall<unknown, unknown>).request, ctx).then(
          (res) => callback(null, res),
          (err: unknown) => {
            if (err instanceof DomainError && err.kind !== 'internal') {
              log.debug({ rpc: name, code: err.code }, 'rpc refused');
              callback(toGrpcError(err));
            } else if (isDependencyOutage(err)) {
              log.warn({ rpc: name, err }, 'rpc failed: a dependency is unavailable');
              callback(toGrpcError(unavailable()));
            } else if (isUnstorableText(err)) {
              callback(
                toGrpcError(
                  invalidInput([
                    { field: 'body', message: 'contains text that cannot be stored (U+0000 or invalid UTF-8)' },
                  ]),
                ),
              );
            } else {
              log.error({ rpc: name, err }, 'rpc failed');
              callback(internalGrpcError());
            }
          },
        );
      });
    };
  }
  return impl;
}

export interface GrpcServerOptions {
  port: number;
  /** The address to listen on (a service's `GRPC_HOST`): required, so nothing listens on every interface unasked. */
  host: string;
  services: Array<{ definition: grpc.ServiceDefinition; implementation: grpc.UntypedServiceImplementation }>;
  /**
   * The process's dependencies (health.ts: `postgresCheck`, `redisCheck`): health is NOT_SERVING while any of them
   * fails. Checked once before the port opens, then every second until `stop()`.
   */
  dependencies?: DependencyMonitorOptions;
  /** How long a client connection lives before the server asks the client to reconnect (default `MAX_CONNECTION_AGE_MS`). */
  maxConnectionAgeMs?: number;
}

/**
 * Clients reconnect, and so resolve their peer's replicas again, at least this often: a replica the autoscaler adds
 * gets calls within minutes. The server sends GOAWAY; calls in flight on that connection get the grace.
 */
export const MAX_CONNECTION_AGE_MS = 120_000;
/** How long the calls in flight on an aged connection may still take (an upload included). */
export const MAX_CONNECTION_AGE_GRACE_MS = 300_000;

export interface RunningGrpcServer {
  server: grpc.Server;
  port: number;
  health: HealthService;
  monitor?: DependencyMonitor;
  /** Health off for good (and its monitor stopped), then finish in-flight calls (forcing after `graceMs`). */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Starts a gRPC server with the given services plus grpc.health.v1, which answers for "" and each service's full
 * name; port 0 picks a free port.
 */
export async function startGrpcServer({
  port,
  host,
  services,
  dependencies,
  maxConnectionAgeMs = MAX_CONNECTION_AGE_MS,
}: GrpcServerOptions): Promise<RunningGrpcServer> {
  const server = new grpc.Server({
    'grpc.max_receive_message_length': 16 * 1024 * 1024,
    'grpc.max_connection_age_ms': maxConnectionAgeMs,
    'grpc.max_connection_age_grace_ms': MAX_CONNECTION_AGE_GRACE_MS,
  });
  const health = new HealthService(
    services.map((s) => serviceNameOf(s.definition)).filter((name): name is string => name !== undefined),
  );
  const monitor = dependencies ? await startDependencyMonitor(health, dependencies) : undefined;
  server.addService(loadHealthProto().grpc.health.v1.Health.service, health.implementation());
  for (const s of services) server.addService(s.definition, s.implementation);
  let bound: number;
  try {
    bound = await new Promise<number>((resolve, reject) =>
      server.bindAsync(`${host}:${port}`, grpc.ServerCredentials.createInsecure(), (err, p) =>
        err ? reject(err) : resolve(p),
      ),
    );
  } catch (err) {
    monitor?.stop();
    throw err;
  }
  return {
    server,
    port: bound,
    health,
    monitor,
    async stop(graceMs = 5000) {
      health.shutdown();
      monitor?.stop();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, graceMs);
        server.tryShutdown(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  };
}

/**
 * The gRPC server of a role that serves no RPCs (a BullMQ worker): grpc.health.v1 only, following the role's
 * dependencies, so the chart probes workers the same way as servers.
 */
export function startHealthServer(options: {
  port: number;
  host: string;
  dependencies: DependencyMonitorOptions;
}): Promise<RunningGrpcServer> {
  return startGrpcServer({ ...options, services: [] });
}

/**
 * Runs the shutdown steps in order on SIGTERM or SIGINT, then exits; a hard timeout exits anyway.
 * Each step is named for the log; a failing step does not stop the ones after it.
 */
export function onShutdown(log: Logger, steps: Array<[string, () => Promise<unknown>]>, hardTimeoutMs = 15_000): void {
  let stopping = false;
  const run = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    setTimeout(() => {
      log.error('shutdown timed out; exiting');
      process.exit(1);
    }, hardTimeoutMs).unref();
    for (const [name, step] of steps) {
      try {
        await step();
      } catch (err) {
        log.error({ err, step: name }, 'shutdown step failed');
      }
    }
    log.info('stopped');
    process.exit(0);
  };
  process.once('SIGTERM', () => void run('SIGTERM'));
  process.once('SIGINT', () => void run('SIGINT'));
}
