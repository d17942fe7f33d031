import { env, loadConfig, serviceEnv } from '@wms/kit/config';
import { z } from 'zod';

const schema = z.object({
  ...serviceEnv,
  ROLE: z.enum(['server', 'worker', 'migrate']).default('server'),
  GRPC_PORT: env.port(50053),
  METRICS_PORT: env.port(9463),
  DATABASE_SCHEMA: env.string('messaging'),
  WORKSPACE_GRPC_URL: env.string('127.0.0.1:50052'),
  ASSET_GRPC_URL: env.string('127.0.0.1:50054'),
});

export const loadMessagingConfig = (source: NodeJS.ProcessEnv = process.env) => loadConfig(schema, source);
