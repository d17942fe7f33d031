import { runService } from '@wms/kit/service';
import { migrations } from '../migrations/index.ts';
import { loadWorkspaceConfig } from './config.ts';
import { startWorkspaceServer } from './wiring.ts';
import { startWorkspaceWorker } from './worker.ts';

const config = loadWorkspaceConfig();
await runService('workspace', config, {
  migrations,
  server: (base) => startWorkspaceServer(config, base),
  worker: (base) => startWorkspaceWorker(config, base),
});
