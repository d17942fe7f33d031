import { WEBSOCKET_PATH } from '@wms/kit/channels';

/** Where the Pusher-protocol provider is and how the service signs for it. */
export interface ProviderSettings {
  appId: string;
  key: string;
  secret: string;
  /** A self-hosted provider (Soketi); undefined for Pusher's hosted service. */
  host: string | undefined;
  port: number;
  useTls: boolean;
  cluster: string;
}

/** What a client needs to connect (contract §7's RealtimeConfiguration, less what the gateway adds). */
export interface ClientConfig {
  appKey: string;
  cluster: string;
  wsHost: string;
  wsPort: number;
  wssPort: number;
  wsPath: string;
  forceTls: boolean;
}

/**
 * A self-hosted provider is reached through the gateway's public address (so a client needs only that URL);
 * Pusher's hosted service at its own websocket host, always over TLS.
 */
export function clientConfigOf(p: ProviderSettings, publicUrl: string): ClientConfig {
  if (p.host === undefined) {
    return {
      appKey: p.key,
      cluster: p.cluster,
      wsHost: `ws-${p.cluster}.pusher.com`,
      wsPort: 80,
      wssPort: 443,
      wsPath: '',
      forceTls: true,
    };
  }
  const url = new URL(publicUrl);
  const tls = url.protocol === 'https:';
  const port = url.port === '' ? (tls ? 443 : 80) : Number(url.port);
  return {
    appKey: p.key,
    cluster: p.cluster,
    wsHost: url.hostname,
    wsPort: port,
    wssPort: port,
    wsPath: `${url.pathname.replace(/\/+$/, '')}${WEBSOCKET_PATH}`,
    forceTls: tls,
  };
}
