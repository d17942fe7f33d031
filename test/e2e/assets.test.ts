import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { type Account, expectError, signUp } from './support/accounts.ts';
import { failRowsContaining, sql } from './support/db.ts';
import { runJob } from './support/jobs.ts';
import { type AssetBody, createChannel, type MessageBody, type Page, post } from './support/messages.ts';
import { storedAssetFiles } from './support/storage.ts';
import { addMember, createWorkspace, inWorkspace } from './support/workspaces.ts';

const MiB = 1024 * 1024;

let owner: Account;
let member: Account;
let ws: string;
let conv: string;

beforeAll(async () => {
  [owner, member] = await Promise.all([signUp('asset-owner'), signUp('asset-member')]);
  ws = (await createWorkspace(owner)).id;
  await addMember(owner, ws, member);
  conv = await createChannel(owner, ws);
});

const base = (conversationId = conv) => `/conversations/${conversationId}/assets`;

async function reserve(account: Account, body: Record<string, unknown>, conversationId = conv): Promise<AssetBody> {
  const res = await inWorkspace(account, ws, 'POST', base(conversationId), { body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as AssetBody;
}

const form = (bytes: Buffer, name = 'file.bin', field = 'file') => {
  const f = new FormData();
  f.append(field, new Blob([bytes]), name);
  return f;
};

const upload = (account: Account, assetId: string, bytes: Buffer, conversationId = conv) =>
  inWorkspace(account, ws, 'PUT', `${base(conversationId)}/${assetId}/content`, { body: form(bytes) });

const storedFiles = (assetId: string) => storedAssetFiles(ws, assetId);

describe('assets end to end (fs driver)', () => {
  it('reserves, attaches, uploads and serves the exact bytes with the content type to anyone holding the URL', async () => {
    const bytes = randomBytes(300_000);
    const asset = await reserve(member, {
      name: 'report final.pdf',
      content_type: 'application/pdf',
      size_bytes: bytes.length,
    });
    expect(Object.keys(asset).sort()).toEqual([
      'content_type',
      'conversation_id',
      'created_at',
      'id',
      'message_id',
      'name',
      'preview_kind',
      'size_bytes',
      'status',
      'updated_at',
    ]);
    expect(asset).toMatchObject({
      conversation_id: conv,
      message_id: null,
      name: 'report final.pdf',
      size_bytes: bytes.length,
      content_type: 'application/pdf',
      status: 'pending',
      preview_kind: null,
    });

    const message = await post(member, ws, conv, { body_text: 'see attached', asset_ids: [asset.id] });
    expect(message.assets).toEqual([{ ...asset, message_id: message.id, updated_at: expect.any(String) }]);

    expectError(await inWorkspace(member, ws, 'GET', `${base()}/${asset.id}/download`), 409, 'asset_not_ready');
    const uploaded = await upload(member, asset.id, bytes);
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
    expect(uploaded.body).toMatchObject({ id: asset.id, status: 'ready', message_id: message.id });

    const download = await inWorkspace(owner, ws, 'GET', `${base()}/${asset.id}/download`);
    expect(download.status).toBe(200);
    const d = download.body as {
      url: string;
      expires_at: string;
      name: string;
      content_type: string;
      size_bytes: number;
    };
    expect(d).toMatchObject({ name: 'report final.pdf', content_type: 'application/pdf', size_bytes: bytes.length });
    expect(d.url).toMatch(/^https?:\/\//);
    expect(Date.parse(d.expires_at) - Date.now()).toBeGreaterThan(4 * 60 * 1000);
    expect(Date.parse(d.expires_at) - Date.now()).toBeLessThanOrEqual(5 * 60 * 1000);
    const served = await fetch(d.url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('application/pdf');
    expect(served.headers.get('content-disposition')).toMatch(/^attachment; filename="report final.pdf"/);
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);

    // The message shows the ready asset everywhere it appears.
    const got = (await inWorkspace(owner, ws, 'GET', `/conversations/${conv}/messages/${message.id}`))
      .body as MessageBody;
    expect(got.assets).toEqual([uploaded.body]);
    const page = (await inWorkspace(owner, ws, 'GET', `/conversations/${conv}/messages?limit=5`))
      .body as Page<MessageBody>;
    expect(page.items.find((m) => m.id === message.id)?.assets).toEqual([uploaded.body]);
  });

  it('marks images for preview and serves them inline', async () => {
    const png = Buffer.from(
      '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4ef0000000049454e44ae426082',
      'hex',
    );
    const asset = await reserve(member, { name: 'dot.png', content_type: 'image/png', size_bytes: png.length });
    expect(asset.preview_kind).toBe('image');
    expect((await upload(member, asset.id, png)).status).toBe(200);
    const d = (await inWorkspace(member, ws, 'GET', `${base()}/${asset.id}/download`)).body as { url: string };
    const served = await fetch(d.url);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('content-disposition')).toMatch(/^inline/);
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);
  });

  it('allows an empty text with assets only', async () => {
    const asset = await reserve(member, { name: 'a.txt', content_type: 'text/plain', size_bytes: 3 });
    const m = await post(member, ws, conv, { body_text: '', asset_ids: [asset.id] });
    expect(m).toMatchObject({ body_text: '', children: [], assets: [expect.objectContaining({ id: asset.id })] });
  });
});

describe('reservation rules', () => {
  it('validates name, content type and size', async () => {
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ name: '', content_type: 'text/plain', size_bytes: 1 }, 400, 'invalid_input'],
      [{ name: 'x'.repeat(256), content_type: 'text/plain', size_bytes: 1 }, 400, 'invalid_input'],
      [{ name: 'a', content_type: 'not a type', size_bytes: 1 }, 400, 'invalid_input'],
      [{ name: 'a', content_type: 'text/plain', size_bytes: 0 }, 400, 'file_too_large'],
      [{ name: 'a', content_type: 'text/plain', size_bytes: -5 }, 400, 'file_too_large'],
      [{ name: 'a', content_type: 'text/plain', size_bytes: '5' }, 400, 'invalid_input'],
      [{ name: 'a', content_type: 'text/plain', size_bytes: 1.5 }, 400, 'invalid_input'],
      [{ name: 'a', content_type: 'text/plain' }, 400, 'invalid_input'],
      [{ name: 'a', content_type: 'text/plain', size_bytes: 10 * MiB + 1 }, 400, 'file_too_large'],
    ];
    for (const [body, status, code] of cases)
      expectError(await inWorkspace(member, ws, 'POST', base(), { body }), status, code);
    expect(
      (
        await inWorkspace(member, ws, 'POST', base(), {
          body: { name: 'max', content_type: 'text/plain', size_bytes: 10 * MiB },
        })
      ).status,
    ).toBe(201);
  });

  it('answers 404 for an asset reached through another conversation or from another workspace', async () => {
    const asset = await reserve(member, { name: 'here.txt', content_type: 'text/plain', size_bytes: 4 });
    expect((await upload(member, asset.id, Buffer.from('here'))).status).toBe(200);
    const elsewhere = await createChannel(owner, ws);
    expectError(await inWorkspace(member, ws, 'GET', `${base(elsewhere)}/${asset.id}/download`), 404, 'not_found');

    const outsider = await signUp('asset-outsider');
    const theirs = (await createWorkspace(outsider)).id;
    const theirConv = await createChannel(outsider, theirs);
    // The outsider's own workspace knows neither the conversation nor the asset.
    expectError(await inWorkspace(outsider, theirs, 'GET', `${base()}/${asset.id}/download`), 404, 'not_found');
    expectError(
      await inWorkspace(outsider, theirs, 'GET', `${base(theirConv)}/${asset.id}/download`),
      404,
      'not_found',
    );
    expectError(
      await inWorkspace(outsider, theirs, 'POST', base(), {
        body: { name: 'x', content_type: 'text/plain', size_bytes: 1 },
      }),
      404,
      'not_found',
    );
    // And naming ours in the header is refused before anything else.
    expectError(await inWorkspace(outsider, ws, 'GET', `${base()}/${asset.id}/download`), 404, 'workspace_not_found');
  });

  it('answers 404 for an unknown conversation', async () => {
    expectError(
      await inWorkspace(member, ws, 'POST', base('00000000-0000-7000-8000-000000000000'), {
        body: { name: 'a', content_type: 'text/plain', size_bytes: 1 },
      }),
      404,
      'not_found',
    );
  });
});

describe('upload rules', () => {
  it('lets only the reserving actor upload (403), and answers 404 for unknown assets', async () => {
    const asset = await reserve(member, { name: 'a.bin', content_type: 'application/octet-stream', size_bytes: 4 });
    expectError(await upload(owner, asset.id, Buffer.from('abcd')), 403, 'forbidden');
    expectError(await upload(member, '00000000-0000-7000-8000-000000000000', Buffer.from('abcd')), 404, 'not_found');
    expectError(await upload(member, asset.id, Buffer.from('abcd'), await createChannel(owner, ws)), 404, 'not_found');
  });

  it('refuses another length than reserved (size_mismatch) and stores nothing', async () => {
    const asset = await reserve(member, { name: 'a.bin', content_type: 'application/octet-stream', size_bytes: 10 });
    expectError(await upload(member, asset.id, Buffer.alloc(9)), 400, 'size_mismatch');
    expectError(await upload(member, asset.id, Buffer.alloc(11)), 400, 'size_mismatch');
    const [row] = await sql<{ status: string; storage_key: string | null }>(
      'SELECT status, storage_key FROM asset.assets WHERE id = $1',
      [asset.id],
    );
    expect(row).toEqual({ status: 'pending', storage_key: null });
    expect((await upload(member, asset.id, Buffer.alloc(10))).status).toBe(200);
  });

  it('refuses an upload over 10 MiB onto a 10 MiB reservation (file_too_large), storing nothing', async () => {
    const asset = await reserve(member, {
      name: 'big.bin',
      content_type: 'application/octet-stream',
      size_bytes: 10 * MiB,
    });
    expectError(await upload(member, asset.id, Buffer.alloc(10 * MiB + 1)), 400, 'file_too_large');
    const [row] = await sql<{ status: string }>('SELECT status FROM asset.assets WHERE id = $1', [asset.id]);
    expect(row?.status).toBe('pending');
    // The gateway answers as soon as it refuses the file; the service removes what it had stored when it sees the cancel.
    await vi.waitFor(async () => expect(await storedFiles(asset.id)).toEqual([]), { timeout: 10_000 });
    const ok = await upload(member, asset.id, Buffer.alloc(10 * MiB, 7));
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });

  it('refuses an upload over 10 MiB onto a 1-byte reservation as file_too_large, not size_mismatch, storing nothing', async () => {
    const asset = await reserve(member, { name: 'small.bin', content_type: 'application/octet-stream', size_bytes: 1 });
    expectError(await upload(member, asset.id, Buffer.alloc(10 * MiB + 1)), 400, 'file_too_large');
    const [row] = await sql<{ status: string; storage_key: string | null }>(
      'SELECT status, storage_key FROM asset.assets WHERE id = $1',
      [asset.id],
    );
    expect(row).toEqual({ status: 'pending', storage_key: null });
    // The gateway answers as soon as it refuses the file; the service removes what it had stored when it sees the
    // cancel, which may come after the uploads below.
    await vi.waitFor(async () => expect(await storedFiles(asset.id)).toEqual([]), { timeout: 10_000 });
    // At most 10 MiB, but more than reserved: size_mismatch, whether by one byte or by nearly 10 MiB.
    expectError(await upload(member, asset.id, Buffer.alloc(2)), 400, 'size_mismatch');
    expectError(await upload(member, asset.id, Buffer.alloc(10 * MiB)), 400, 'size_mismatch');
    await vi.waitFor(async () => expect(await storedFiles(asset.id)).toEqual([]), { timeout: 10_000 });
    const ok = await upload(member, asset.id, Buffer.from('x'));
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    // The bytes and their metadata: what the empty listings above would have shown.
    expect(await storedFiles(asset.id)).toHaveLength(2);
  });

  it('requires the multipart field file', async () => {
    const asset = await reserve(member, { name: 'a.bin', content_type: 'application/octet-stream', size_bytes: 1 });
    const res = await inWorkspace(member, ws, 'PUT', `${base()}/${asset.id}/content`, {
      body: form(Buffer.from('x'), 'x', 'other'),
    });
    expectError(res, 400, 'invalid_input');
  });

  it('stores a ready asset once: a retry with other bytes answers the existing asset and changes nothing', async () => {
    const asset = await reserve(member, { name: 'once.txt', content_type: 'text/plain', size_bytes: 5 });
    const first = await upload(member, asset.id, Buffer.from('first'));
    expect(first.status).toBe(200);
    const retry = await upload(member, asset.id, Buffer.from('other'));
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    const d = (await inWorkspace(member, ws, 'GET', `${base()}/${asset.id}/download`)).body as { url: string };
    expect(await (await fetch(d.url)).text()).toBe('first');
  });

  it('stores concurrent uploads of one asset once', async () => {
    const asset = await reserve(member, {
      name: 'race.bin',
      content_type: 'application/octet-stream',
      size_bytes: 200_000,
    });
    const contents = Array.from({ length: 6 }, () => randomBytes(200_000));
    const answers = await Promise.all(contents.map((c) => upload(member, asset.id, c)));
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
    expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1);
    const d = (await inWorkspace(member, ws, 'GET', `${base()}/${asset.id}/download`)).body as { url: string };
    const served = Buffer.from(await (await fetch(d.url)).arrayBuffer());
    expect(contents.some((c) => c.equals(served))).toBe(true);
  });
});

describe('attaching', () => {
  it('refuses assets of another conversation, of another actor or already attached, all or none', async () => {
    const mine = await reserve(member, { name: 'a', content_type: 'text/plain', size_bytes: 1 });
    const theirs = await reserve(owner, { name: 'b', content_type: 'text/plain', size_bytes: 1 });
    const elsewhere = await reserve(
      member,
      { name: 'c', content_type: 'text/plain', size_bytes: 1 },
      await createChannel(owner, ws),
    );
    for (const ids of [
      [mine.id, theirs.id],
      [mine.id, elsewhere.id],
      [mine.id, '00000000-0000-7000-8000-000000000000'],
    ]) {
      const err = expectError(
        await inWorkspace(member, ws, 'POST', `/conversations/${conv}/messages`, {
          body: { body_text: 'x', asset_ids: ids },
        }),
        400,
        'invalid_input',
      );
      expect(err.details?.[0]?.field).toBe('body.asset_ids');
    }
    // Nothing was attached by the refused posts; the asset can still go on a message, once.
    await post(member, ws, conv, { body_text: 'ok', asset_ids: [mine.id] });
    expectError(
      await inWorkspace(member, ws, 'POST', `/conversations/${conv}/messages`, {
        body: { body_text: 'again', asset_ids: [mine.id] },
      }),
      400,
      'invalid_input',
    );
    expectError(
      await inWorkspace(member, ws, 'POST', `/conversations/${conv}/messages`, {
        body: { body_text: 'x', asset_ids: Array(11).fill(mine.id) },
      }),
      400,
      'invalid_input',
    );
  });

  it('frees the assets again when the message fails after they were attached, so a retry attaches them', async () => {
    const asset = await reserve(member, { name: 'retry.txt', content_type: 'text/plain', size_bytes: 1 });
    const marker = randomUUID();
    // The message's transaction commits after the asset service attached the assets, and its commit fails here.
    const undo = await failRowsContaining('messaging.messages', 'INSERT', marker, { atCommit: true });
    try {
      const failed = await inWorkspace(member, ws, 'POST', `/conversations/${conv}/messages`, {
        body: { body_text: `first try ${marker}`, asset_ids: [asset.id] },
      });
      expectError(failed, 500, 'internal');
    } finally {
      await undo();
    }
    expect(await sql('SELECT id FROM messaging.messages WHERE body_text LIKE $1', [`%${marker}%`])).toEqual([]);
    const retried = await post(member, ws, conv, { body_text: `second try ${marker}`, asset_ids: [asset.id] });
    expect(retried.assets).toEqual([expect.objectContaining({ id: asset.id, message_id: retried.id })]);
  });

  it('empties the assets of a deleted message', async () => {
    const asset = await reserve(member, { name: 'gone.txt', content_type: 'text/plain', size_bytes: 1 });
    const m = await post(member, ws, conv, { body_text: 'x', asset_ids: [asset.id] });
    await inWorkspace(member, ws, 'DELETE', `/conversations/${conv}/messages/${m.id}`);
    expect(
      ((await inWorkspace(member, ws, 'GET', `/conversations/${conv}/messages/${m.id}`)).body as MessageBody).assets,
    ).toEqual([]);
  });
});

describe('cleanup', () => {
  const storedPath = async (assetId: string) => {
    const [row] = await sql<{ storage_key: string }>('SELECT storage_key FROM asset.assets WHERE id = $1', [assetId]);
    return path.join(inject('storageDir'), row!.storage_key);
  };

  it('removes the assets of a deleted message with their bytes', async () => {
    const asset = await reserve(member, { name: 'doomed.txt', content_type: 'text/plain', size_bytes: 4 });
    const m = await post(member, ws, conv, { body_text: 'x', asset_ids: [asset.id] });
    expect((await upload(member, asset.id, Buffer.from('data'))).status).toBe(200);
    const file = await storedPath(asset.id);
    expect(existsSync(file)).toBe(true);
    expect((await inWorkspace(member, ws, 'DELETE', `/conversations/${conv}/messages/${m.id}`)).status).toBe(204);
    expect(await sql('SELECT 1 FROM asset.assets WHERE id = $1', [asset.id])).toHaveLength(0);
    expect(existsSync(file)).toBe(false);
    // Released: nothing is left for the messaging worker to retry.
    expect(await sql("SELECT 1 FROM messaging.messages WHERE id = $1 AND asset_ids <> '{}'", [m.id])).toHaveLength(0);
  });

  it('removes them by the messaging worker when the release after the delete failed', async () => {
    const asset = await reserve(member, { name: 'later.txt', content_type: 'text/plain', size_bytes: 4 });
    const m = await post(member, ws, conv, { body_text: 'x', asset_ids: [asset.id] });
    expect((await upload(member, asset.id, Buffer.from('data'))).status).toBe(200);
    const file = await storedPath(asset.id);
    const undo = await failRowsContaining('asset.assets', 'DELETE', m.id);
    try {
      expect((await inWorkspace(member, ws, 'DELETE', `/conversations/${conv}/messages/${m.id}`)).status).toBe(204);
    } finally {
      await undo();
    }
    // The delete stands; the assets are still there, and the message still names them.
    expect(
      ((await inWorkspace(member, ws, 'GET', `/conversations/${conv}/messages/${m.id}`)).body as MessageBody)
        .deleted_at,
    ).not.toBeNull();
    expect(await sql('SELECT 1 FROM asset.assets WHERE id = $1', [asset.id])).toHaveLength(1);
    expect(existsSync(file)).toBe(true);

    // The worker leaves fresh deletes to the request for a minute.
    await sql("UPDATE messaging.messages SET deleted_at = deleted_at - interval '2 minutes' WHERE id = $1", [m.id]);
    expect((await runJob<{ released: number }>('messaging-cleanup', 'sweep')).released).toBeGreaterThanOrEqual(1);
    expect(await sql('SELECT 1 FROM asset.assets WHERE id = $1', [asset.id])).toHaveLength(0);
    expect(existsSync(file)).toBe(false);
    expect(await sql("SELECT 1 FROM messaging.messages WHERE id = $1 AND asset_ids <> '{}'", [m.id])).toHaveLength(0);
  });

  it('sweeps reservations no message attached within 24 hours, bytes included, and keeps everything else', async () => {
    const stale = await reserve(member, { name: 'stale.txt', content_type: 'text/plain', size_bytes: 5 });
    expect((await upload(member, stale.id, Buffer.from('stale'))).status).toBe(200);
    const staleFile = await storedPath(stale.id);
    const stalePending = await reserve(member, { name: 'never.txt', content_type: 'text/plain', size_bytes: 5 });
    const fresh = await reserve(member, { name: 'fresh.txt', content_type: 'text/plain', size_bytes: 5 });
    const oldButAttached = await reserve(member, { name: 'kept.txt', content_type: 'text/plain', size_bytes: 5 });
    await post(member, ws, conv, { body_text: 'keeps it', asset_ids: [oldButAttached.id] });
    await sql("UPDATE asset.assets SET created_at = now() - interval '25 hours' WHERE id = ANY ($1::uuid[])", [
      [stale.id, stalePending.id, oldButAttached.id],
    ]);

    expect((await runJob<{ removed: number }>('asset-cleanup', 'sweep-unattached')).removed).toBeGreaterThanOrEqual(2);
    const left = await sql<{ id: string }>('SELECT id FROM asset.assets WHERE id = ANY ($1::uuid[])', [
      [stale.id, stalePending.id, fresh.id, oldButAttached.id],
    ]);
    expect(left.map((r) => r.id).sort()).toEqual([fresh.id, oldButAttached.id].sort());
    expect(existsSync(staleFile)).toBe(false);
  });
});
