import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { protoLoaderOptions } from './options.ts';
import type { ProtoGrpcType as AssetGrpc } from '../gen/asset.ts';
import type { ProtoGrpcType as HealthGrpc } from '../gen/health.ts';
import type { ProtoGrpcType as IdentityGrpc } from '../gen/identity.ts';
import type { ProtoGrpcType as MessagingGrpc } from '../gen/messaging.ts';
import type { ProtoGrpcType as WorkspaceGrpc } from '../gen/workspace.ts';

/** Folder holding the .proto files (the include root for imports). */
export const protoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Every service's proto file. */
export const protoFiles = {
  health: 'grpc/health/v1/health.proto',
  identity: 'identity/v1/identity.proto',
  workspace: 'workspace/v1/workspace.proto',
  messaging: 'messaging/v1/messaging.proto',
  asset: 'asset/v1/asset.proto',
} as const;

type Loaded = { health: HealthGrpc; identity: IdentityGrpc; workspace: WorkspaceGrpc; messaging: MessagingGrpc; asset: AssetGrpc };

const cache = new Map<string, unknown>();

/** Loads one proto file (with its imports) as a typed grpc-js package object. */
export function loadProto<K extends keyof Loaded>(name: K): Loaded[K] {
  let pkg = cache.get(name);
  if (!pkg) {
    const definition = protoLoader.loadSync(protoFiles[name], { ...protoLoaderOptions, includeDirs: [protoRoot] });
    pkg = grpc.loadPackageDefinition(definition);
    cache.set(name, pkg);
  }
  return pkg as Loaded[K];
}

export { protoLoaderOptions } from './options.ts';
