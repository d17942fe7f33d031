import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { type Caller, callerOf } from '@wms/kit/caller';
import type { CallContext } from '@wms/kit/context';
import { type DomainError, failedPrecondition, forbidden, invalidInput, notFound } from '@wms/kit/errors';
import type { AsyncClient } from '@wms/kit/grpc-client';
import { batchIds, isUuid, uuidv7 } from '@wms/kit/ids';
import type { Logger } from '@wms/kit/logger';
import type { ObjectStorage } from '@wms/kit/storage';
import type { UploadChunk__Output } from '@wms/protos/gen/wms/asset/v1/UploadChunk';
import type { MessagingServiceDefinition } from '@wms/protos/gen/wms/messaging/v1/MessagingService';
import { type Asset, DOWNLOAD_SECONDS, fileTooLarge, MAX_ASSET_BYTES, previewKind, sizeMismatch, validateNewAsset } from './domain/asset.ts';
import type { AssetStore } from './store/asset.store.ts';

export interface AssetDeps {
  assets: AssetStore;
  storage: ObjectStorage;
  messaging: Pick<AsyncClient<MessagingServiceDefinition>, 'GetChannel'>;
  log: Logger;
}

const PURGE_BATCH = 500;

/** Attachments (contract §6): reserve, upload once, download by signed URL, attach to a message. */
export class AssetService {
  constructor(private readonly d: AssetDeps) {}

  /** Reserves a pending attachment in a conversation of the workspace (asked of the messaging service). */
  async reserve(ctx: CallContext, input: { conversationId: string; name: string; contentType: string; sizeBytes: number }): Promise<Asset> {
    const me = callerOf(ctx);
    const fields = validateNewAsset(input);
    await this.d.messaging.GetChannel({ channel_id: input.conversationId }, ctx);
    return this.d.assets.insert({ id: uuidv7(), workspaceId: me.workspaceId, conversationId: input.conversationId, reservedByActorId: me.actorId, ...fields });
  }

  /**
   * Streams the content to storage as it arrives, never holding the file: over 10 MiB is file_too_large (whatever was
   * reserved), another length than reserved size_mismatch, and a refused upload leaves nothing stored. A ready asset
   * never changes: a retry answers it at once; of concurrent uploads the first to finish wins and the others' bytes
   * are removed.
   */
  async upload(ctx: CallContext, chunks: AsyncIterable<UploadChunk__Output>): Promise<Asset> {
    const me = callerOf(ctx);
    const parts = chunks[Symbol.asyncIterator]();
    const first = await parts.next();
    const ref = first.done ? undefined : first.value.asset;
    if (!ref) throw invalidInput([{ field: 'asset', message: 'the first chunk must name the asset' }]);
    const asset = await this.requireAsset(me, ref.conversation_id, ref.asset_id);
    if (asset.reservedByActorId !== me.actorId) throw forbidden('Only the actor who reserved the asset uploads its content.');
    if (asset.status === 'ready') return asset;

    const key = `assets/${asset.workspaceId}/${asset.id}/${randomUUID()}`;
    const body = new UploadBody(parts, asset.sizeBytes);
    try {
      await this.d.storage.put(key, Readable.from(body.toStore()), { contentType: asset.contentType, size: asset.sizeBytes });
    } catch (err) {
      await this.removeBytes([key]);
      throw body.overflowed ? await body.refusal() : err;
    }
    const ready = await this.d.assets.markReady(asset.id, key);
    if (ready) return ready;
    await this.removeBytes([key]);
    return (await this.d.assets.find(me.workspaceId, asset.id)) ?? asset;
  }

  /** A URL serving the exact bytes for five minutes; images inline, anything else as an attachment. */
  async download(ctx: CallContext, conversationId: string, assetId: string) {
    const asset = await this.requireAsset(callerOf(ctx), conversationId, assetId);
    if (asset.status !== 'ready' || !asset.storageKey) throw failedPrecondition('asset_not_ready', 'The asset has no content yet.');
    const { url, expiresAt } = await this.d.storage.signedUrl(asset.storageKey, {
      expiresInSeconds: DOWNLOAD_SECONDS,
      contentType: asset.contentType,
      fileName: asset.name,
      disposition: previewKind(asset.contentType) ? 'inline' : 'attachment',
    });
    return { url, expires_at: expiresAt.toISOString(), name: asset.name, content_type: asset.contentType, size_bytes: asset.sizeBytes };
  }

  /** Attaches the caller's unattached reservations of the conversation to a new message, all or none (else 400). */
  async attach(ctx: CallContext, input: { conversationId: string; messageId: string; assetIds: string[] }): Promise<Asset[]> {
    const me = callerOf(ctx);
    const ids = [...new Set(input.assetIds)];
    const attached = ids.every(isUuid) ? await this.d.assets.attach({ workspaceId: me.workspaceId, conversationId: input.conversationId, actorId: me.actorId, messageId: input.messageId, ids }) : undefined;
    if (!attached) throw invalidInput([{ field: 'body.asset_ids', message: 'must be your unattached assets of this conversation' }]);
    return attached;
  }

  /** After messages were deleted: their assets go, with their bytes. */
  async release(messageIds: string[]): Promise<void> {
    const keys = await this.d.assets.deleteOfMessages(messageIdsOf(messageIds));
    if (keys.length > 0) await this.removeBytes(keys);
  }

  /** After a new message failed to commit: its assets are unattached reservations again, to be attached by a retry. */
  async detach(messageIds: string[]): Promise<void> {
    await this.d.assets.detach(messageIdsOf(messageIds));
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
    if (batch.length > 0) await this.d.assets.deleteIds(batch.map((a) => a.id));
    return batch.length < PURGE_BATCH;
  }

  getByIds(ctx: CallContext, ids: string[]): Promise<Asset[]> {
    return this.d.assets.findMany(callerOf(ctx).workspaceId, batchIds(ids));
  }

  private async requireAsset(me: Caller, conversationId: string, assetId: string): Promise<Asset> {
    const asset = isUuid(assetId) ? await this.d.assets.find(me.workspaceId, assetId) : undefined;
    if (!asset || asset.conversationId !== conversationId) throw notFound('No such asset in this conversation.');
    return asset;
  }

  private async removeBytes(keys: string[]): Promise<void> {
    await this.d.storage.delete(keys).catch((err: unknown) => this.d.log.warn({ err, keys }, 'could not remove uploaded bytes'));
  }
}

/** The message ids of a release or detach request: at most 500; anything but a UUID matches no message. */
function messageIdsOf(ids: string[]): string[] {
  if (ids.length > 500) throw invalidInput([{ field: 'message_ids', message: 'at most 500 ids per call' }]);
  return [...new Set(ids)].filter(isUuid);
}

/**
 * The data chunks after the header, counted. Storing stops at the first byte past the reservation, but the answer
 * waits: more bytes than reserved may still turn out to be more than 10 MiB, which is file_too_large, not
 * size_mismatch (contract §6). So the rest is read and dropped (memory stays flat) until the stream ends
 * (size_mismatch), passes 10 MiB (file_too_large), or the gateway, which refuses a file over 10 MiB itself,
 * cancels it (its answer is then the client's).
 */
class UploadBody {
  private received = 0;
  /** Set once more bytes arrived than were reserved: the storing failed on purpose, `refusal` tells the answer. */
  overflowed = false;

  constructor(
    private readonly parts: AsyncIterator<UploadChunk__Output>,
    private readonly reserved: number,
  ) {}

  /** The bytes to store while they fit the reservation; fails at the first byte past it, or when the stream ends short. */
  async *toStore(): AsyncGenerator<Buffer> {
    for (let data = await this.next(); data; data = await this.next()) {
      if (this.received > this.reserved) {
        this.overflowed = true;
        throw sizeMismatch();
      }
      yield data;
    }
    if (this.received !== this.reserved) throw sizeMismatch();
  }

  /** After an overflow: the refusal, once the rest of the stream was read without keeping it. */
  async refusal(): Promise<DomainError> {
    while (await this.next());
    return sizeMismatch();
  }

  private async next(): Promise<Buffer | undefined> {
    const next = await this.parts.next().catch((err: unknown) => {
      // The gateway cancelled the call (its client went away, or it refused the file): no failure of this service.
      if ((err as { code?: unknown }).code === 'ERR_STREAM_PREMATURE_CLOSE') throw invalidInput([{ field: 'data', message: 'the stream was cancelled' }], 'The upload was cut off.');
      throw err;
    });
    if (next.done) return undefined;
    const data = next.value.data;
    if (!data) throw invalidInput([{ field: 'data', message: 'only the first chunk names the asset' }]);
    this.received += data.length;
    if (this.received > MAX_ASSET_BYTES) throw fileTooLarge();
    return data;
  }
}
