import { requestContext } from '@wms/kit/context';
import { DomainError } from '@wms/kit/errors';
import { onShutdown } from '@wms/kit/grpc-server';
import { serveHandedConnections } from '@wms/kit/handoff';
import type { CachedMembership } from '@wms/kit/membership';
import { createStorage, storageConfigFrom } from '@wms/kit/storage';
import { createLogger } from '@wms/kit/logger';
import { createRedis, redisTarget } from '@wms/kit/redis';
import type { CachedToken, TokenKind } from '@wms/kit/tokens';
import { surviveStrayErrors } from '@wms/kit/stray-errors';
import { createApp } from './app.ts';
import { connectDownstream } from './clients.ts';
import { loadGatewayConfig } from './config.ts';
import { createAuthenticator } from './middleware/auth.ts';
import { gatewayServer } from './http-server.ts';
import { createMetrics } from './metrics.ts';
import { s3ImageOrigins } from './web-app.ts';

const config = loadGatewayConfig();
const log = createLogger('gateway', config.LOG_LEVEL);
const metrics = createMetrics();
const redis = createRedis(redisTarget(config), config.REDIS_PREFIX, log);
const downstream = connectDownstream(config);

async function notReady(): Promise<string[]> {
  const checks = Object.entries(downstream.health).map(async ([name, check]) => ((await check()) ? undefined : name));
  checks.push(
    redis.ping().then(
      () => undefined,
      () => 'redis',
    ),
  );
  return (await Promise.all(checks)).filter((name): name is string => name !== undefined);
}

async function resolveMembership(workspaceId: string, userId: string): Promise<CachedMembership | null> {
  try {
    const m = await downstream.clients.workspace.ResolveMembership(
      { workspace_id: workspaceId, user_id: userId },
      requestContext.getStore() ?? { requestId: 'none' },
    );
    return { workspaceUserId: m.workspace_user_id, actorId: m.actor_id, role: m.role };
  } catch (err) {
    if (err instanceof DomainError && err.kind === 'not_found') return null;
    throw err;
  }
}

/** The usable token whose secret has this SHA-256, or null. */
async function resolveToken(secretSha256: Buffer): Promise<CachedToken | null> {
  const { token } = await downstream.clients.workspace.ResolveToken(
    { secret_sha256: secretSha256 },
    requestContext.getStore() ?? { requestId: 'none' },
  );
  if (!token) return null;
  return {
    id: token.id,
    kind: token.kind as TokenKind,
    workspaceId: token.workspace_id,
    conversationId: token.conversation_id ?? null,
    actorId: token.actor_id,
  };
}

async function recordTokenUse(tokenId: string): Promise<void> {
  await downstream.clients.workspace.RecordTokenUse(
    { token_id: tokenId },
    requestContext.getStore() ?? { requestId: 'none' },
  );
}

const storageConfig = storageConfigFrom(config);
const { app, websockets } = createApp({
  log,
  clients: downstream.clients,
  storage:
    storageConfig.driver === 'fs'
      ? { storage: createStorage(storageConfig), secret: storageConfig.secret }
      : { storage: undefined, secret: '' },
  authenticate: await createAuthenticator(
    config.JWT_PUBLIC_KEY,
    redis,
    { resolveMembership, resolveToken, recordTokenUse },
    { tokenRateLimit: config.TOKEN_RATE_LIMIT_PER_MINUTE },
  ),
  metrics,
  notReady,
  trustProxy: config.TRUST_PROXY,
  uploadIdleMs: config.UPLOAD_IDLE_TIMEOUT_MS,
  realtimeProvider: config.PUSHER_HOST
    ? { host: config.PUSHER_HOST, port: config.PUSHER_PORT, useTls: config.PUSHER_USE_TLS }
    : undefined,
  webApp: {
    imageOrigins:
      storageConfig.driver === 's3' ? s3ImageOrigins(storageConfig.publicUrl ?? storageConfig.endpoint) : [],
    connectOrigins: config.PUSHER_HOST ? [] : ['wss://*.pusher.com'],
  },
});

const server = gatewayServer(app);
const cannotListen = (err: Error) => {
  log.fatal({ err, port: config.PORT }, 'gateway cannot listen');
  process.exit(1);
};
server.once('error', cannotListen);
server.listen(config.PORT, () => {
  server.off('error', cannotListen);
  log.info({ port: config.PORT }, 'gateway listening');
  // Once serving, a stray error is a bug to log, not a reason to stop; before, a failed start must end the process.
  surviveStrayErrors(log, () => metrics.strayErrors.inc());
});
server.keepAliveTimeout = 65_000;
if (websockets) server.on('upgrade', websockets.upgrade);
// Handed connections (by the local launcher) once Redis is ready, as Kubernetes sends a pod traffic once /readyz
// answers: every request checks its session in Redis, and one handed before would be answered 503.
let stopping = false;
let stopHandoff = (): void => {};
const serveHanded = () => {
  if (!stopping) stopHandoff = serveHandedConnections(server);
};
if (redis.status === 'ready') serveHanded();
else redis.once('ready', serveHanded);

onShutdown(log, [
  [
    'http',
    () =>
      new Promise<void>((resolve) => {
        stopping = true;
        stopHandoff();
        websockets?.close();
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  ],
  ['downstream', async () => downstream.close()],
  ['redis', () => redis.quit()],
]);
