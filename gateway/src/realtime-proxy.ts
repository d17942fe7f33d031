import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { WEBSOCKET_PATH } from '@wms/kit/channels';
import type { Logger } from '@wms/kit/logger';
import { createProxyMiddleware } from 'http-proxy-middleware';

/** A self-hosted Pusher-protocol provider (Soketi), as the gateway reaches it. */
export interface RealtimeProvider {
  host: string;
  port: number;
  useTls: boolean;
}

/** The websockets the gateway serves for the provider. */
export interface RealtimeWebsockets {
  /** For the server's `upgrade` event. */
  upgrade: (req: IncomingMessage, socket: Duplex, head: Buffer) => void;
  /** Closes every open websocket (at shutdown: clients reconnect elsewhere; the server's close would wait for them). */
  close(): void;
}

const underWsPath = (url: string | undefined) => {
  const path = (url ?? '').split('?')[0]!;
  return path === WEBSOCKET_PATH || path.startsWith(`${WEBSOCKET_PATH}/`);
};

/**
 * Passes websocket upgrades under `/realtime/ws` to the provider, the prefix taken off (`/realtime/ws/app/<key>` is
 * the provider's `/app/<key>`), so a client needs only the gateway's address. Any other upgrade is refused with 404.
 */
export function realtimeWebsockets(provider: RealtimeProvider, log: Logger): RealtimeWebsockets {
  // Security: only websocket upgrades reach the provider. Its HTTP API (signed, but no client's business) is not
  // proxied, so it stays reachable from inside only.
  const proxy = createProxyMiddleware<IncomingMessage>({
    target: `${provider.useTls ? 'https' : 'http'}://${provider.host}:${provider.port}`,
    changeOrigin: true,
    ws: true,
    pathRewrite: (path) => {
      const rest = path.slice(WEBSOCKET_PATH.length);
      return rest.startsWith('/') ? rest : `/${rest}`;
    },
    on: {
      error: (err, _req, socket) => {
        log.warn({ err }, 'realtime websocket proxy failed');
        if ('destroy' in socket) socket.destroy();
      },
    },
  });
  const open = new Set<Duplex>();
  return {
    upgrade(req, socket, head) {
      if (!underWsPath(req.url)) {
        socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
        return;
      }
      open.add(socket);
      socket.once('close', () => open.delete(socket));
      // A plain or TLS HTTP server's upgrade socket is a net.Socket.
      proxy.upgrade(req, socket as Socket, head);
    },
    close() {
      for (const socket of open) socket.destroy();
    },
  };
}
