import { grpcUrlVariable, type ServiceName, topology } from '@wms/protos';
import { z } from 'zod';

/** Thrown at boot when the environment is invalid; lists every bad variable. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Parses the environment once with a zod object schema; fails listing every bad variable; returns a frozen object. */
export function loadConfig<S extends z.ZodObject>(
  schema: S,
  env: NodeJS.ProcessEnv = process.env,
): Readonly<z.output<S>> {
  const result = schema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join('.') || '(env)'}: ${issue.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  return Object.freeze(result.data);
}

/** Env helpers: every variable arrives as a string or not at all. */
export const env = {
  port: (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback),
  int: (fallback: number, min = 0) => z.coerce.number().int().min(min).default(fallback),
  string: (fallback: string) => z.string().min(1).default(fallback),
  url: (fallback: string) => z.string().url().default(fallback),
  bool: (fallback: boolean) =>
    z
      .enum(['true', 'false', '1', '0'])
      .default(fallback ? 'true' : 'false')
      .transform((v) => v === 'true' || v === '1'),
  logLevel: () => z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
};

/** Where Redis is (kit's `redisTarget`), for the services and the gateway. */
export const redisEnv = {
  REDIS_URL: env.url('redis://127.0.0.1:6379'),
  /**
   * A Redis Cluster's nodes, `host:port` comma-separated (some suffice: the rest are discovered); REDIS_URL then gives
   * only credentials and TLS.
   */
  REDIS_CLUSTER_NODES: z
    .string()
    .optional()
    .transform((v) => v?.split(',').flatMap((n) => n.trim() || []))
    .pipe(z.array(z.string().regex(/^[^\s:]+:\d{1,5}$/, 'each node is host:port')).optional()),
  /** Prefix of every Redis key and BullMQ queue, so several clusters (tests beside `pnpm start`) can share one Redis. */
  REDIS_PREFIX: z.string().default('wms'),
};

/** Variables every service shares (DESIGN.md, Configuration). */
export const serviceEnv = {
  LOG_LEVEL: env.logLevel(),
  /**
   * Where a server or worker role listens for gRPC: every interface by default, as a container must; the launcher
   * sets 127.0.0.1, since its processes reach each other over loopback and nothing else should reach them.
   */
  GRPC_HOST: env.string('0.0.0.0'),
  DATABASE_URL: env.url('postgres://postgres@127.0.0.1:5432/wms'),
  ...redisEnv,
};

/** `<PEER>_GRPC_URL` for each peer, defaulting to where the topology puts it on this host. */
export function peerEnv<const P extends readonly ServiceName[]>(peers: P) {
  return Object.fromEntries(
    peers.map((peer) => [grpcUrlVariable(peer), env.string(`127.0.0.1:${topology[peer].grpcPort}`)]),
  ) as {
    [K in P[number] as `${Uppercase<K>}_GRPC_URL`]: ReturnType<typeof env.string>;
  };
}

/** Everything a service of the topology reads besides its own settings: shared variables, ROLE, ports, schema, peers. */
export function serviceEnvOf<N extends ServiceName>(name: N) {
  const row = topology[name];
  return {
    ...serviceEnv,
    ROLE: z.enum(row.roles).default('server'),
    GRPC_PORT: env.port(row.grpcPort),
    METRICS_PORT: env.port(row.metricsPort),
    DATABASE_SCHEMA: env.string(name),
    /** Postgres connections this process keeps at most; Postgres sees the sum over every process of every service. */
    DATABASE_POOL_MAX: env.int(row.poolMax, 1),
    /** Test-only: a directory where servers and workers record each statement their pool sends (kit statement-log.ts). */
    WMS_STATEMENT_LOG: z.string().min(1).optional(),
    ...peerEnv(row.peers as (typeof topology)[N]['peers']),
  };
}
