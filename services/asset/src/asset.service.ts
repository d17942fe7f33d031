import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { type Caller, callerOf } from '@wms/kit/caller';
import type { CallContext } from '@wms/kit/context';
import { failedPrecondition, forbidden, invalidInput, notFound } from '@wms/kit/errors';
import { batchIds, isUuid, uuidv7 } from '@wms/kit/ids';
import type { Logger } from '@wms/kit/logger';
import type { ObjectStorage } from '@wms/kit/storage';
import { type Asset, type AssetDownload, DOWNLOAD_SECONDS, previewKind, validateNewAsset } from './domain/asset.ts';
import { UploadBody } from './domain/upload.ts';
import type { AssetStore } from './store/asset.store.ts';

/** The conversations assets belong to, as the messaging service shows them to the caller. */
export interface Conversations {
  /** Resolves when the caller sees the conversation in the workspace; fails as not found otherwise. */
  require(ctx: CallContext, conversationId: string): Promise<void>;
  /** An asset attached to the message is ready: the messaging service tells the message's readers. */
  announceReady(ctx: CallContext, conversationId: string, messageId: string): Promise<void>;
}

export interface AssetDeps {
  assets: AssetStore;
  storage: ObjectStorage;
  conversations: Conversations;
  log: Logger;
}

const PURGE_BATCH = 500;
/** Message ids per release or detach call. */
const MAX_MESSAGE_IDS = 500;

/** The workspace a release or detach names: a UUID, else 400. */
function workspaceOfMessages(workspaceId: string | undefined): string {
  if (workspaceId === undefined || !isUuid(workspaceId))
    throw invalidInput([{ field: 'workspace_id', message: 'must be a UUID' }]);
  return workspaceId;
}

/** Attachments (contract §6): reserve, upload once, download by signed URL, attach to a message. */
export class AssetService {
  constructor(private readonly d: AssetDeps) {}

  /** Reserves a pending attachment in a conversation of the workspace (asked of the messaging service). */
  async reserve(
    ctx: CallContext,
    input: { conversationId: string; name: string; contentType: string; sizeBytes: number },
  ): Promise<Asset> {
    const me = callerOf(ctx);
    const fields = validateNewAsset(input);
    await this.d.conversations.require(ctx, input.conversationId);
    return this.d.assets.insert({
      id: uuidv7(),
      workspaceId: me.workspaceId,
      conversationId: input.conversationId,
      reservedByActorId: me.actorId,
      ...fields,
    });
  }

  /**
   * Streams the content to storage as it arrives, never holding the file: over 10 MiB is file_too_large (whatever was
   * reserved), another length than reserved size_mismatch, and a refused upload leaves nothing stored. A ready asset
   * never changes: a retry answers it at once; of concurrent uploads the first to finish wins and the others' bytes
   * are removed.
   */
  async upload(
    ctx: CallContext,
    input: { conversationId: string; assetId: string; data: AsyncIterable<Buffer> },
  ): Promise<Asset> {
    const me = callerOf(ctx);
    const asset = await this.requireAsset(ctx, me, input.conversationId, input.assetId);
    if (asset.reservedByActorId !== me.actorId)
      throw forbidden('Only the actor who reserved the asset uploads its content.');
    if (asset.status === 'ready') return this.announced(ctx, asset);

    const key = `assets/${asset.workspaceId}/${asset.id}/${randomUUID()}`;
    const body = new UploadBody(input.data[Symbol.asyncIterator](), asset.sizeBytes);
    try {
      await this.d.storage.put(key, Readable.from(body.toStore()), {
        contentType: asset.contentType,
        size: asset.sizeBytes,
      });
    } catch (err) {
      await this.removeBytes([key]);
      throw body.overflowed ? await body.refusal() : err;
    }
    const ready = await this.d.assets.markReady(asset.workspaceId, asset.id, key);
    if (ready) return this.announced(ctx, ready);
    await this.removeBytes([key]);
    return (await this.d.assets.find(me.workspaceId, asset.id)) ?? asset;
  }

  /**
   * A ready asset, its message's readers told (contract §13: they see the file arrive). A retried upload tells them
   * again, so an upload answered 503 because this failed is told by its retry.
   */
  private async announced(ctx: CallContext, asset: Asset): Promise<Asset> {
    if (asset.messageId) await this.d.conversations.announceReady(ctx, asset.conversationId, asset.messageId);
    return asset;
  }

  /** A URL serving the exact bytes for five minutes; images inline, anything else as an attachment. */
  async download(ctx: CallContext, conversationId: string, assetId: string): Promise<AssetDownload> {
    const asset = await this.requireAsset(ctx, callerOf(ctx), conversationId, assetId);
    if (asset.status !== 'ready' || !asset.storageKey)
      throw failedPrecondition('asset_not_ready', 'The asset has no content yet.');
    const { url, expiresAt } = await this.d.storage.signedUrl(asset.storageKey, {
      expiresInSeconds: DOWNLOAD_SECONDS,
      contentType: asset.contentType,
      fileName: asset.name,
      disposition: previewKind(asset.contentType) ? 'inline' : 'attachment',
    });
    return { url, expiresAt, name: asset.name, contentType: asset.contentType, sizeBytes: asset.sizeBytes };
  }

  /** Attaches the caller's unattached reservations of the conversation to a new message, all or none (else 400). */
  async attach(
    ctx: CallContext,
    input: { conversationId: string; messageId: string; assetIds: string[] },
  ): Promise<Asset[]> {
    const me = callerOf(ctx);
    const ids = [...new Set(input.assetIds)];
    const attached = await this.d.assets.attach({
      workspaceId: me.workspaceId,
      conversationId: input.conversationId,
      actorId: me.actorId,
      messageId: input.messageId,
      ids,
    });
    if (!attached)
      throw invalidInput([{ field: 'body.asset_ids', message: 'must be your unattached assets of this conversation' }]);
    return attached;
  }

  /** After messages of the workspace were deleted: their assets go, with their bytes. */
  async release(workspaceId: string | undefined, messageIds: string[]): Promise<void> {
    const keys = await this.d.assets.deleteOfMessages(
      workspaceOfMessages(workspaceId),
      batchIds(messageIds, 'message_ids', MAX_MESSAGE_IDS),
    );
    if (keys.length > 0) await this.removeBytes(keys);
  }

  /**
   * After a new message of the workspace failed to commit: its assets are unattached reservations again, to be attached
   * by a retry.
   */
  async detach(workspaceId: string | undefined, messageIds: string[]): Promise<void> {
    await this.d.assets.detach(workspaceOfMessages(workspaceId), batchIds(messageIds, 'message_ids', MAX_MESSAGE_IDS));
  }

  /**
   * One batch of a deleted workspace's assets: bytes first, then the rows, so a failure leaves them to the next try.
   * True when none are left.
   */
  async purgeWorkspace(workspaceId: string): Promise<boolean> {
    if (!isUuid(workspaceId)) throw invalidInput([{ field: 'workspace_id', message: 'must be a UUID' }]);
    const batch = await this.d.assets.ofWorkspace(workspaceId, PURGE_BATCH);
    const keys = batch.flatMap((a) => (a.storageKey ? [a.storageKey] : []));
    if (keys.length > 0) await this.d.storage.delete(keys);
    if (batch.length > 0)
      await this.d.assets.deleteIds(
        workspaceId,
        batch.map((a) => a.id),
      );
    return batch.length < PURGE_BATCH;
  }

  getByIds(ctx: CallContext, ids: string[]): Promise<Asset[]> {
    return this.d.assets.findMany(callerOf(ctx).workspaceId, batchIds(ids));
  }

  /**
   * An asset of a conversation the caller may read now (asked of the messaging service, contract §9), or 404: the
   * conversation's answer first, as the order of checks has it. The two questions are asked at once.
   */
  private async requireAsset(ctx: CallContext, me: Caller, conversationId: string, assetId: string): Promise<Asset> {
    const [conversation, found] = await Promise.allSettled([
      this.d.conversations.require(ctx, conversationId),
      this.d.assets.find(me.workspaceId, assetId),
    ]);
    if (conversation.status === 'rejected') throw conversation.reason;
    if (found.status === 'rejected') throw found.reason;
    const asset = found.value;
    if (!asset || asset.conversationId !== conversationId) throw notFound('No such asset in this conversation.');
    return asset;
  }

  private async removeBytes(keys: string[]): Promise<void> {
    await this.d.storage
      .delete(keys)
      .catch((err: unknown) => this.d.log.warn({ err, keys }, 'could not remove uploaded bytes'));
  }
}
