import { connectPeer, createHealthClient, type PeerClient } from '@wms/kit/grpc-client';
import { grpcUrlVariable, type ServiceName, serviceNames } from '@wms/protos';
import type { GatewayConfig } from './config.ts';

/** The services the gateway calls, one pooled client each: every row of the topology. */
export type Clients = { [N in ServiceName]: PeerClient<N> };

export interface Downstream {
  clients: Clients;
  /** Health checks of every downstream service, by name, for `/readyz`. */
  health: Record<string, () => Promise<boolean>>;
  close(): void;
}

export function connectDownstream(config: GatewayConfig): Downstream {
  const options = { deadlineMs: config.GRPC_DEADLINE_MS };
  const addressOf = (name: ServiceName) => config[grpcUrlVariable(name)];
  const clients = Object.fromEntries(
    serviceNames.map((name) => [name, connectPeer(name, addressOf(name), options)]),
  ) as Clients;
  const healthClients = serviceNames.map((name) => [name, createHealthClient(addressOf(name))] as const);
  return {
    clients,
    health: Object.fromEntries(healthClients.map(([name, client]) => [name, () => client.check()])),
    close() {
      for (const client of Object.values(clients)) client.close();
      for (const [, client] of healthClients) client.close();
    },
  };
}
