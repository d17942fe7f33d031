import { env, loadConfig, serviceEnvOf } from '@wms/kit/config';
import { z } from 'zod';

/** An empty value counts as unset, so an operator can clear PUSHER_HOST to use Pusher's hosted service. */
const optional = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

// Soketi turns a numeric-looking secret into a number and then crashes on the first private subscription.
const nonNumeric = (fallback: string) =>
  env.string(fallback).refine((v) => !/^\d+(\.\d+)?$/.test(v), 'must not look like a number');

export const schema = z.object({
  ...serviceEnvOf('realtime'),
  /** The gateway's public URL: with a self-hosted provider, clients reach its websocket there (`/realtime/ws`). */
  PUBLIC_URL: env.url('http://localhost:8080').transform((u) => u.replace(/\/+$/, '')),
  PUSHER_APP_ID: env.string('app-id'),
  PUSHER_KEY: nonNumeric('app-key'),
  PUSHER_SECRET: nonNumeric('app-secret'),
  /** Set: a self-hosted provider (Soketi) at PUSHER_HOST:PUSHER_PORT. Unset: Pusher's hosted service in PUSHER_CLUSTER. */
  PUSHER_HOST: optional,
  PUSHER_PORT: env.port(6001),
  PUSHER_USE_TLS: env.bool(false),
  PUSHER_CLUSTER: env.string('mt1'),
  /** How often the worker reconciles every channel with the provider (webhooks can be lost). */
  PRESENCE_SWEEP_MS: env.int(30_000, 100),
});

export type RealtimeConfig = ReturnType<typeof loadRealtimeConfig>;

export const loadRealtimeConfig = (source: NodeJS.ProcessEnv = process.env) => loadConfig(schema, source);
