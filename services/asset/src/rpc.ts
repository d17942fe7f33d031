import { invalidInput } from '@wms/kit/errors';
import type { PeerClient } from '@wms/kit/grpc-client';
import type { ServiceHandlers } from '@wms/kit/grpc-server';
import type { UploadChunk__Output } from '@wms/protos/gen/wms/asset/v1/UploadChunk';
import type { Asset as AssetMessage } from '@wms/protos/gen/wms/common/v1/Asset';
import type { Download } from '@wms/protos/gen/wms/common/v1/Download';
import type { AssetService, Conversations } from './asset.service.ts';
import { type Asset, type AssetDownload, previewKind } from './domain/asset.ts';

/** The asset as clients see it (contract §6). */
const toAssetMessage = (a: Asset): AssetMessage => ({
  id: a.id,
  created_at: a.createdAt.toISOString(),
  updated_at: a.updatedAt.toISOString(),
  conversation_id: a.conversationId,
  message_id: a.messageId ?? undefined,
  name: a.name,
  size_bytes: a.sizeBytes,
  content_type: a.contentType,
  status: a.status,
  preview_kind: previewKind(a.contentType) ?? undefined,
});

const toDownload = (d: AssetDownload): Download => ({
  url: d.url,
  expires_at: d.expiresAt.toISOString(),
  name: d.name,
  content_type: d.contentType,
  size_bytes: d.sizeBytes,
});

/** An upload stream as the service takes it: the asset the first chunk names, then the data of the others. */
async function uploadOf(
  chunks: AsyncIterable<UploadChunk__Output>,
): Promise<{ conversationId: string; assetId: string; data: AsyncIterable<Buffer> }> {
  const parts = chunks[Symbol.asyncIterator]();
  const first = await parts.next();
  const ref = first.done ? undefined : first.value.asset;
  if (!ref) throw invalidInput([{ field: 'asset', message: 'the first chunk must name the asset' }]);
  return { conversationId: ref.conversation_id, assetId: ref.asset_id, data: dataOf(parts) };
}

async function* dataOf(parts: AsyncIterator<UploadChunk__Output>): AsyncGenerator<Buffer> {
  for (;;) {
    const next = await parts.next().catch((err: unknown) => {
      // The gateway cancelled the call (its client went away, or it refused the file): no failure of this service.
      if ((err as { code?: unknown }).code === 'ERR_STREAM_PREMATURE_CLOSE')
        throw invalidInput([{ field: 'data', message: 'the stream was cancelled' }], 'The upload was cut off.');
      throw err;
    });
    if (next.done) return;
    const data = next.value.data;
    if (!data) throw invalidInput([{ field: 'data', message: 'only the first chunk names the asset' }]);
    yield data;
  }
}

/** The messaging service: whether the caller sees a conversation, and telling a message's readers its asset is ready. */
export const conversationsOf = (
  messaging: Pick<PeerClient<'messaging'>, 'GetChannel' | 'AnnounceAssetsReady'>,
): Conversations => ({
  require: async (ctx, conversationId) => {
    await messaging.GetChannel({ channel_id: conversationId }, ctx);
  },
  announceReady: async (ctx, conversationId, messageId) => {
    await messaging.AnnounceAssetsReady({ conversation_id: conversationId, message_id: messageId }, ctx);
  },
});

export function assetHandlers(service: AssetService): ServiceHandlers<'asset'> {
  return {
    CreateAsset: async (req, ctx) =>
      toAssetMessage(
        await service.reserve(ctx, {
          conversationId: req.conversation_id,
          name: req.name,
          contentType: req.content_type,
          sizeBytes: Number(req.size_bytes),
        }),
      ),
    UploadAssetContent: async (chunks, ctx) => toAssetMessage(await service.upload(ctx, await uploadOf(chunks))),
    GetAssetDownload: async (req, ctx) => toDownload(await service.download(ctx, req.conversation_id, req.asset_id)),
    AttachAssets: async (req, ctx) => ({
      assets: (
        await service.attach(ctx, {
          conversationId: req.conversation_id,
          messageId: req.message_id,
          assetIds: req.asset_ids,
        })
      ).map(toAssetMessage),
    }),
    GetAssetsByIds: async (req, ctx) => ({ assets: (await service.getByIds(ctx, req.ids)).map(toAssetMessage) }),
    ReleaseMessageAssets: async (req) => {
      await service.release(req.workspace_id || undefined, req.message_ids);
      return {};
    },
    PurgeWorkspace: async (req) => ({ done: await service.purgeWorkspace(req.workspace_id) }),
    DetachMessageAssets: async (req) => {
      await service.detach(req.workspace_id || undefined, req.message_ids);
      return {};
    },
  };
}
