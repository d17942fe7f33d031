import { env, loadConfig, serviceEnv } from '@wms/kit/config';
import { storageEnv } from '@wms/kit/storage';
import { z } from 'zod';

const schema = z.object({
  ...serviceEnv,
  ...storageEnv,
  ROLE: z.enum(['server', 'worker', 'migrate']).default('server'),
  GRPC_PORT: env.port(50052),
  METRICS_PORT: env.port(9462),
  DATABASE_SCHEMA: env.string('workspace'),
  IDENTITY_GRPC_URL: env.string('127.0.0.1:50051'),
  // The worker purges a deleted workspace's data in the services that hold it.
  MESSAGING_GRPC_URL: env.string('127.0.0.1:50053'),
  ASSET_GRPC_URL: env.string('127.0.0.1:50054'),
});

export const loadWorkspaceConfig = (source: NodeJS.ProcessEnv = process.env) => loadConfig(schema, source);
