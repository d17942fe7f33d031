import type { AssetServiceDefinition } from '../gen/wms/asset/v1/AssetService.ts';
import type { IdentityServiceDefinition } from '../gen/wms/identity/v1/IdentityService.ts';
import type { MessagingServiceDefinition } from '../gen/wms/messaging/v1/MessagingService.ts';
import type { RealtimeServiceDefinition } from '../gen/wms/realtime/v1/RealtimeService.ts';
import type { WorkspaceServiceDefinition } from '../gen/wms/workspace/v1/WorkspaceService.ts';

/** What a process of a service does: serve gRPC, run its queues' workers, or apply its migrations and exit. */
export type Role = 'server' | 'worker' | 'migrate';

/** One backend service: everything the rest of the system needs to know to load, call, configure and run it. */
export interface ServiceRow {
  /** Proto file under `protos/`, declaring `package wms.<name>.v1` with one service `service`. */
  readonly proto: string;
  readonly service: string;
  /** Default gRPC port (a peer's default `<NAME>_GRPC_URL` is `127.0.0.1:<grpcPort>`). */
  readonly grpcPort: number;
  readonly metricsPort: number;
  readonly roles: readonly Role[];
  /** The services this one calls (each gets a `<NAME>_GRPC_URL` setting). */
  readonly peers: readonly ServiceName[];
  /** Client-streaming RPCs, called with an async iterable of requests. */
  readonly clientStreams: readonly string[];
  /** Postgres connections a process of the service keeps at most, unless `DATABASE_POOL_MAX` says otherwise. */
  readonly poolMax: number;
}

/**
 * The services of wms, one row each. Proto loading, the gateway's clients, every service's peer addresses and
 * ports, the local cluster and the chart all read this table: a new service is its folder, its proto, its row
 * (and its line in `ServiceDefinitions`) plus its gateway routes.
 */
export const topology = {
  identity: {
    proto: 'identity/v1/identity.proto',
    service: 'IdentityService',
    grpcPort: 50051,
    metricsPort: 9461,
    roles: ['server', 'migrate'],
    peers: [],
    clientStreams: [],
    poolMax: 10,
  },
  workspace: {
    proto: 'workspace/v1/workspace.proto',
    service: 'WorkspaceService',
    grpcPort: 50052,
    metricsPort: 9462,
    roles: ['server', 'worker', 'migrate'],
    // The server looks up users in identity; the worker purges a deleted workspace's data where it is held, and its
    // outbox relay publishes to realtime.
    peers: ['identity', 'messaging', 'asset', 'realtime'],
    clientStreams: [],
    poolMax: 10,
  },
  messaging: {
    proto: 'messaging/v1/messaging.proto',
    service: 'MessagingService',
    grpcPort: 50053,
    metricsPort: 9463,
    roles: ['server', 'worker', 'migrate'],
    // The worker's outbox relay publishes to realtime.
    peers: ['workspace', 'asset', 'realtime'],
    clientStreams: [],
    // Every message route is a transaction here.
    poolMax: 20,
  },
  asset: {
    proto: 'asset/v1/asset.proto',
    service: 'AssetService',
    grpcPort: 50054,
    metricsPort: 9464,
    roles: ['server', 'worker', 'migrate'],
    peers: ['messaging'],
    clientStreams: ['UploadAssetContent'],
    poolMax: 10,
  },
  realtime: {
    proto: 'realtime/v1/realtime.proto',
    service: 'RealtimeService',
    grpcPort: 50055,
    metricsPort: 9465,
    roles: ['server', 'worker', 'migrate'],
    // Who may see what: conversations of a workspace (messaging), actors' names and avatars (workspace).
    peers: ['workspace', 'messaging'],
    clientStreams: [],
    poolMax: 10,
  },
} as const satisfies { [N in ServiceName]: ServiceRow };

export type ServiceName = keyof ServiceDefinitions;

/** The generated service definition of each row, so clients and handlers are typed by name. */
export interface ServiceDefinitions {
  identity: IdentityServiceDefinition;
  workspace: WorkspaceServiceDefinition;
  messaging: MessagingServiceDefinition;
  asset: AssetServiceDefinition;
  realtime: RealtimeServiceDefinition;
}

/** Every service, in the table's order. */
export const serviceNames = Object.keys(topology) as ServiceName[];

/** The setting that carries a service's address: `identity` → `IDENTITY_GRPC_URL`. */
export const grpcUrlVariable = <N extends string>(name: N) => `${name.toUpperCase() as Uppercase<N>}_GRPC_URL` as const;

/** A service's address on this host, where the local cluster and the defaults put it. */
export const defaultGrpcUrl = (name: ServiceName): string => `127.0.0.1:${topology[name].grpcPort}`;
