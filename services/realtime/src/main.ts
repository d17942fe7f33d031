import { runService } from '@wms/kit/service';
import { migrations } from '../migrations/index.ts';
import { loadRealtimeConfig } from './config.ts';
import { ensureEventSlot } from './store/event-slot.ts';
import { startRealtimeServer } from './wiring.ts';
import { startRealtimeWorker } from './worker.ts';

const config = loadRealtimeConfig();
await runService('realtime', config, {
  migrations,
  migrated: ensureEventSlot,
  server: (base) => startRealtimeServer(config, base),
  worker: (base) => startRealtimeWorker(config, base),
});
