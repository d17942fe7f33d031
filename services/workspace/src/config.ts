import { loadConfig, serviceEnvOf } from '@wms/kit/config';
import { storageEnv } from '@wms/kit/storage';
import { z } from 'zod';

export const schema = z.object({
  ...serviceEnvOf('workspace'),
  ...storageEnv,
});

export type WorkspaceConfig = ReturnType<typeof loadWorkspaceConfig>;

export const loadWorkspaceConfig = (source: NodeJS.ProcessEnv = process.env) => loadConfig(schema, source);
