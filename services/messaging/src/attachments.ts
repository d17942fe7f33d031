import type { CallContext } from '@wms/kit/context';
import type { AsyncClient } from '@wms/kit/grpc-client';
import type { AssetServiceDefinition } from '@wms/protos/gen/wms/asset/v1/AssetService';
import type { Asset__Output } from '@wms/protos/gen/wms/common/v1/Asset';
import type { AssetView, Message } from './domain/message.ts';

export type AssetClient = Pick<AsyncClient<AssetServiceDefinition>, 'GetAssetsByIds' | 'AttachAssets' | 'ReleaseMessageAssets' | 'DetachMessageAssets'>;

const toAssetView = (a: Asset__Output): AssetView => ({
  id: a.id,
  created_at: a.created_at,
  updated_at: a.updated_at,
  conversation_id: a.conversation_id,
  message_id: a.message_id ?? null,
  name: a.name,
  size_bytes: Number(a.size_bytes),
  content_type: a.content_type,
  status: a.status,
  preview_kind: a.preview_kind ?? null,
});

const byId = (assets: Asset__Output[]) => new Map(assets.map((a) => [a.id, toAssetView(a)]));

/** Messages' attachments, owned by the asset service: one batch call per response, none when nothing is attached. */
export class Attachments {
  constructor(private readonly assets: AssetClient) {}

  async of(ctx: CallContext, messages: Message[]): Promise<Map<string, AssetView>> {
    const ids = [...new Set(messages.flatMap((m) => (m.deletedAt === null ? m.assetIds : [])))];
    if (ids.length === 0) return new Map();
    return byId((await this.assets.GetAssetsByIds({ ids }, ctx)).assets);
  }

  /** Attaches the caller's reservations to a new message, all or none (the asset service answers 400 otherwise). */
  async attach(ctx: CallContext, message: Pick<Message, 'id' | 'conversationId' | 'assetIds'>): Promise<Map<string, AssetView>> {
    if (message.assetIds.length === 0) return new Map();
    const { assets } = await this.assets.AttachAssets({ conversation_id: message.conversationId, message_id: message.id, asset_ids: message.assetIds }, ctx);
    return byId(assets);
  }

  /** When the message an attach was for did not commit: its assets are free to attach again. */
  async detach(ctx: CallContext, messageId: string): Promise<void> {
    await this.assets.DetachMessageAssets({ message_ids: [messageId] }, ctx);
  }

  /**
   * After deletes committed: the messages' assets and their bytes go. The messages keep naming them until the caller
   * calls `MessageStore.forgetAssets`, so what fails here is retried by the cleanup worker.
   */
  async release(ctx: CallContext, messageIds: string[]): Promise<void> {
    if (messageIds.length > 0) await this.assets.ReleaseMessageAssets({ message_ids: messageIds }, ctx);
  }
}
