import { env, loadConfig, peerEnv, redisEnv } from '@wms/kit/config';
import { storageEnv } from '@wms/kit/storage';
import { serviceNames } from '@wms/protos';
import { z } from 'zod';

export const schema = z.object({
  LOG_LEVEL: env.logLevel(),
  PORT: env.port(8080),
  ...redisEnv,
  ...storageEnv,
  ...peerEnv(serviceNames),
  JWT_PUBLIC_KEY: z.string({ error: 'is required (PEM, SPKI Ed25519)' }).min(1),
  /** Express `trust proxy`: `false`, `true`, a hop count, or addresses/subnets (`loopback`, `10.0.0.0/8`, ...). */
  TRUST_PROXY: z.string().default('false'),
  /** Requests an integration token may make in any 60 s, shared by every gateway replica (contract §11). */
  TOKEN_RATE_LIMIT_PER_MINUTE: env.int(120, 1),
  /** Deadline of every downstream call (contract §8: 10 s). */
  GRPC_DEADLINE_MS: env.int(10_000, 1),
  /** How long an upload may send nothing before it is refused (400) and its connection closed. */
  UPLOAD_IDLE_TIMEOUT_MS: env.int(30_000, 1),
  /**
   * A self-hosted realtime provider (Soketi), whose websocket clients reach through the gateway at `/realtime/ws`.
   * Unset (or empty): Pusher's hosted service, which clients reach directly.
   */
  PUSHER_HOST: z
    .string()
    .optional()
    .transform((v) => v?.trim() || undefined),
  PUSHER_PORT: env.port(6001),
  PUSHER_USE_TLS: env.bool(false),
});

export type GatewayConfig = ReturnType<typeof loadGatewayConfig>;

export const loadGatewayConfig = (source: NodeJS.ProcessEnv = process.env) => loadConfig(schema, source);

/** TRUST_PROXY as Express wants it. */
export function trustProxySetting(value: string): boolean | number | string {
  if (value === 'true' || value === 'false') return value === 'true';
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}
