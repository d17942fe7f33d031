import type { AsyncHandlers } from '@wms/kit/grpc-server';
import type { AssetServiceDefinition } from '@wms/protos/gen/wms/asset/v1/AssetService';
import type { Asset as AssetMessage } from '@wms/protos/gen/wms/common/v1/Asset';
import type { AssetService } from './asset.service.ts';
import { type Asset, assetView } from './domain/asset.ts';

export type StreamingMethods = 'UploadAssetContent';

const toAsset = (a: Asset): AssetMessage => {
  const v = assetView(a);
  return { ...v, message_id: v.message_id ?? undefined, preview_kind: v.preview_kind ?? undefined };
};

export function assetHandlers(service: AssetService): AsyncHandlers<AssetServiceDefinition, StreamingMethods> {
  return {
    CreateAsset: async (req, ctx) =>
      toAsset(await service.reserve(ctx, { conversationId: req.conversation_id, name: req.name, contentType: req.content_type, sizeBytes: Number(req.size_bytes) })),
    UploadAssetContent: async (chunks, ctx) => toAsset(await service.upload(ctx, chunks)),
    GetAssetDownload: async (req, ctx) => service.download(ctx, req.conversation_id, req.asset_id),
    AttachAssets: async (req, ctx) => ({
      assets: (await service.attach(ctx, { conversationId: req.conversation_id, messageId: req.message_id, assetIds: req.asset_ids })).map(toAsset),
    }),
    GetAssetsByIds: async (req, ctx) => ({ assets: (await service.getByIds(ctx, req.ids)).map(toAsset) }),
    ReleaseMessageAssets: async (req) => {
      await service.release(req.message_ids);
      return {};
    },
    PurgeWorkspace: async (req) => ({ done: await service.purgeWorkspace(req.workspace_id) }),
    DetachMessageAssets: async (req) => {
      await service.detach(req.message_ids);
      return {};
    },
  };
}
