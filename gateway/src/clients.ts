import { type AsyncClient, createAsyncClient, createHealthClient } from '@wms/kit/grpc-client';
import { loadProto } from '@wms/protos';
import type { AssetServiceDefinition } from '@wms/protos/gen/wms/asset/v1/AssetService';
import type { IdentityServiceDefinition } from '@wms/protos/gen/wms/identity/v1/IdentityService';
import type { MessagingServiceDefinition } from '@wms/protos/gen/wms/messaging/v1/MessagingService';
import type { WorkspaceServiceDefinition } from '@wms/protos/gen/wms/workspace/v1/WorkspaceService';
import type { GatewayConfig } from './config.ts';

/** The downstream services the gateway calls, one pooled client each. */
export interface Clients {
  identity: AsyncClient<IdentityServiceDefinition>;
  workspace: AsyncClient<WorkspaceServiceDefinition>;
  messaging: AsyncClient<MessagingServiceDefinition>;
  asset: AsyncClient<AssetServiceDefinition, 'UploadAssetContent'>;
}

export interface Downstream {
  clients: Clients;
  /** Health checks of every downstream service, by name, for `/readyz`. */
  health: Record<string, () => Promise<boolean>>;
  close(): void;
}

export function connectDownstream(config: GatewayConfig): Downstream {
  const options = { deadlineMs: config.GRPC_DEADLINE_MS };
  const protos = {
    identity: loadProto('identity').wms.identity.v1,
    workspace: loadProto('workspace').wms.workspace.v1,
    messaging: loadProto('messaging').wms.messaging.v1,
    asset: loadProto('asset').wms.asset.v1,
  };
  const addresses = { identity: config.IDENTITY_GRPC_URL, workspace: config.WORKSPACE_GRPC_URL, messaging: config.MESSAGING_GRPC_URL, asset: config.ASSET_GRPC_URL };
  const clients: Clients = {
    identity: createAsyncClient(protos.identity.IdentityService, addresses.identity, options),
    workspace: createAsyncClient(protos.workspace.WorkspaceService, addresses.workspace, options),
    messaging: createAsyncClient(protos.messaging.MessagingService, addresses.messaging, options),
    asset: createAsyncClient<AssetServiceDefinition, 'UploadAssetContent'>(protos.asset.AssetService, addresses.asset, options),
  };
  const healthClients = Object.entries(addresses).map(([name, address]) => [name, createHealthClient(address)] as const);
  return {
    clients,
    health: Object.fromEntries(healthClients.map(([name, client]) => [name, () => client.check()])),
    close() {
      for (const client of Object.values(clients)) (client as { close(): void }).close();
      for (const [, client] of healthClients) client.close();
    },
  };
}
