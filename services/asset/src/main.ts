import { runService } from '@wms/kit/service';
import { migrations } from '../migrations/index.ts';
import { loadAssetConfig } from './config.ts';
import { startAssetServer } from './wiring.ts';
import { startAssetWorker } from './worker.ts';

const config = loadAssetConfig();
await runService('asset', config, {
  migrations,
  server: (base) => startAssetServer(config, base),
  worker: (base) => startAssetWorker(config, base),
});
