import { runService } from '@wms/kit/service';
import { migrations } from '../migrations/index.ts';
import { loadMessagingConfig } from './config.ts';
import { startMessagingServer } from './wiring.ts';
import { startMessagingWorker } from './worker.ts';

const config = loadMessagingConfig();
await runService('messaging', config, {
  migrations,
  server: (base) => startMessagingServer(config, base),
  worker: (base) => startMessagingWorker(config, base),
});
