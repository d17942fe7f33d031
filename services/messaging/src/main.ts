import { createDb, runMigrationRole } from '@wms/kit/db';
import { bindHandlers, onShutdown, startGrpcServer } from '@wms/kit/grpc-server';
import { createLogger } from '@wms/kit/logger';
import { loadProto } from '@wms/protos';
import { migrations } from '../migrations/index.ts';
import { ChannelService } from './channel.service.ts';
import { loadMessagingConfig } from './config.ts';
import { messagingHandlers } from './rpc.ts';
import { ChannelStore } from './store/channel.store.ts';
import { OutboxStore } from './store/outbox.store.ts';

const config = loadMessagingConfig();
const log = createLogger('messaging', config.LOG_LEVEL);
const db = createDb({ url: config.DATABASE_URL, schema: config.DATABASE_SCHEMA, log, poolMax: 20 });

if (config.ROLE === 'migrate') {
  await runMigrationRole(db, config.DATABASE_SCHEMA, migrations, log);
} else {
  const channels = new ChannelService({ db, channels: new ChannelStore(db), outbox: new OutboxStore() });
  const { MessagingService: definition } = loadProto('messaging').wms.messaging.v1;
  const server = await startGrpcServer({
    port: config.GRPC_PORT,
    services: [{ definition: definition.service, implementation: bindHandlers(definition.service, messagingHandlers(channels), log) }],
  });
  log.info({ port: server.port }, 'messaging serving');
  onShutdown(log, [
    ['grpc', () => server.stop()],
    ['db', () => db.destroy()],
  ]);
}
