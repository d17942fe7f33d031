import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { DomainError } from '@wms/kit/errors';
import { createLogger } from '@wms/kit/logger';
import type { ObjectStorage } from '@wms/kit/storage';
import type { UploadChunk__Output } from '@wms/protos/gen/wms/asset/v1/UploadChunk';
import { describe, expect, it } from 'vitest';
import { AssetService } from './asset.service.ts';
import { type Asset, MAX_ASSET_BYTES } from './domain/asset.ts';
import type { AssetStore } from './store/asset.store.ts';

const CHUNK = 64 * 1024;

/** Objects as byte counts; a failed put leaves what it had written, as a real driver may until the caller removes it. */
class MemoryStorage {
  readonly objects = new Map<string, number>();
  mostStored = 0;

  async put(key: string, body: Readable, meta: { size: number }): Promise<void> {
    let stored = 0;
    this.objects.set(key, 0);
    for await (const chunk of body as AsyncIterable<Buffer>) {
      stored += chunk.length;
      this.objects.set(key, stored);
      this.mostStored = Math.max(this.mostStored, stored);
    }
    if (stored !== meta.size) throw new Error('size differs');
  }

  async delete(keys: string[]): Promise<void> {
    for (const key of keys) this.objects.delete(key);
  }
}

function setup(sizeBytes: number) {
  const ctx = { requestId: 'test', userId: randomUUID(), workspaceId: randomUUID(), actorId: randomUUID() };
  const asset: Asset = {
    id: randomUUID(),
    workspaceId: ctx.workspaceId,
    conversationId: randomUUID(),
    reservedByActorId: ctx.actorId,
    messageId: null,
    name: 'a.bin',
    contentType: 'application/octet-stream',
    sizeBytes,
    status: 'pending',
    storageKey: null,
    createdAt: new Date(),
    updatedAt: new Date(),
  };
  const assets = {
    find: async () => asset,
    markReady: async (_id: string, storageKey: string) => ({ ...asset, status: 'ready' as const, storageKey }),
  } as unknown as AssetStore;
  const storage = new MemoryStorage();
  const service = new AssetService({ assets, storage: storage as unknown as ObjectStorage, messaging: {} as never, log: createLogger('asset-test', 'silent') });
  // What the gateway sends: the header, then `bytes` in chunks; `failAfter` makes the stream fail there as a cancelled call does.
  const sent = { bytes: 0 };
  async function* chunks(bytes: number, failAfter?: number): AsyncGenerator<UploadChunk__Output> {
    yield { asset: { conversation_id: asset.conversationId, asset_id: asset.id }, part: 'asset' } as UploadChunk__Output;
    while (sent.bytes < bytes) {
      if (failAfter !== undefined && sent.bytes >= failAfter) throw Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
      const data = Buffer.alloc(Math.min(CHUNK, bytes - sent.bytes), 1);
      sent.bytes += data.length;
      yield { data, part: 'data' } as UploadChunk__Output;
    }
  }
  const upload = (bytes: number, failAfter?: number) => service.upload(ctx, chunks(bytes, failAfter)).then(() => 'stored', (err: unknown) => err);
  return { upload, storage, sent };
}

const codeOf = (err: unknown) => (err instanceof DomainError ? err.code : err);

describe(AssetService.name, () => {
  it('stores exactly the reserved length', async () => {
    const { upload, storage } = setup(3 * CHUNK + 5);
    expect(await upload(3 * CHUNK + 5)).toBe('stored');
    expect([...storage.objects.values()]).toEqual([3 * CHUNK + 5]);
  });

  it('refuses more bytes than reserved as size_mismatch once the stream ends, storing nothing', async () => {
    const { upload, storage } = setup(1);
    expect(codeOf(await upload(2))).toBe('size_mismatch');
    expect(storage.objects.size).toBe(0);
    expect(storage.mostStored).toBeLessThanOrEqual(1);
  });

  it('refuses fewer bytes than reserved as size_mismatch, storing nothing', async () => {
    const { upload, storage } = setup(10);
    expect(codeOf(await upload(9))).toBe('size_mismatch');
    expect(storage.objects.size).toBe(0);
  });

  it('refuses over 10 MiB onto a small reservation as file_too_large, reading on without storing past the reservation', async () => {
    const { upload, storage, sent } = setup(1);
    expect(codeOf(await upload(MAX_ASSET_BYTES + 1))).toBe('file_too_large');
    expect(sent.bytes).toBe(MAX_ASSET_BYTES + 1);
    expect(storage.objects.size).toBe(0);
    expect(storage.mostStored).toBeLessThanOrEqual(1);
  });

  it('refuses over 10 MiB onto a full reservation as file_too_large', async () => {
    const { upload, storage } = setup(MAX_ASSET_BYTES);
    expect(codeOf(await upload(MAX_ASSET_BYTES + 1))).toBe('file_too_large');
    expect(storage.objects.size).toBe(0);
  });

  it('does not answer size_mismatch before the stream ends: a cancelled stream is refused as cut off', async () => {
    // The gateway cancels the call when it refuses a file over 10 MiB; its own answer then reaches the client, and
    // must not have been preempted by an early size_mismatch from here.
    const { upload, storage, sent } = setup(1);
    const refusal = await upload(MAX_ASSET_BYTES, 4 * CHUNK);
    expect(sent.bytes).toBe(4 * CHUNK);
    expect(refusal).toBeInstanceOf(DomainError);
    expect(refusal).toMatchObject({ code: 'invalid_input', kind: 'invalid_argument' });
    expect(storage.objects.size).toBe(0);
  });
});
