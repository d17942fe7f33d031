/**
 * How the launcher knows a process is ready: `grpc` components and `worker` components (ROLE=worker, BullMQ
 * consumers) get a `GRPC_PORT` and must answer the gRPC health check with SERVING, and only `grpc` ones are announced
 * to the others as `<NAME>_GRPC_URL`; `http` components must answer `GET <readyPath>` with 200.
 */
export type ComponentKind = 'grpc' | 'http' | 'worker';

export interface ComponentSpec {
  /** Lowercase; a grpc component `foo-bar` is announced to every process as `FOO_BAR_GRPC_URL`. */
  name: string;
  /** Entry file relative to the repository root, run with `node --import tsx`. */
  entry: string;
  kind: ComponentKind;
  /** Run the entry once with `ROLE=migrate` (it must exit 0) before any server starts. */
  migrate?: boolean;
  /** The http component behind the public URL; it listens on the cluster's gateway port. */
  public?: boolean;
  /** Readiness path of an http component. */
  readyPath?: string;
  /** Extra variables for this process only. */
  env?: Record<string, string>;
}

/** The processes of a local cluster, one row each; grpc components start in parallel, http ones after them. */
export const components: readonly ComponentSpec[] = [
  { name: 'identity', entry: 'services/identity/src/main.ts', kind: 'grpc', migrate: true },
  { name: 'workspace', entry: 'services/workspace/src/main.ts', kind: 'grpc', migrate: true },
  { name: 'workspace-worker', entry: 'services/workspace/src/main.ts', kind: 'worker' },
  { name: 'messaging', entry: 'services/messaging/src/main.ts', kind: 'grpc', migrate: true },
  { name: 'messaging-worker', entry: 'services/messaging/src/main.ts', kind: 'worker' },
  { name: 'asset', entry: 'services/asset/src/main.ts', kind: 'grpc', migrate: true },
  { name: 'asset-worker', entry: 'services/asset/src/main.ts', kind: 'worker' },
  { name: 'gateway', entry: 'gateway/src/main.ts', kind: 'http', public: true, readyPath: '/readyz' },
];

/** The variable that carries a grpc component's address (`identity` → `IDENTITY_GRPC_URL`). */
export function grpcUrlVariable(name: string): string {
  return `${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_GRPC_URL`;
}
