import { onShutdown } from '@wms/kit/grpc-server';
import { createLogger } from '@wms/kit/logger';
import { createRedis } from '@wms/kit/redis';
import { createApp } from './app.ts';
import { connectDownstream } from './clients.ts';
import { loadGatewayConfig } from './config.ts';
import { createAuthenticator } from './middleware/auth.ts';
import { createMetrics } from './metrics.ts';

const config = loadGatewayConfig();
const log = createLogger('gateway', config.LOG_LEVEL);
const redis = createRedis(config.REDIS_URL, config.REDIS_PREFIX, log);
const downstream = connectDownstream(config);

async function notReady(): Promise<string[]> {
  const checks = Object.entries(downstream.health).map(async ([name, check]) => ((await check()) ? undefined : name));
  checks.push(redis.ping().then(() => undefined, () => 'redis'));
  return (await Promise.all(checks)).filter((name): name is string => name !== undefined);
}

const { app } = createApp({
  log,
  clients: downstream.clients,
  authenticate: await createAuthenticator(config.JWT_PUBLIC_KEY, redis),
  metrics: createMetrics(),
  notReady,
  trustProxy: config.TRUST_PROXY,
});

const server = app.listen(config.PORT, () => log.info({ port: config.PORT }, 'gateway listening'));
server.keepAliveTimeout = 65_000;

onShutdown(log, [
  ['http', () => new Promise<void>((resolve) => { server.close(() => resolve()); server.closeIdleConnections(); })],
  ['downstream', async () => downstream.close()],
  ['redis', () => redis.quit()],
]);
