import { type AsyncClient, createAsyncClient, createHealthClient } from '@wms/kit/grpc-client';
import { loadProto } from '@wms/protos';
import type { IdentityServiceDefinition } from '@wms/protos/gen/wms/identity/v1/IdentityService';
import type { GatewayConfig } from './config.ts';

/** The downstream services the gateway calls, one pooled client each. */
export interface Clients {
  identity: AsyncClient<IdentityServiceDefinition>;
}

export interface Downstream {
  clients: Clients;
  /** Health checks of every downstream service, by name, for `/readyz`. */
  health: Record<string, () => Promise<boolean>>;
  close(): void;
}

export function connectDownstream(config: GatewayConfig): Downstream {
  const options = { deadlineMs: config.GRPC_DEADLINE_MS };
  const identity = createAsyncClient(loadProto('identity').wms.identity.v1.IdentityService, config.IDENTITY_GRPC_URL, options);
  const identityHealth = createHealthClient(config.IDENTITY_GRPC_URL);
  return {
    clients: { identity },
    health: { identity: () => identityHealth.check() },
    close() {
      identity.close();
      identityHealth.close();
    },
  };
}
