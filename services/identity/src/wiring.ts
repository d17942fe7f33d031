import type { Knex } from '@wms/kit/db';
import type { Redis } from '@wms/kit/redis';
import { AccessTokens } from './access-tokens.ts';
import type { ThrottleLimits } from './domain/throttle.ts';
import { IdentityService } from './identity.service.ts';
import type { Mailer } from './mail/mailer.ts';
import { EmailCodeStore } from './store/email-code.store.ts';
import { EmailTokenStore } from './store/email-token.store.ts';
import { SessionStore } from './store/session.store.ts';
import { ThrottleStore } from './store/throttle.store.ts';
import { UserStore } from './store/user.store.ts';

export interface IdentitySettings {
  jwtPrivateKey: string;
  publicUrl: string;
  sessionTtlSeconds: number;
  limits: ThrottleLimits;
}

/** Builds the identity service from its connections (shared by main.ts and the integration tests). */
export async function buildIdentityService(db: Knex, redis: Redis, mailer: Mailer, settings: IdentitySettings): Promise<IdentityService> {
  return new IdentityService({
    db,
    users: new UserStore(db),
    sessions: new SessionStore(db, redis),
    tokens: new EmailTokenStore(db),
    codes: new EmailCodeStore(db),
    throttle: new ThrottleStore(redis, settings.limits.windowSeconds * 1000),
    accessTokens: await AccessTokens.fromPem(settings.jwtPrivateKey),
    mailer,
    config: { publicUrl: settings.publicUrl, sessionTtlSeconds: settings.sessionTtlSeconds, limits: settings.limits },
  });
}
