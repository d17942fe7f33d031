import { schema as gatewaySchema } from '../../gateway/src/config.ts';
import { schema as assetSchema } from '../../services/asset/src/config.ts';
import { schema as identitySchema } from '../../services/identity/src/config.ts';
import { schema as messagingSchema } from '../../services/messaging/src/config.ts';
import { schema as realtimeSchema } from '../../services/realtime/src/config.ts';
import { schema as workspaceSchema } from '../../services/workspace/src/config.ts';

/** What each process reads from its environment: its config module's zod schema, by the process's name. */
export const configSchemas = {
  gateway: gatewaySchema,
  identity: identitySchema,
  workspace: workspaceSchema,
  messaging: messagingSchema,
  asset: assetSchema,
  realtime: realtimeSchema,
};
