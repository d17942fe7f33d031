import { env, loadConfig, serviceEnv } from '@wms/kit/config';
import { storageEnv } from '@wms/kit/storage';
import { z } from 'zod';

const schema = z.object({
  ...serviceEnv,
  ...storageEnv,
  ROLE: z.enum(['server', 'worker', 'migrate']).default('server'),
  GRPC_PORT: env.port(50054),
  METRICS_PORT: env.port(9464),
  DATABASE_SCHEMA: env.string('asset'),
  MESSAGING_GRPC_URL: env.string('127.0.0.1:50053'),
});

export const loadAssetConfig = (source: NodeJS.ProcessEnv = process.env) => loadConfig(schema, source);
