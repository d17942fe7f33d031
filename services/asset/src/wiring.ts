import type { Knex } from '@wms/kit/db';
import { connectPeer, type PeerClient } from '@wms/kit/grpc-client';
import type { Logger } from '@wms/kit/logger';
import type { ProcessBase, StartedServer } from '@wms/kit/service';
import { createStorage, type ObjectStorage, storageConfigFrom } from '@wms/kit/storage';
import { AssetService } from './asset.service.ts';
import type { AssetConfig } from './config.ts';
import { assetHandlers, conversationsOf } from './rpc.ts';
import { AssetStore } from './store/asset.store.ts';

/** The asset service and its stores over one pool. */
export function buildAssetService(d: {
  db: Knex;
  storage: ObjectStorage;
  messaging: Pick<PeerClient<'messaging'>, 'GetChannel' | 'AnnounceAssetsReady'>;
  log: Logger;
}): AssetService {
  return new AssetService({
    assets: new AssetStore(d.db),
    storage: d.storage,
    conversations: conversationsOf(d.messaging),
    log: d.log,
  });
}

/** The server role: the service's RPCs; it holds no Redis client. */
export async function startAssetServer(config: AssetConfig, { db, log }: ProcessBase): Promise<StartedServer<'asset'>> {
  const messaging = connectPeer('messaging', config.MESSAGING_GRPC_URL);
  const service = buildAssetService({ db, storage: createStorage(storageConfigFrom(config)), messaging, log });
  return { handlers: assetHandlers(service), stop: [['messaging client', async () => messaging.close()]] };
}
