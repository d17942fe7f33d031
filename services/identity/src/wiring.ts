import { type Knex, transactor } from '@wms/kit/db';
import { redisCheck } from '@wms/kit/health';
import { createRedis, type Redis, redisReady, redisTarget } from '@wms/kit/redis';
import type { ProcessBase, StartedServer } from '@wms/kit/service';
import { JwtAccessTokens } from './adapters/jwt-access-tokens.ts';
import { createSmtpMailer } from './adapters/smtp-mailer.ts';
import type { IdentityConfig } from './config.ts';
import type { ThrottleLimits } from './domain/throttle.ts';
import { IdentityService, type Mailer } from './identity.service.ts';
import { identityHandlers } from './rpc.ts';
import { EmailCodeStore } from './store/email-code.store.ts';
import { EmailTokenStore } from './store/email-token.store.ts';
import { SessionStore } from './store/session.store.ts';
import { ThrottleStore } from '@wms/kit/throttle';
import { UserStore } from './store/user.store.ts';

export interface IdentitySettings {
  jwtPrivateKey: string;
  publicUrl: string;
  sessionTtlSeconds: number;
  limits: ThrottleLimits;
}

/** The identity service and its stores over one pool and one Redis (tests build it here too). */
export async function buildIdentityService(
  c: { db: Knex; redis: Redis; mailer: Mailer },
  settings: IdentitySettings,
): Promise<IdentityService> {
  return new IdentityService({
    transact: transactor(c.db),
    users: new UserStore(c.db),
    sessions: new SessionStore(c.db, c.redis),
    tokens: new EmailTokenStore(c.db),
    codes: new EmailCodeStore(c.db),
    throttle: new ThrottleStore(c.redis, settings.limits.windowSeconds * 1000),
    accessTokens: await JwtAccessTokens.fromPem(settings.jwtPrivateKey),
    mailer: c.mailer,
    config: { publicUrl: settings.publicUrl, sessionTtlSeconds: settings.sessionTtlSeconds, limits: settings.limits },
  });
}

/** The server role: the service's RPCs, with Redis (sessions, throttling) and SMTP besides the pool. */
export async function startIdentityServer(
  config: IdentityConfig,
  { db, log }: ProcessBase,
): Promise<StartedServer<'identity'>> {
  const redis = createRedis(redisTarget(config), config.REDIS_PREFIX, log);
  await redisReady(redis);
  const mailer = createSmtpMailer(config.SMTP_URL, config.MAIL_FROM, log);
  const service = await buildIdentityService(
    { db, redis, mailer },
    {
      // The config refuses a server role without a key.
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
    },
  );
  return {
    handlers: identityHandlers(service),
    checks: [redisCheck(redis)],
    stop: [
      ['mail', () => mailer.close()],
      ['redis', () => redis.quit()],
    ],
  };
}
