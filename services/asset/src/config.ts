import { loadConfig, serviceEnvOf } from '@wms/kit/config';
import { storageEnv } from '@wms/kit/storage';
import { z } from 'zod';

export const schema = z.object({
  ...serviceEnvOf('asset'),
  ...storageEnv,
});

export type AssetConfig = ReturnType<typeof loadAssetConfig>;

export const loadAssetConfig = (source: NodeJS.ProcessEnv = process.env) => loadConfig(schema, source);
