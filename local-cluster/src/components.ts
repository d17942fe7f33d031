import { type Role, serviceNames, topology } from '@wms/protos';
import { soketiConfigFile, soketiEnv, soketiServer } from './soketi.ts';

/**
 * How the launcher knows a process is ready: `grpc` components and `worker` components (ROLE=worker, BullMQ
 * consumers) get a `GRPC_PORT` and must answer the gRPC health check with SERVING, and only `grpc` ones are announced
 * to the others as `<NAME>_GRPC_URL`; `http` components must answer `GET <readyPath>` with 200. A `provider` is the
 * self-hosted realtime provider: it starts, and is ready, before every service (which call it), gets a `PORT` and a
 * `METRICS_PORT`, and must answer `GET <readyPath>` on its metrics port with 200, from sockets of its own process; it
 * runs only when the environment names no provider of its own (`PUSHER_*`).
 */
export type ComponentKind = 'grpc' | 'http' | 'worker' | 'provider';

/** What the launcher chose for a process, for rows that name their settings their own way. */
export interface RowWiring {
  port: number;
  /** Set for every kind but `http`. */
  metricsPort: number | undefined;
  /** The gateway's port on 127.0.0.1. */
  gatewayPort: number;
  /** The settings every process gets (`PUSHER_*` included). */
  settings: Readonly<Record<string, string>>;
}

interface ComponentRow {
  /** Lowercase; a grpc component `foo` is announced to every process as `FOO_GRPC_URL` (protos' `grpcUrlVariable`). */
  name: string;
  kind: ComponentKind;
  /** Run the process once with `ROLE=migrate` (it must exit 0) before any server starts. */
  migrate?: boolean;
  /** The http component behind the public URL; it listens on the cluster's gateway port. */
  public?: boolean;
  /** Readiness path of an http component (on its port) or a provider (on its metrics port). */
  readyPath?: string;
  /** Extra variables for this process only. */
  env?: Record<string, string>;
  /** Variables made from the launcher's choices (over `env`), for a program that names its settings its own way. */
  wiredEnv?: (wiring: RowWiring) => Record<string, string>;
  /** Set on a second (third...) replica of a row: the row's own name, under which its peers know it. */
  replicaOf?: string;
  /** How many processes the row runs, when more than one (every replica of it says so). */
  replicas?: number;
}

/** A TypeScript entry of this repository, run with `node --import tsx`. */
export interface EntryComponent extends ComponentRow {
  /** Relative to the repository root. */
  entry: string;
  command?: never;
  args?: never;
}

/** Any other program (a server shipped as JavaScript, a binary), run in the repository root. */
export interface CommandComponent extends ComponentRow {
  /** An absolute path, or a name looked up on `PATH`. */
  command: string;
  args?: readonly string[];
  entry?: never;
}

/** One process of a cluster; supervision, readiness and logs are the same whatever it runs. */
export type ComponentSpec = EntryComponent | CommandComponent;

/** Each service's server (migrating first where it has migrations) and its worker where it has one, from the topology. */
function serviceComponents(): ComponentSpec[] {
  return serviceNames.flatMap((name): ComponentSpec[] => {
    const roles: readonly Role[] = topology[name].roles;
    const entry = `services/${name}/src/main.ts`;
    const server: ComponentSpec = { name, entry, kind: 'grpc', migrate: roles.includes('migrate') };
    return roles.includes('worker') ? [server, { name: `${name}-worker`, entry, kind: 'worker' }] : [server];
  });
}

/** The realtime provider: Soketi, run with the cluster's app credentials, its webhooks going to the gateway. */
export const soketi: ComponentSpec = {
  name: 'soketi',
  kind: 'provider',
  command: process.execPath,
  args: [soketiServer, 'start', `--config=${soketiConfigFile}`],
  readyPath: '/ready',
  wiredEnv: ({ port, metricsPort, gatewayPort, settings }) =>
    soketiEnv({
      port,
      metricsPort: metricsPort!,
      app: { appId: settings.PUSHER_APP_ID!, key: settings.PUSHER_KEY!, secret: settings.PUSHER_SECRET! },
      webhookUrl: `http://127.0.0.1:${gatewayPort}/realtime/webhooks/pusher`,
    }),
};

/** The processes of a local cluster, one row each: the provider first, then grpc components in parallel, http ones after them. */
export const components: readonly ComponentSpec[] = [
  soketi,
  ...serviceComponents(),
  { name: 'gateway', entry: 'gateway/src/main.ts', kind: 'http', public: true, readyPath: '/readyz' },
];
