import { runService } from '@wms/kit/service';
import { migrations } from '../migrations/index.ts';
import { loadIdentityConfig } from './config.ts';
import { startIdentityServer } from './wiring.ts';

const config = loadIdentityConfig();
await runService('identity', config, {
  migrations,
  server: (base) => startIdentityServer(config, base),
});
