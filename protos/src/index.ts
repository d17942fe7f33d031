import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { protoLoaderOptions } from './options.ts';
import type { ProtoGrpcType as HealthGrpc } from '../gen/health.ts';
import { type ServiceDefinitions, type ServiceName, serviceNames, topology } from './topology.ts';

/** Folder holding the .proto files (the include root for imports). */
export const protoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Every proto file with a service: grpc.health.v1 and one per row of the topology. */
export const protoFiles = {
  health: 'grpc/health/v1/health.proto',
  ...Object.fromEntries(serviceNames.map((name) => [name, topology[name].proto])),
} as Record<'health' | ServiceName, string>;

const cache = new Map<string, grpc.GrpcObject>();

function load(name: 'health' | ServiceName): grpc.GrpcObject {
  let pkg = cache.get(name);
  if (!pkg) {
    const definition = protoLoader.loadSync(protoFiles[name], { ...protoLoaderOptions, includeDirs: [protoRoot] });
    pkg = grpc.loadPackageDefinition(definition);
    cache.set(name, pkg);
  }
  return pkg;
}

/** grpc.health.v1, served by every process and checked by every client. */
export const loadHealthProto = (): HealthGrpc => load('health') as unknown as HealthGrpc;

/** A service's client constructor, whose `service` is its typed definition (handlers and clients are built from it). */
export type ServiceConstructor<N extends ServiceName> = grpc.ServiceClientConstructor & {
  service: ServiceDefinitions[N];
};

/** Loads a service's proto (with its imports) and returns its one service, `wms.<name>.v1.<service>`. */
export function loadService<N extends ServiceName>(name: N): ServiceConstructor<N> {
  const versions = load(name).wms as grpc.GrpcObject;
  const ctor = ((versions[name] as grpc.GrpcObject).v1 as grpc.GrpcObject)[topology[name].service];
  if (typeof ctor !== 'function')
    throw new Error(`${protoFiles[name]} declares no wms.${name}.v1.${topology[name].service}`);
  return ctor as unknown as ServiceConstructor<N>;
}

export { protoLoaderOptions } from './options.ts';
export * from './topology.ts';
