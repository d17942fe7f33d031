import { env, loadConfig, serviceEnvOf } from '@wms/kit/config';
import { storageEnv } from '@wms/kit/storage';
import { z } from 'zod';

export const schema = z.object({
  ...serviceEnvOf('asset'),
  ...storageEnv,
  /** How often the worker's sweep of unattached reservations runs (one run a period across all worker replicas). */
  CLEANUP_SWEEP_MS: env.int(10 * 60 * 1000, 100),
});

export type AssetConfig = ReturnType<typeof loadAssetConfig>;

export const loadAssetConfig = (source: NodeJS.ProcessEnv = process.env) => loadConfig(schema, source);
