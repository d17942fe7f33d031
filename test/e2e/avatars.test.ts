import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { Queue } from 'bullmq';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Account, expectError, signUp } from './support/accounts.ts';
import { sql } from './support/db.ts';
import { animatedGif, image, multipart } from './support/images.ts';
import { type ActorBody, createWorkspace, inWorkspace, myActor, type WorkspaceBody } from './support/workspaces.ts';

let owner: Account;
let ws: WorkspaceBody;
let resizeQueue: Queue;

beforeAll(async () => {
  owner = await signUp('avatar-owner');
  ws = await createWorkspace(owner);
  const url = new URL(inject('redisUrl'));
  resizeQueue = new Queue('avatar-resize', {
    connection: { host: url.hostname, port: Number(url.port || 6379) },
    prefix: `${inject('redisPrefix')}:bull`,
  });
});
afterAll(async () => resizeQueue?.close());

interface Download {
  url: string;
  expires_at: string;
  name: string;
  content_type: string;
  size_bytes: number;
}

async function fetchDownload(path: string): Promise<{ download: Download; bytes: Buffer; headers: Headers }> {
  const res = await inWorkspace(owner, ws.id, 'GET', path);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const download = res.body as Download;
  // Only the URL: no authorization, no workspace header.
  const file = await fetch(download.url);
  expect(file.status).toBe(200);
  return { download, bytes: Buffer.from(await file.arrayBuffer()), headers: file.headers };
}

async function storedAvatarFiles(): Promise<string[]> {
  return readdir(path.join(inject('storageDir'), 'avatars')).catch(() => []);
}

describe('avatars', () => {
  it('stores an actor photo as a 256 × 256 WebP made by the avatar-resize worker, downloadable by URL alone', async () => {
    const me = await myActor(owner, ws.id);
    const res = await inWorkspace(
      owner,
      ws.id,
      'PUT',
      `/workspace/actors/${me.id}/avatar`,
      multipart(await image('jpeg', 900, 500), 'file', 'me.png'),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const actor = res.body as ActorBody;
    expect(actor.avatar_id).toMatch(/^[0-9a-f-]{36}$/);

    const { download, bytes, headers } = await fetchDownload(`/workspace/actors/${me.id}/avatar/${actor.avatar_id}`);
    expect(download.content_type).toBe('image/webp');
    expect(download.size_bytes).toBe(bytes.length);
    const minutes = (Date.parse(download.expires_at) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(4);
    expect(minutes).toBeLessThanOrEqual(5);
    expect(headers.get('content-type')).toBe('image/webp');
    const meta = await sharp(bytes).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 256, height: 256 });

    // The worker process rendered it: its job (id = avatar id) completed with the stored size.
    const job = await resizeQueue.getJob(actor.avatar_id!);
    expect(job?.finishedOn).toBeGreaterThan(0);
    expect(job?.returnvalue).toEqual({ sizeBytes: bytes.length });

    const tampered = new URL(download.url);
    tampered.searchParams.set('expires', String(Number(tampered.searchParams.get('expires')) + 3600));
    expect((await fetch(tampered)).status).toBe(404);
  });

  it('replaces and removes photos; old avatar ids answer 404', async () => {
    const me = await myActor(owner, ws.id);
    const first = (
      (await inWorkspace(owner, ws.id, 'PUT', `/workspace/actors/${me.id}/avatar`, multipart(await image('png'))))
        .body as ActorBody
    ).avatar_id!;
    const second = (
      (await inWorkspace(owner, ws.id, 'PUT', `/workspace/actors/${me.id}/avatar`, multipart(await image('webp'))))
        .body as ActorBody
    ).avatar_id!;
    expect(second).not.toBe(first);
    expectError(await inWorkspace(owner, ws.id, 'GET', `/workspace/actors/${me.id}/avatar/${first}`), 404, 'not_found');
    expect((await inWorkspace(owner, ws.id, 'GET', `/workspace/actors/${me.id}/avatar/${second}`)).status).toBe(200);
    const [{ count }] = (await sql<{ count: string }>('SELECT count(*) FROM workspace.avatars WHERE owner_id = $1', [
      me.id,
    ])) as [{ count: string }];
    expect(Number(count)).toBe(1);

    const removed = await inWorkspace(owner, ws.id, 'DELETE', `/workspace/actors/${me.id}/avatar`);
    expect(removed.status).toBe(200);
    expect((removed.body as ActorBody).avatar_id).toBeNull();
    expectError(
      await inWorkspace(owner, ws.id, 'GET', `/workspace/actors/${me.id}/avatar/${second}`),
      404,
      'not_found',
    );
    expect((await storedAvatarFiles()).filter((f) => f.startsWith(first) || f.startsWith(second))).toEqual([]);
  });

  it('stores the workspace photo, from the first frame of an animated GIF', async () => {
    const res = await inWorkspace(
      owner,
      ws.id,
      'PUT',
      '/workspace/avatar',
      multipart(await animatedGif(), 'file', 'anim.gif'),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const workspace = res.body as WorkspaceBody;
    expect(workspace.avatar_id).not.toBeNull();
    const { bytes } = await fetchDownload(`/workspace/avatar/${workspace.avatar_id}`);
    const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
    expect(info).toMatchObject({ width: 256, height: 256 });
    const centre = (128 * 256 + 128) * info.channels;
    expect(data[centre]).toBeGreaterThan(200);
    expect(data[centre + 2]).toBeLessThan(60);
    expect((await inWorkspace(owner, ws.id, 'DELETE', '/workspace/avatar')).body).toMatchObject({
      id: ws.id,
      avatar_id: null,
    });
    expectError(await inWorkspace(owner, ws.id, 'GET', `/workspace/avatar/${workspace.avatar_id}`), 404, 'not_found');
  });

  it('rejects oversized, too-many-pixel, truncated and non-image uploads with the contract codes, storing nothing', async () => {
    const me = await myActor(owner, ws.id);
    const kept = (
      (await inWorkspace(owner, ws.id, 'PUT', `/workspace/actors/${me.id}/avatar`, multipart(await image('png'))))
        .body as ActorBody
    ).avatar_id;
    const filesBefore = (await storedAvatarFiles()).sort();
    const jpeg = await image('jpeg', 1200, 900);
    const huge = await sharp({ create: { width: 8000, height: 6000, channels: 3, background: { r: 0, g: 0, b: 0 } } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    const cases: Array<[string, Buffer, number, string]> = [
      ['10 MiB + 1 byte', Buffer.alloc(10 * 1024 * 1024 + 1, 7), 400, 'file_too_large'],
      ['48 megapixels', huge, 400, 'image_too_large'],
      ['a truncated JPEG', jpeg.subarray(0, Math.floor(jpeg.length / 2)), 400, 'unsupported_image'],
      ['text', Buffer.from('hello, not an image'), 400, 'unsupported_image'],
      ['a TIFF', await image('tiff'), 400, 'unsupported_image'],
    ];
    for (const [what, bytes, status, code] of cases) {
      const res = await inWorkspace(
        owner,
        ws.id,
        'PUT',
        `/workspace/actors/${me.id}/avatar`,
        multipart(bytes, 'file', 'x.png'),
      );
      expect(res.status, what).toBe(status);
      expect((res.body as { error: { code: string } }).error.code, what).toBe(code);
    }
    const missing = expectError(
      await inWorkspace(
        owner,
        ws.id,
        'PUT',
        `/workspace/actors/${me.id}/avatar`,
        multipart(await image('png'), 'photo'),
      ),
      400,
      'invalid_input',
    );
    expect(missing.details?.[0]?.field).toBe('body.file');
    expectError(
      await inWorkspace(owner, ws.id, 'PUT', '/workspace/avatar', { body: { file: 'x' } }),
      400,
      'invalid_input',
    );

    expect((await myActor(owner, ws.id)).avatar_id).toBe(kept);
    expect((await storedAvatarFiles()).sort()).toEqual(filesBefore);
    const incoming = await readdir(path.join(inject('storageDir'), 'avatars', 'incoming')).catch(() => []);
    expect(incoming).toEqual([]);
  });
});
