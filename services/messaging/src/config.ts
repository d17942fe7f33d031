import { loadConfig, serviceEnvOf } from '@wms/kit/config';
import { z } from 'zod';

export const schema = z.object({
  ...serviceEnvOf('messaging'),
});

export type MessagingConfig = ReturnType<typeof loadMessagingConfig>;

export const loadMessagingConfig = (source: NodeJS.ProcessEnv = process.env) => loadConfig(schema, source);
