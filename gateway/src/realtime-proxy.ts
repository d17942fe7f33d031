import http from 'node:http';
import https from 'node:https';
import net, { type Socket } from 'node:net';
import { setTimeout } from 'node:timers/promises';
import type { Duplex } from 'node:stream';
import { WEBSOCKET_PATH } from '@wms/kit/channels';
import type { Logger } from '@wms/kit/logger';
import { createProxyMiddleware } from 'http-proxy-middleware';
import { WebSocketServer } from 'ws';

/** A self-hosted Pusher-protocol provider (Soketi), as the gateway reaches it. */
export interface RealtimeProvider {
  host: string;
  port: number;
  useTls: boolean;
}

/** The websockets the gateway serves for the provider. */
export interface RealtimeWebsockets {
  /** For the server's `upgrade` event. */
  upgrade: (req: http.IncomingMessage, socket: Duplex, head: Buffer) => void;
  /** Closes every open websocket (at shutdown: clients reconnect elsewhere; the server's close would wait for them). */
  close(): void;
}

const underWsPath = (url: string | undefined) => {
  const path = (url ?? '').split('?')[0]!;
  return path === WEBSOCKET_PATH || path.startsWith(`${WEBSOCKET_PATH}/`);
};

/**
 * Pusher's close code "reconnect after backing off": pusher-js tries again in a second. Any failure before the
 * websocket opens (a refused upgrade, a reset) it instead waits out its 15 s connection timeout, then 30 s.
 */
export const PROVIDER_UNAVAILABLE_CLOSE_CODE = 4100;

/** How long an upgrade waits for a provider that refuses connections before it is closed with 4100 (pusher-js waits 15 s). */
export const PROVIDER_WAIT_MS = 10_000;

/** How often the gateway tries the provider's port while it is down. */
const PROBE_EVERY_MS = 100;

/**
 * Passes websocket upgrades under `/realtime/ws` to the provider, the prefix taken off (`/realtime/ws/app/<key>` is
 * the provider's `/app/<key>`), so a client needs only the gateway's address. Any other upgrade is refused with 404.
 * A provider that refuses connections (restarting) costs a client no more than its restart: an upgrade waits up to
 * {@link PROVIDER_WAIT_MS} while one probe tries the provider's port, goes through as soon as it answers, and is
 * otherwise opened by the gateway itself and closed with {@link PROVIDER_UNAVAILABLE_CLOSE_CODE}.
 */
export function realtimeWebsockets(provider: RealtimeProvider, log: Logger): RealtimeWebsockets {
  const answered = new WeakSet<Duplex>();
  const outage = providerOutage(provider, log);
  const standIn = new WebSocketServer({ noServer: true });
  // Security: only websocket upgrades reach the provider. Its HTTP API (signed, but no client's business) is not
  // proxied, so it stays reachable from inside only.
  const proxy = createProxyMiddleware<http.IncomingMessage>({
    target: `${provider.useTls ? 'https' : 'http'}://${provider.host}:${provider.port}`,
    agent: waitingAgent(provider.useTls, outage),
    changeOrigin: true,
    ws: true,
    pathRewrite: (path) => {
      const rest = path.slice(WEBSOCKET_PATH.length);
      return rest.startsWith('/') ? rest : `/${rest}`;
    },
    on: {
      proxyReqWs: (proxyReq, _req, socket) => {
        const mark = () => answered.add(socket);
        proxyReq.once('response', mark).once('upgrade', mark);
      },
      error: (err, req, socket) => {
        if (!(socket instanceof net.Socket)) return;
        if (answered.has(socket) || !socket.writable) {
          log.warn({ err }, 'realtime websocket proxy failed');
          socket.destroy();
          return;
        }
        // The proxy ends the socket after this handler: what the stand-in writes now is sent first.
        standIn.handleUpgrade(req, socket, Buffer.alloc(0), (ws) =>
          ws.close(PROVIDER_UNAVAILABLE_CLOSE_CODE, 'Realtime provider unavailable, reconnect'),
        );
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
      // Node leaves an upgraded socket's errors to its handler; the proxy listens only once the provider answered.
      socket.on('error', () => socket.destroy());
      // A plain or TLS HTTP server's upgrade socket is a net.Socket.
      void proxy.upgrade(req, socket as Socket, head);
    },
    close() {
      outage.stop();
      for (const socket of open) socket.destroy();
    },
  };
}

/** An agent whose connections to the provider, refused while it restarts, wait for it up to PROVIDER_WAIT_MS. */
function waitingAgent(useTls: boolean, outage: ProviderOutage): http.Agent {
  const Base: typeof http.Agent = useTls ? https.Agent : http.Agent;
  const connected = useTls ? 'secureConnect' : 'connect';
  return new (class extends Base {
    override createConnection(options: http.ClientRequestArgs, callback: (err: Error | null, s: Duplex) => void) {
      const deadline = Date.now() + PROVIDER_WAIT_MS;
      const attempt = () => {
        const socket = super.createConnection(options)!;
        const failed = (err: NodeJS.ErrnoException) => {
          socket.destroy();
          if (err.code !== 'ECONNREFUSED') return callback(err, socket);
          outage.failed(err);
          void outage.over(deadline - Date.now()).then((back) => (back ? attempt() : callback(err, socket)));
        };
        socket.once('error', failed).once(connected, () => {
          socket.off('error', failed);
          callback(null, socket);
        });
      };
      attempt();
      return undefined;
    }
  })();
}

interface ProviderOutage {
  /** A connection to the provider failed: it is down until a probe connects. */
  failed(err: Error): void;
  /** Resolves true once the provider is reachable again, false if it is not within `ms`. */
  over(ms: number): Promise<boolean>;
  /** Ends the probe (at shutdown); waiting upgrades go on, to find their sockets closed. */
  stop(): void;
}

/** The provider's reachability as one gateway sees it: one probe of its port every 100 ms while it is down. */
function providerOutage(provider: RealtimeProvider, log: Logger): ProviderOutage {
  let back: Promise<void> | undefined;
  // Each outage's probe runs while it is the current one; stop() ends it.
  let current = 0;
  const connects = () =>
    new Promise<boolean>((resolve) => {
      const probe = net.connect(provider.port, provider.host);
      probe.once('connect', () => resolve(true)).once('error', () => resolve(false));
      probe.once('connect', () => probe.destroy());
    });
  const probeUntilBack = async (outage: number) => {
    while (outage === current && !(await connects())) await setTimeout(PROBE_EVERY_MS);
    if (outage !== current) return;
    back = undefined;
    log.info('realtime provider reachable again');
  };
  return {
    failed(err) {
      if (back) return;
      // Logged once per outage, not once per client's attempt.
      log.warn({ err }, 'realtime provider unreachable: websockets wait for it, then close with 4100');
      back = probeUntilBack(++current);
    },
    async over(ms) {
      if (!back) return true;
      const timer = new AbortController();
      const waited = setTimeout(ms, false, { signal: timer.signal }).catch(() => false);
      const result = await Promise.race([back.then(() => true), waited]);
      timer.abort();
      return result;
    },
    stop() {
      current++;
      back = undefined;
    },
  };
}
