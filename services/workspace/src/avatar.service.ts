import { randomUUID } from 'node:crypto';
import type { CallContext } from '@wms/kit/context';
import { invalidArgument, notFound, unavailable } from '@wms/kit/errors';
import { isUuid } from '@wms/kit/ids';
import type { ObjectStorage } from '@wms/kit/storage';
import type { Transact, Tx } from '@wms/kit/transactions';
import { inspectAvatar } from './domain/avatar-image.ts';
import type { WorkspaceEvent } from './event-payloads.ts';
import type { Actor, AvatarDownload, Workspace } from './domain/model.ts';
import { requireManager } from './domain/rules.ts';
import { requireActor, requireCaller, requireEditableActor, requireLiveWorkspace } from './lookups.ts';
import type { ActorStore } from './store/actor.store.ts';
import type { AvatarOwner, AvatarStore } from './store/avatar.store.ts';
import type { MemberStore } from './store/member.store.ts';
import type { OutboxStore } from './store/outbox.store.ts';
import type { WorkspaceStore } from './store/workspace.store.ts';

/** Has the avatar-resize worker render an upload into the stored 256 × 256 WebP. */
export interface AvatarResizer {
  /**
   * Resolves once the WebP is stored at `targetKey`. Rejects with the render failure's contract code as the error's
   * message when the image cannot be rendered, or with any other error when it was not done in time.
   */
  resize(job: { avatarId: string; sourceKey: string; targetKey: string }): Promise<void>;
}

export interface AvatarDeps {
  transact: Transact;
  workspaces: WorkspaceStore;
  members: MemberStore;
  actors: ActorStore;
  avatars: AvatarStore;
  outbox: OutboxStore;
  storage: ObjectStorage;
  resizer: AvatarResizer;
}

const DOWNLOAD_SECONDS = 300;
const RENDER_FAILURES = new Set(['unsupported_image', 'image_too_large', 'file_too_large']);
const avatarGone = () => notFound('No such avatar.');
const workspaceUpdated = (workspace: Workspace): WorkspaceEvent => ({ type: 'workspace.updated', workspace });
const actorUpdated = (actor: Actor): WorkspaceEvent => ({ type: 'actor.updated', actor });

/**
 * Workspace and actor photos. The server role checks the upload's header, hands the bytes to the `avatar-resize`
 * worker and answers once the worker has stored the 256 × 256 WebP; only then does the owner point at the new id.
 */
export class AvatarService {
  constructor(private readonly d: AvatarDeps) {}

  async setWorkspaceAvatar(ctx: CallContext, bytes: Buffer): Promise<Workspace> {
    requireManager((await requireCaller(this.d, ctx)).role);
    const owner: AvatarOwner = { kind: 'workspace', workspaceId: ctx.workspaceId! };
    return this.replace(
      owner,
      await this.render(bytes),
      (id, tx) => this.d.workspaces.setAvatar(owner.workspaceId, id, tx),
      workspaceUpdated,
    );
  }

  async deleteWorkspaceAvatar(ctx: CallContext): Promise<Workspace> {
    requireManager((await requireCaller(this.d, ctx)).role);
    const owner: AvatarOwner = { kind: 'workspace', workspaceId: ctx.workspaceId! };
    return this.replace(
      owner,
      null,
      (_, tx) => this.d.workspaces.setAvatar(owner.workspaceId, null, tx),
      workspaceUpdated,
    );
  }

  async setActorAvatar(ctx: CallContext, actorId: string, bytes: Buffer): Promise<Actor> {
    const actor = await requireEditableActor(this.d, ctx, actorId);
    const owner: AvatarOwner = { kind: 'actor', workspaceId: actor.workspaceId, actorId: actor.id };
    return this.replace(
      owner,
      await this.render(bytes),
      (id, tx) => this.d.actors.setAvatar(owner.workspaceId, actor.id, id, tx),
      actorUpdated,
    );
  }

  async deleteActorAvatar(ctx: CallContext, actorId: string): Promise<Actor> {
    const actor = await requireEditableActor(this.d, ctx, actorId);
    const owner: AvatarOwner = { kind: 'actor', workspaceId: actor.workspaceId, actorId: actor.id };
    return this.replace(
      owner,
      null,
      (_, tx) => this.d.actors.setAvatar(owner.workspaceId, actor.id, null, tx),
      actorUpdated,
    );
  }

  async workspaceAvatarDownload(ctx: CallContext, avatarId: string): Promise<AvatarDownload> {
    await requireCaller(this.d, ctx);
    const workspace = await requireLiveWorkspace(this.d.workspaces, ctx);
    if (!isUuid(avatarId) || workspace.avatarId !== avatarId) throw avatarGone();
    return this.download({ kind: 'workspace', workspaceId: workspace.id }, avatarId);
  }

  async actorAvatarDownload(ctx: CallContext, actorId: string, avatarId: string): Promise<AvatarDownload> {
    await requireCaller(this.d, ctx);
    const actor = await requireActor(this.d.actors, ctx, actorId);
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
      await this.d.resizer.resize({ avatarId: id, sourceKey, targetKey: key });
      return { id, key };
    } catch (err) {
      const reason = (err as Error).message;
      if (RENDER_FAILURES.has(reason))
        throw invalidArgument(
          reason,
          'The avatar must be a complete JPG, PNG, WebP or GIF image of at most 40,000,000 pixels.',
        );
      await this.d.storage.delete([key]);
      throw unavailable('The avatar could not be processed in time; try again.');
    } finally {
      await this.d.storage.delete([sourceKey]);
    }
  }

  /** Points the owner at the new avatar (or none) and deletes every older one, rows first, files after the commit. */
  private async replace<T>(
    owner: AvatarOwner,
    next: { id: string; key: string } | null,
    point: (id: string | null, tx: Tx) => Promise<T | undefined>,
    changed: (updated: T) => WorkspaceEvent,
  ): Promise<T> {
    let stale: string[] = [];
    try {
      const result = await this.d.transact(async (tx) => {
        if (next) await this.d.avatars.insert(next.id, owner, next.key, tx);
        const updated = await point(next?.id ?? null, tx);
        if (!updated) throw notFound('Not found.');
        stale = await this.d.avatars.deleteOthers(owner, next?.id ?? null, tx);
        await this.d.outbox.append([changed(updated)], tx);
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
