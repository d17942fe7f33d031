import { randomUUID } from 'node:crypto';
import type { CallContext } from '@wms/kit/context';
import type { Knex } from '@wms/kit/db';
import { invalidArgument, notFound, unavailable } from '@wms/kit/errors';
import { isUuid } from '@wms/kit/ids';
import type { Queue, QueueEvents } from '@wms/kit/queues';
import type { ObjectStorage } from '@wms/kit/storage';
import { inspectAvatar } from './domain/avatar-image.ts';
import type { Actor, Workspace } from './domain/model.ts';
import { requireManager } from './domain/rules.ts';
import type { AvatarResizeJob, AvatarResizeResult } from './queues.ts';
import type { ActorStore } from './store/actor.store.ts';
import type { AvatarOwner, AvatarStore } from './store/avatar.store.ts';
import type { WorkspaceStore } from './store/workspace.store.ts';
import type { WorkspaceService } from './workspace.service.ts';

export interface AvatarDeps {
  db: Knex;
  workspaceService: WorkspaceService;
  workspaces: WorkspaceStore;
  actors: ActorStore;
  avatars: AvatarStore;
  storage: ObjectStorage;
  resizeQueue: Queue<AvatarResizeJob, AvatarResizeResult>;
  resizeEvents: QueueEvents;
  /** How long a PUT waits for the worker before answering 503. */
  resizeTimeoutMs?: number;
}

export interface AvatarDownload {
  url: string;
  expiresAt: Date;
  name: string;
  contentType: string;
  sizeBytes: number;
}

const DOWNLOAD_SECONDS = 300;
const RENDER_FAILURES = new Set(['unsupported_image', 'image_too_large', 'file_too_large']);
const avatarGone = () => notFound('No such avatar.');

/**
 * Workspace and actor photos. The server role checks the upload's header, hands the bytes to the `avatar-resize`
 * worker and answers once the worker has stored the 256 × 256 WebP; only then does the owner point at the new id.
 */
export class AvatarService {
  constructor(private readonly d: AvatarDeps) {}

  async setWorkspaceAvatar(ctx: CallContext, bytes: Buffer): Promise<Workspace> {
    requireManager((await this.d.workspaceService.caller(ctx)).role);
    const owner: AvatarOwner = { kind: 'workspace', workspaceId: ctx.workspaceId! };
    return this.replace(owner, await this.render(bytes), (id, trx) => this.d.workspaces.setAvatar(owner.workspaceId, id, trx));
  }

  async deleteWorkspaceAvatar(ctx: CallContext): Promise<Workspace> {
    requireManager((await this.d.workspaceService.caller(ctx)).role);
    const owner: AvatarOwner = { kind: 'workspace', workspaceId: ctx.workspaceId! };
    return this.replace(owner, null, (_, trx) => this.d.workspaces.setAvatar(owner.workspaceId, null, trx));
  }

  async setActorAvatar(ctx: CallContext, actorId: string, bytes: Buffer): Promise<Actor> {
    const actor = await this.d.workspaceService.editableActor(ctx, actorId);
    const owner: AvatarOwner = { kind: 'actor', workspaceId: actor.workspaceId, actorId: actor.id };
    return this.replace(owner, await this.render(bytes), (id, trx) => this.d.actors.setAvatar(owner.workspaceId, actor.id, id, trx));
  }

  async deleteActorAvatar(ctx: CallContext, actorId: string): Promise<Actor> {
    const actor = await this.d.workspaceService.editableActor(ctx, actorId);
    const owner: AvatarOwner = { kind: 'actor', workspaceId: actor.workspaceId, actorId: actor.id };
    return this.replace(owner, null, (_, trx) => this.d.actors.setAvatar(owner.workspaceId, actor.id, null, trx));
  }

  async workspaceAvatarDownload(ctx: CallContext, avatarId: string): Promise<AvatarDownload> {
    await this.d.workspaceService.caller(ctx);
    const workspace = await this.d.workspaceService.liveWorkspace(ctx);
    if (!isUuid(avatarId) || workspace.avatarId !== avatarId) throw avatarGone();
    return this.download({ kind: 'workspace', workspaceId: workspace.id }, avatarId);
  }

  async actorAvatarDownload(ctx: CallContext, actorId: string, avatarId: string): Promise<AvatarDownload> {
    const actor = await this.d.workspaceService.getActor(ctx, actorId);
    if (!isUuid(avatarId) || actor.avatarId !== avatarId) throw avatarGone();
    return this.download({ kind: 'actor', workspaceId: actor.workspaceId, actorId: actor.id }, avatarId);
  }

  private async download(owner: AvatarOwner, avatarId: string): Promise<AvatarDownload> {
    const stored = await this.d.avatars.find(owner, avatarId);
    if (!stored) throw avatarGone();
    const stat = await this.d.storage.stat(stored.storageKey);
    if (!stat) throw avatarGone();
    const name = `avatar-${avatarId}.webp`;
    const { url, expiresAt } = await this.d.storage.signedUrl(stored.storageKey, {
      expiresInSeconds: DOWNLOAD_SECONDS,
      contentType: 'image/webp',
      fileName: name,
      disposition: 'inline',
    });
    return { url, expiresAt, name, contentType: 'image/webp', sizeBytes: stat.size };
  }

  /** Checks the upload, has the worker render it, and returns the stored WebP's id and key. */
  private async render(bytes: Buffer): Promise<{ id: string; key: string }> {
    await inspectAvatar(bytes);
    const id = randomUUID();
    const sourceKey = `avatars/incoming/${id}`;
    const key = `avatars/${id}.webp`;
    await this.d.storage.put(sourceKey, bytes, { contentType: 'application/octet-stream', size: bytes.length });
    try {
      const job = await this.d.resizeQueue.add('render', { avatarId: id, sourceKey, targetKey: key }, { jobId: id });
      await job.waitUntilFinished(this.d.resizeEvents, this.d.resizeTimeoutMs ?? 30_000);
      return { id, key };
    } catch (err) {
      const reason = (err as Error).message;
      if (RENDER_FAILURES.has(reason)) throw invalidArgument(reason, 'The avatar must be a complete JPG, PNG, WebP or GIF image of at most 40,000,000 pixels.');
      await this.d.storage.delete([key]);
      throw unavailable('The avatar could not be processed in time; try again.');
    } finally {
      await this.d.storage.delete([sourceKey]);
    }
  }

  /** Points the owner at the new avatar (or none) and deletes every older one, rows first, files after the commit. */
  private async replace<T>(owner: AvatarOwner, next: { id: string; key: string } | null, point: (id: string | null, trx: Knex.Transaction) => Promise<T | undefined>): Promise<T> {
    let stale: string[] = [];
    try {
      const result = await this.d.db.transaction(async (trx) => {
        if (next) await this.d.avatars.insert(next.id, owner, next.key, trx);
        const updated = await point(next?.id ?? null, trx);
        if (!updated) throw notFound('Not found.');
        stale = await this.d.avatars.deleteOthers(owner, next?.id ?? null, trx);
        return updated;
      });
      await this.d.storage.delete(stale);
      return result;
    } catch (err) {
      if (next) await this.d.storage.delete([next.key]);
      throw err;
    }
  }
}
