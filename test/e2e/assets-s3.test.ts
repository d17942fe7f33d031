import { randomBytes } from 'node:crypto';
import { type BucketItem, Client as Minio } from 'minio';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Cluster, startCluster } from '@wms/local-cluster/cluster';
import { type Account, expectError, signUp } from './support/accounts.ts';
import { type ApiResponse, useCluster } from './support/http.ts';
import { expectFlatUploads, serverPid } from './support/memory.ts';
import { type AssetBody, createChannel } from './support/messages.ts';
import { startS3rver, type TestS3 } from './support/storage.ts';
import { createWorkspace, inWorkspace } from './support/workspaces.ts';

interface DownloadBody {
  url: string;
  expires_at: string;
  name: string;
  content_type: string;
  size_bytes: number;
}

const MiB = 1024 * 1024;
const S3_KEY = 'S3RVER';
const BUCKET = `wms-e2e-${randomBytes(4).toString('hex')}`;

let s3: TestS3 | undefined;
let minio: Minio;
let cluster: Cluster | undefined;
let owner: Account;
let ws: string;
let conv: string;

/** A request of the owner in the workspace, to this file's own cluster (useCluster). */
const asOwner = (method: string, urlPath: string, body?: unknown, timeoutMs = 30_000) =>
  inWorkspace(owner, ws, method, urlPath, { body, timeoutMs });

// The memory tests send 16 uploads of 10 MiB at once through the gateway, the asset service and s3rver: 4 s on an idle
// two-core machine, but over 30 s beside another file's cluster start or a production build (CI ran one into the
// 30 s limit). They measure memory, not speed, so their uploads and the tests wait longer.
const MEMORY_UPLOAD_TIMEOUT_MS = 150_000;
const MEMORY_TEST_TIMEOUT_MS = 240_000;

/** Every object in the cluster's bucket under the prefix, by key. */
async function objects(prefix: string): Promise<Map<string, number>> {
  const items = (await minio.listObjectsV2(BUCKET, prefix, true).toArray()) as BucketItem[];
  return new Map(items.map((item) => [item.name ?? '', item.size]));
}

const objectBytes = async (key: string) => Buffer.concat(await (await minio.getObject(BUCKET, key)).toArray());
const assetPrefix = (asset: Pick<AssetBody, 'id'>) => `assets/${ws}/${asset.id}/`;

/** Everything the S3 holds (objects and the parts of unfinished multipart uploads), to compare with a later look. */
const stored = () => s3!.files();

/** What the S3 holds beyond `before`, leaving out the objects of `assets`: the parts of an unfinished upload, say. */
async function storedBeyond(before: Map<string, number>, assets: Array<Pick<AssetBody, 'id'>>): Promise<string[]> {
  const folders = assets.map((asset) => `${BUCKET}/${assetPrefix(asset)}`);
  return [...(await stored()).keys()].filter(
    (file) => !before.has(file) && !folders.some((folder) => file.startsWith(folder)),
  );
}

/**
 * Waits until the storage holds `before` again after uploads the gateway refused itself: it answers at once, and the
 * service aborts what it had begun when it sees the cancel. Each asset's upload must have begun, so that the wait
 * cannot pass on the state from before it.
 */
async function expectAborted(before: Map<string, number>, assets: Array<Pick<AssetBody, 'id'>>): Promise<void> {
  await vi.waitFor(
    async () => {
      expect(assets.filter((asset) => !s3!.began(`${BUCKET}/${assetPrefix(asset)}`))).toEqual([]);
      expect(await stored()).toEqual(before);
    },
    { timeout: 15_000, interval: 200 },
  );
}

const base = () => `/conversations/${conv}/assets`;

async function reserve(body: { name: string; content_type: string; size_bytes: number }): Promise<AssetBody> {
  const res = await asOwner('POST', base(), body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as AssetBody;
}

function upload(assetId: string, bytes: Buffer, timeoutMs?: number): Promise<ApiResponse> {
  const form = new FormData();
  form.append('file', new Blob([bytes]), 'file.bin');
  return asOwner('PUT', `${base()}/${assetId}/content`, form, timeoutMs);
}
const memoryUpload = (assetId: string, bytes: Buffer) => upload(assetId, bytes, MEMORY_UPLOAD_TIMEOUT_MS);

async function postMessage(assetIds: string[]): Promise<{ id: string; assets: unknown[] }> {
  const res = await asOwner('POST', `/conversations/${conv}/messages`, {
    body_text: 'see attached',
    asset_ids: assetIds,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; assets: unknown[] };
}

async function download(assetId: string): Promise<DownloadBody> {
  const res = await asOwner('GET', `${base()}/${assetId}/download`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as DownloadBody;
}

beforeAll(async () => {
  s3 = await startS3rver();
  const { port } = new URL(s3.endpoint);
  minio = new Minio({
    endPoint: '127.0.0.1',
    port: Number(port),
    useSSL: false,
    accessKey: S3_KEY,
    secretKey: S3_KEY,
    region: 'us-east-1',
  });

  cluster = await startCluster({
    mode: 'test',
    logs: 'files',
    env: {
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY: S3_KEY,
      S3_SECRET_KEY: S3_KEY,
      S3_REGION: 'us-east-1',
      S3_BUCKET: BUCKET,
    },
  });

  useCluster(cluster);
  owner = await signUp('s3-owner');
  ws = (await createWorkspace(owner, 'S3 assets')).id;
  conv = await createChannel(owner, ws, 's3');

  // The cluster makes its bucket with its first upload; every look into the bucket after this one requires it.
  expect(await minio.bucketExists(BUCKET)).toBe(false);
  const first = await reserve({ name: 'first.txt', content_type: 'text/plain', size_bytes: 5 });
  expect((await upload(first.id, Buffer.from('first'))).status).toBe(200);
  expect(await minio.bucketExists(BUCKET)).toBe(true);
});

afterAll(async () => {
  await cluster?.stop();
  await s3?.close();
});

describe('assets end to end (s3 driver)', () => {
  it('reserves, attaches, uploads to the bucket and serves the exact bytes from a presigned S3 URL', async () => {
    const bytes = randomBytes(300_000);
    const before = await stored();
    const asset = await reserve({
      name: 'report final.pdf',
      content_type: 'application/pdf',
      size_bytes: bytes.length,
    });
    expect(asset).toMatchObject({
      conversation_id: conv,
      message_id: null,
      status: 'pending',
      size_bytes: bytes.length,
    });
    const message = await postMessage([asset.id]);
    expect(message.assets).toEqual([expect.objectContaining({ id: asset.id, message_id: message.id })]);

    const uploaded = await upload(asset.id, bytes);
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
    expect(uploaded.body).toMatchObject({ id: asset.id, status: 'ready', message_id: message.id });
    const kept = await objects(assetPrefix(asset));
    expect([...kept.values()]).toEqual([bytes.length]);
    expect((await objectBytes([...kept.keys()][0]!)).equals(bytes)).toBe(true);
    expect(await storedBeyond(before, [asset])).toEqual([]);

    const d = await download(asset.id);
    expect(d).toMatchObject({ name: 'report final.pdf', content_type: 'application/pdf', size_bytes: bytes.length });
    const url = new URL(d.url);
    expect(url.origin).toBe(s3!.endpoint);
    expect(url.pathname).toBe(`/${BUCKET}/${[...kept.keys()][0]}`);
    expect(url.searchParams.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
    expect(url.searchParams.get('X-Amz-Credential')).toMatch(
      new RegExp(`^${S3_KEY}/\\d{8}/us-east-1/s3/aws4_request$`),
    );
    expect(url.searchParams.get('X-Amz-Expires')).toBe('300');
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('host');
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    const signedAt = (url.searchParams.get('X-Amz-Date') ?? '').replace(
      /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/,
      '$1-$2-$3T$4:$5:$6Z',
    );
    expect(Date.parse(d.expires_at)).toBe(Date.parse(signedAt) + 300_000);
    expect(Date.parse(d.expires_at) - Date.now()).toBeGreaterThan(4 * 60 * 1000);

    const served = await fetch(d.url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('application/pdf');
    expect(served.headers.get('content-disposition')).toMatch(/^attachment; filename="report final.pdf"/);
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('serves an image inline with its content type', async () => {
    const png = Buffer.from(
      '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4ef0000000049454e44ae426082',
      'hex',
    );
    const asset = await reserve({ name: 'dot.png', content_type: 'image/png', size_bytes: png.length });
    expect((await upload(asset.id, png)).status).toBe(200);
    const served = await fetch((await download(asset.id)).url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('content-disposition')).toMatch(/^inline/);
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);
  });

  it('answers 409 asset_not_ready for a pending asset, attached or not', async () => {
    const loose = await reserve({ name: 'later.txt', content_type: 'text/plain', size_bytes: 5 });
    expectError(await asOwner('GET', `${base()}/${loose.id}/download`), 409, 'asset_not_ready');
    const attached = await reserve({ name: 'attached.txt', content_type: 'text/plain', size_bytes: 5 });
    await postMessage([attached.id]);
    expectError(await asOwner('GET', `${base()}/${attached.id}/download`), 409, 'asset_not_ready');
    expect(await objects(assetPrefix(attached))).toEqual(new Map());
  });

  it('refuses another length than reserved (size_mismatch) and stores nothing', async () => {
    const asset = await reserve({ name: 'a.bin', content_type: 'application/octet-stream', size_bytes: 100_000 });
    const before = await stored();
    expectError(await upload(asset.id, randomBytes(99_999)), 400, 'size_mismatch');
    expectError(await upload(asset.id, randomBytes(100_001)), 400, 'size_mismatch');
    // The service answers these itself, once it has aborted the uploads it began.
    expect(s3!.began(`${BUCKET}/${assetPrefix(asset)}`)).toBe(true);
    expect(await stored()).toEqual(before);
    expectError(await asOwner('GET', `${base()}/${asset.id}/download`), 409, 'asset_not_ready');

    const bytes = randomBytes(100_000);
    expect((await upload(asset.id, bytes)).status).toBe(200);
    const kept = await objects(assetPrefix(asset));
    expect(kept.size).toBe(1);
    expect((await objectBytes([...kept.keys()][0]!)).equals(bytes)).toBe(true);
    expect(await storedBeyond(before, [asset])).toEqual([]);
  });

  it('refuses an upload over 10 MiB whatever was reserved (file_too_large) and stores nothing', async () => {
    const asset = await reserve({ name: 'big.bin', content_type: 'application/octet-stream', size_bytes: 10 * MiB });
    const before = await stored();
    expectError(await upload(asset.id, randomBytes(10 * MiB + 1)), 400, 'file_too_large');
    await expectAborted(before, [asset]);

    const bytes = randomBytes(10 * MiB);
    const ok = await upload(asset.id, bytes);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect([...(await objects(assetPrefix(asset))).values()]).toEqual([10 * MiB]);
    expect(await storedBeyond(before, [asset])).toEqual([]);
    const served = await fetch((await download(asset.id)).url);
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('stores a ready asset once: a retry with other bytes answers the existing asset and stores nothing', async () => {
    const asset = await reserve({ name: 'once.txt', content_type: 'text/plain', size_bytes: 5 });
    const first = await upload(asset.id, Buffer.from('first'));
    expect(first.status).toBe(200);
    const before = await stored();
    const retry = await upload(asset.id, Buffer.from('other'));
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect(await stored()).toEqual(before);
    expect(await (await fetch((await download(asset.id)).url)).text()).toBe('first');
  });

  it('keeps exactly one object of concurrent uploads of one asset, equal to one of them', async () => {
    const asset = await reserve({ name: 'race.bin', content_type: 'application/octet-stream', size_bytes: 200_000 });
    const before = await stored();
    const contents = Array.from({ length: 6 }, () => randomBytes(200_000));
    const answers = await Promise.all(contents.map((c) => upload(asset.id, c)));
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
    expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1);
    expect(answers[0]!.body).toMatchObject({ id: asset.id, status: 'ready' });

    const objectKeys = [...(await objects(assetPrefix(asset))).keys()];
    expect(objectKeys).toHaveLength(1);
    expect(await storedBeyond(before, [asset])).toEqual([]);
    const kept = await objectBytes(objectKeys[0]!);
    expect(contents.some((c) => c.equals(kept))).toBe(true);
    const served = Buffer.from(await (await fetch((await download(asset.id)).url)).arrayBuffer());
    expect(served.equals(kept)).toBe(true);
  });

  it('removes the object when its message is deleted', async () => {
    const asset = await reserve({ name: 'doomed.txt', content_type: 'text/plain', size_bytes: 4 });
    const message = await postMessage([asset.id]);
    expect((await upload(asset.id, Buffer.from('data'))).status).toBe(200);
    expect((await objects(assetPrefix(asset))).size).toBe(1);

    expect((await asOwner('DELETE', `/conversations/${conv}/messages/${message.id}`)).status).toBe(204);
    expect(await objects(assetPrefix(asset))).toEqual(new Map());
    expectError(await asOwner('GET', `${base()}/${asset.id}/download`), 404, 'not_found');
  });
});

describe('asset upload memory (s3 driver)', () => {
  /** Reserves an asset of `sizeBytes` and adds it to `assets`. */
  const reserveBig = (assets: AssetBody[]) => async (sizeBytes: number) => {
    const asset = await reserve({ name: 'big.bin', content_type: 'application/octet-stream', size_bytes: sizeBytes });
    assets.push(asset);
    return asset.id;
  };

  it(
    "an upload of 10 MiB + 1 byte is rejected without the service's memory growing by the body's size",
    async () => {
      const before = await stored();
      const assets: AssetBody[] = [];
      await expectFlatUploads(serverPid('services/asset/src/main.ts', cluster!.databaseUrl), {
        reservedBytes: 10 * MiB,
        body: Buffer.alloc(10 * MiB + 1, 3),
        reserve: reserveBig(assets),
        upload: memoryUpload,
        expectAnswer: (res) => expectError(res, 400, 'file_too_large'),
      });
      await expectAborted(before, assets);
    },
    MEMORY_TEST_TIMEOUT_MS,
  );

  it(
    'a 10 MiB upload is stored without the service holding the body',
    async () => {
      const before = await stored();
      const assets: AssetBody[] = [];
      await expectFlatUploads(serverPid('services/asset/src/main.ts', cluster!.databaseUrl), {
        reservedBytes: 10 * MiB,
        body: Buffer.alloc(10 * MiB, 4),
        reserve: reserveBig(assets),
        upload: memoryUpload,
        expectAnswer: (res) => expect(res.status, JSON.stringify(res.body)).toBe(200),
      });
      expect(await storedBeyond(before, assets)).toEqual([]);
    },
    MEMORY_TEST_TIMEOUT_MS,
  );
});
