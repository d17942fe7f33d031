/** RealtimeConfiguration (contract §7), as `GET /realtime/config` answers it. */
export interface RealtimeConfiguration {
  provider: 'pusher';
  app_key: string;
  cluster: string;
  ws_host: string;
  ws_port: number;
  wss_port: number;
  ws_path: string;
  force_tls: boolean;
  channel_authorization_endpoint: string;
  user_authentication_endpoint: string;
  channels: { workspace: string; presence: string; actor: string };
}

/**
 * pusher-js's options for a client that knows only the gateway: everything from its configuration, the endpoints
 * resolved against the gateway's URL, `headers` (the session's) sent with each authorization.
 */
export function pusherOptions(config: RealtimeConfiguration, gatewayUrl: string, headers: Record<string, string>) {
  return {
    cluster: config.cluster,
    wsHost: config.ws_host,
    wsPort: config.ws_port,
    wssPort: config.wss_port,
    wsPath: config.ws_path,
    forceTLS: config.force_tls,
    enabledTransports: ['ws', 'wss'] as Array<'ws' | 'wss'>,
    disableStats: true,
    channelAuthorization: {
      endpoint: new URL(config.channel_authorization_endpoint, gatewayUrl).href,
      transport: 'ajax' as const,
      headers,
    },
    userAuthentication: {
      endpoint: new URL(config.user_authentication_endpoint, gatewayUrl).href,
      transport: 'ajax' as const,
      headers,
    },
  };
}
