import { env, loadConfig, serviceEnvOf } from '@wms/kit/config';
import { z } from 'zod';

export const schema = z
  .object({
    ...serviceEnvOf('identity'),
    SMTP_URL: env.url('smtp://127.0.0.1:1025'),
    MAIL_FROM: env.string('wms <no-reply@wms.local>'),
    PUBLIC_URL: env.url('http://localhost:8080').transform((u) => u.replace(/\/+$/, '')),
    SESSION_TTL_SECONDS: env.int(30 * 24 * 60 * 60),
    JWT_PRIVATE_KEY: z.string({ error: 'is required (PEM, PKCS#8 Ed25519)' }).min(1).optional(),
    AUTH_RATE_LIMIT_PER_EMAIL_IP: env.int(10, 1),
    AUTH_RATE_LIMIT_PER_EMAIL: env.int(100, 1),
    AUTH_RATE_LIMIT_RESET_PER_IP: env.int(10, 1),
    AUTH_RATE_LIMIT_PER_IP: env.int(100, 1),
    AUTH_RATE_LIMIT_WINDOW_SECONDS: env.int(900, 1),
  })
  .refine((c) => c.ROLE === 'migrate' || c.JWT_PRIVATE_KEY, {
    path: ['JWT_PRIVATE_KEY'],
    message: 'is required (PEM, PKCS#8 Ed25519)',
  });

export type IdentityConfig = ReturnType<typeof loadIdentityConfig>;

export const loadIdentityConfig = (source: NodeJS.ProcessEnv = process.env) => loadConfig(schema, source);
