import { createDb, runMigrationRole } from '@wms/kit/db';
import { bindHandlers, onShutdown, startGrpcServer } from '@wms/kit/grpc-server';
import { postgresCheck, redisCheck } from '@wms/kit/health';
import { createLogger } from '@wms/kit/logger';
import { startProcessMetrics } from '@wms/kit/metrics';
import { createRedis, redisReady } from '@wms/kit/redis';
import { loadProto } from '@wms/protos';
import { migrations } from '../migrations/index.ts';
import { loadIdentityConfig } from './config.ts';
import { createSmtpMailer } from './mail/mailer.ts';
import { identityHandlers } from './rpc.ts';
import { buildIdentityService } from './wiring.ts';

const config = loadIdentityConfig();
const log = createLogger('identity', config.LOG_LEVEL);
const db = createDb({ url: config.DATABASE_URL, schema: config.DATABASE_SCHEMA, log });

if (config.ROLE === 'migrate') {
  await runMigrationRole(db, config.DATABASE_SCHEMA, migrations, log);
} else {
  const { metrics, server: metricsServer } = await startProcessMetrics({ port: config.METRICS_PORT, host: config.GRPC_HOST, log, db });
  const redis = createRedis(config.REDIS_URL, config.REDIS_PREFIX, log);
  await redisReady(redis);
  const mailer = createSmtpMailer(config.SMTP_URL, config.MAIL_FROM, log);
  const service = await buildIdentityService(db, redis, mailer, {
    jwtPrivateKey: config.JWT_PRIVATE_KEY!,
    publicUrl: config.PUBLIC_URL,
    sessionTtlSeconds: config.SESSION_TTL_SECONDS,
    limits: {
      perEmailIp: config.AUTH_RATE_LIMIT_PER_EMAIL_IP,
      perEmail: config.AUTH_RATE_LIMIT_PER_EMAIL,
      resetPerIp: config.AUTH_RATE_LIMIT_RESET_PER_IP,
      perIp: config.AUTH_RATE_LIMIT_PER_IP,
      windowSeconds: config.AUTH_RATE_LIMIT_WINDOW_SECONDS,
    },
  });
  const { IdentityService: definition } = loadProto('identity').wms.identity.v1;
  const server = await startGrpcServer({
    port: config.GRPC_PORT,
    host: config.GRPC_HOST,
    services: [{ definition: definition.service, implementation: bindHandlers(definition.service, identityHandlers(service), log, metrics) }],
    dependencies: { checks: [postgresCheck(db), redisCheck(redis)], log },
  });
  log.info({ host: config.GRPC_HOST, port: server.port, metrics_port: metricsServer.port }, 'identity serving');
  onShutdown(log, [
    ['grpc', () => server.stop()],
    ['mail', () => mailer.close()],
    ['redis', () => redis.quit()],
    ['db', () => db.destroy()],
    ['metrics', () => metricsServer.close()],
  ]);
}
