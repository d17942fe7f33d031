import { once } from 'node:events';
import * as grpc from '@grpc/grpc-js';
import type { Redis } from 'ioredis';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { HEALTH_PROBE_SQL } from './metrics.ts';

export type ServingStatus = 'SERVING' | 'NOT_SERVING';

/**
 * The health name a liveness probe asks: SERVING while the process runs, whatever its dependencies say, so that an
 * outage of Postgres or Redis takes pods out of service (readiness, name "") without restarting them.
 */
export const LIVENESS_SERVICE = 'liveness';

/**
 * The grpc.health.v1 service. It knows the overall status (service "") and the full name of every service the
 * server registered (`wms.messaging.v1.MessagingService`), all following the same status, since they share the
 * process's dependencies; `liveness` is always SERVING; any other name is NOT_FOUND (Watch: SERVICE_UNKNOWN), so a
 * probe with a mistyped name fails.
 * The dependency monitor sets the status; `shutdown()` turns it off for good, so nothing (a monitor round still in
 * flight) can report SERVING while the process drains.
 */
export class HealthService {
  private status: ServingStatus = 'SERVING';
  private shuttingDown = false;
  private readonly names = new Set<string>(['']);
  /** Open Watch streams, with whether they watch a known name (only those get status changes). */
  private readonly watchers = new Map<grpc.ServerWritableStream<unknown, unknown>, boolean>();

  /** @param services full names of the services reported besides the overall status "". */
  constructor(services: Iterable<string> = []) {
    for (const name of services) this.names.add(name);
  }

  get current(): ServingStatus {
    return this.status;
  }

  /** The names answered (the overall "" first). */
  get services(): readonly string[] {
    return [...this.names];
  }

  /** Sets the status and tells watchers when it changed; ignored once `shutdown()` began. */
  set(status: ServingStatus): void {
    if (this.shuttingDown || status === this.status) return;
    this.status = status;
    for (const [call, known] of this.watchers) if (known) call.write({ status });
  }

  /** NOT_SERVING from now on; open Watch streams get it and end. */
  shutdown(): void {
    this.set('NOT_SERVING');
    this.shuttingDown = true;
    for (const call of this.watchers.keys()) call.end();
    this.watchers.clear();
  }

  implementation(): grpc.UntypedServiceImplementation {
    const nameOf = (call: { request: unknown }) => {
      const service = (call.request as { service?: unknown } | undefined)?.service;
      return typeof service === 'string' ? service : '';
    };
    return {
      Check: (call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => {
        const name = nameOf(call);
        if (name === LIVENESS_SERVICE) return callback(null, { status: 'SERVING' });
        if (!this.names.has(name))
          return callback({ code: grpc.status.NOT_FOUND, details: `unknown service "${name}"` });
        callback(null, { status: this.status });
      },
      // As the health protocol asks: an unknown name gets SERVICE_UNKNOWN and the stream stays open.
      Watch: (call: grpc.ServerWritableStream<unknown, unknown>) => {
        if (nameOf(call) === LIVENESS_SERVICE) {
          call.write({ status: 'SERVING' });
          return void call.end();
        }
        const known = this.names.has(nameOf(call));
        call.write({ status: known ? this.status : 'SERVICE_UNKNOWN' });
        // A watch that arrives while draining must not hold the server's graceful shutdown open.
        if (this.shuttingDown) return void call.end();
        this.watchers.set(call, known);
        call.on('cancelled', () => this.watchers.delete(call));
      },
    };
  }
}

/** The full name of a service definition (`wms.messaging.v1.MessagingService`), read from its methods' paths. */
export function serviceNameOf(definition: grpc.ServiceDefinition): string | undefined {
  const first = Object.values(definition)[0];
  return first?.path.match(/^\/([^/]+)\//)?.[1];
}

/** One dependency of a process, as the monitor sees it. */
export interface DependencyCheck {
  /** Named in the transition log lines: `postgres`, `redis`. */
  name: string;
  /** Resolves when the dependency answers; rejects, or outlasts the monitor's timeout, when it does not. */
  check(): Promise<unknown>;
}

/** `select 1` through the service's own knex pool (so a pool that cannot connect fails it too), counted as `health`. */
export function postgresCheck(knex: Knex, name = 'postgres'): DependencyCheck {
  return {
    name,
    check: async () => {
      await knex.raw(HEALTH_PROBE_SQL);
    },
  };
}

/**
 * PING on each of the process's clients of one Redis. A client that is not connected fails at once instead of
 * queueing the PING (a BullMQ worker connection has an offline queue and retries forever), with its last error.
 */
export function redisCheck(clients: Redis | Redis[], name = 'redis'): DependencyCheck {
  const list = Array.isArray(clients) ? clients : [clients];
  const lastError = new Map<Redis, string>();
  for (const client of list) client.on('error', (err: Error) => lastError.set(client, describeError(err)));
  return {
    name,
    check: async () => {
      for (const client of list) {
        // A client still making its first connection (the process has just started) is waited for, not failed.
        if ((client.status === 'connecting' || client.status === 'connect') && !lastError.has(client))
          await once(client, 'ready');
        if (client.status !== 'ready') {
          const last = lastError.get(client);
          throw new Error(`connection ${client.status}${last ? ` (${last})` : ''}`);
        }
      }
      await Promise.all(list.map((client) => client.ping()));
    },
  };
}

export interface DependencyMonitorOptions {
  checks: DependencyCheck[];
  log: Logger;
  /** Pause between rounds. */
  intervalMs?: number;
  /**
   * How long one check may take before it counts as failed. A refused connection fails at once whatever this is; it
   * bounds only a dependency that hangs. Not shorter: on a loaded machine a `select 1` on a fresh connection can take
   * over a second, and a pod taken out of service for being slow under load leaves the load to fewer pods.
   */
  timeoutMs?: number;
}

export interface DependencyMonitor {
  /** The dependencies that failed the last round, with why. */
  failing(): ReadonlyMap<string, string>;
  /** Stops the rounds; a round in flight changes nothing any more. */
  stop(): void;
}

/**
 * Checks the dependencies every `intervalMs` (all at once, each bounded by `timeoutMs`) and sets the health status:
 * NOT_SERVING while any fails, SERVING when all pass. Logs one line when a dependency goes down (which, why) and
 * one when it is back. A check whose last probe is still pending is not probed again (one probe in flight per
 * dependency, so a hanging dependency cannot pile them up); it fails until that probe settles.
 * Resolves after the first round, so the status is true from the start.
 */
export async function startDependencyMonitor(
  health: Pick<HealthService, 'set'>,
  { checks, log, intervalMs = 1000, timeoutMs = 3000 }: DependencyMonitorOptions,
): Promise<DependencyMonitor> {
  const names = new Set<string>();
  for (const c of checks) {
    if (names.has(c.name)) throw new Error(`two dependency checks are named ${c.name}`);
    names.add(c.name);
  }
  const inFlight = new Map<string, Promise<unknown>>();
  let failing = new Map<string, string>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  const probe = (c: DependencyCheck): Promise<string | undefined> => {
    let pending = inFlight.get(c.name);
    if (!pending) {
      pending = Promise.resolve()
        .then(() => c.check())
        .finally(() => inFlight.delete(c.name));
      // The rejection is read below; this keeps a late one (after the timeout) from being unhandled.
      pending.catch(() => {});
      inFlight.set(c.name, pending);
    }
    let bound: NodeJS.Timeout | undefined;
    const timeout = new Promise<string>((resolve) => {
      bound = setTimeout(() => resolve(`no answer within ${timeoutMs} ms`), timeoutMs);
    });
    return Promise.race([pending.then(() => undefined, describeError), timeout]).finally(() => clearTimeout(bound));
  };

  const round = async () => {
    const results = await Promise.all(checks.map(async (c) => [c.name, await probe(c)] as const));
    if (stopped) return;
    const next = new Map(results.filter((r): r is readonly [string, string] => r[1] !== undefined));
    const status: ServingStatus = next.size > 0 ? 'NOT_SERVING' : 'SERVING';
    for (const [name, reason] of next) {
      if (!failing.has(name))
        log.warn({ dependency: name, reason, health: status }, `${name} unavailable; health ${status}`);
    }
    for (const name of failing.keys()) {
      if (!next.has(name)) log.info({ dependency: name, health: status }, `${name} available again; health ${status}`);
    }
    failing = next;
    health.set(status);
  };

  const loop = () => {
    timer = setTimeout(() => {
      round().then(
        () => !stopped && loop(),
        (err: unknown) => {
          log.error({ err }, 'dependency check round failed');
          if (!stopped) loop();
        },
      );
    }, intervalMs);
    timer.unref();
  };

  await round();
  loop();
  return {
    failing: () => failing,
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

/** A one-line reason: pg's connection errors are AggregateErrors with an empty message (one error per address). */
function describeError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  if (err.message) return err.message;
  const inner = (err as { errors?: unknown[] }).errors;
  if (Array.isArray(inner) && inner.length > 0) return inner.map(describeError).join('; ');
  const code = (err as { code?: string }).code;
  return code ?? err.name;
}
