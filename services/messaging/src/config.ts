import { env, loadConfig, serviceEnvOf } from '@wms/kit/config';
import { z } from 'zod';

export const schema = z.object({
  ...serviceEnvOf('messaging'),
  /** The Postgres text search configuration of message search (contract §10): its stemming and stop words. */
  SEARCH_TEXT_CONFIG: z
    .string()
    .regex(
      /^[a-z_][a-z0-9_]{0,62}(\.[a-z_][a-z0-9_]{0,62})?$/,
      'must name a text search configuration, such as english or simple',
    )
    .default('english'),
  /** How often the worker's cleanup sweep runs (one run a period across all worker replicas). */
  CLEANUP_SWEEP_MS: env.int(5 * 60 * 1000, 100),
});

export type MessagingConfig = ReturnType<typeof loadMessagingConfig>;

export const loadMessagingConfig = (source: NodeJS.ProcessEnv = process.env) => loadConfig(schema, source);
