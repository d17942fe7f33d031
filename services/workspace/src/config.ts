import { env, loadConfig, serviceEnvOf } from '@wms/kit/config';
import { storageEnv } from '@wms/kit/storage';
import { z } from 'zod';

export const schema = z.object({
  ...serviceEnvOf('workspace'),
  ...storageEnv,
  // Invitation mails a workspace may send in a sliding hour (contract §12).
  INVITATION_RATE_LIMIT_PER_HOUR: env.int(100, 1),
});

export type WorkspaceConfig = ReturnType<typeof loadWorkspaceConfig>;

export const loadWorkspaceConfig = (source: NodeJS.ProcessEnv = process.env) => loadConfig(schema, source);
