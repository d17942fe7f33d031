import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';

/** What `read` resolves to, or `fallback` when what it reads was removed meanwhile. */
const unlessGone = <T, F>(read: Promise<T>, fallback: F): Promise<T | F> =>
  read.catch((err: unknown) => {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return fallback;
    throw err;
  });

/**
 * Every file under `dir`, dot folders included, by its path relative to `dir`, with its size. A file or folder removed
 * while it is read is left out: it is no longer stored.
 */
export async function filesUnder(dir: string): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  const walk = async (folder: string): Promise<void> => {
    for (const entry of await unlessGone(readdir(path.join(dir, folder), { withFileTypes: true }), [])) {
      const file = path.join(folder, entry.name);
      if (entry.isDirectory()) await walk(file);
      const size = entry.isFile()
        ? await unlessGone(
            stat(path.join(dir, file)).then((s) => s.size),
            undefined,
          )
        : undefined;
      if (size !== undefined) found.set(file, size);
    }
  };
  await walk('');
  return found;
}

/**
 * Every file the fs driver of the shared test cluster holds for an asset, anywhere in its directory: the bytes, their
 * metadata and the temp files of writes in progress or left behind (named after the key, with `~` for `/`).
 */
export async function storedAssetFiles(workspaceId: string, assetId: string): Promise<string[]> {
  const asset = `assets/${workspaceId}/${assetId}/`;
  return [...(await filesUnder(inject('storageDir'))).keys()].filter((file) =>
    file.replaceAll('~', '/').includes(asset),
  );
}

/** The temp files among an asset's files: a write in progress, or one left behind. */
export const tempFiles = (files: string[]): string[] => files.filter((file) => file.startsWith('.tmp/'));

// s3rver ships no types; this is the part of its API the tests use (it is a Koa application).
interface S3rverContext {
  method: string;
  path: string;
  query: Record<string, unknown>;
  status: number;
}
type S3rverMiddleware = (ctx: S3rverContext, next: () => Promise<void>) => Promise<void>;
interface S3rverServer {
  middleware: S3rverMiddleware[];
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverOptions = { address: string; port: number; silent: boolean; directory: string };
const S3rver = createRequire(import.meta.url)('s3rver') as new (options: S3rverOptions) => S3rverServer;

/** An S3 for a test cluster: s3rver in a directory of its own, which the tests read whole. */
export interface TestS3 {
  endpoint: string;
  /** Every file s3rver holds: objects with their metadata, and the parts of multipart uploads not completed or aborted. */
  files(): Promise<Map<string, number>>;
  /** Whether a multipart upload of a key under `prefix` (`<bucket>/<key prefix>`) was begun. */
  began(prefix: string): boolean;
  close(): Promise<void>;
}

/**
 * Starts s3rver with the one S3 call it lacks that the s3 driver makes: AbortMultipartUpload, which s3rver 3.7.1
 * answers with 405, keeping the upload's parts (in `<bucket>/._S3rver_uploads/<upload id>/`) where S3 removes them.
 */
export async function startS3rver(): Promise<TestS3> {
  const directory = await mkdtemp(path.join(tmpdir(), 'wms-e2e-s3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
  const begun: string[] = [];
  server.middleware.unshift(async (ctx, next) => {
    const uploadId = ctx.query.uploadId;
    if (ctx.method === 'DELETE' && typeof uploadId === 'string') {
      const parts = path.join(directory, ctx.path.split('/')[1] ?? '', '._S3rver_uploads', uploadId);
      if (!/^[0-9a-f]+$/.test(uploadId) || !existsSync(parts)) {
        ctx.status = 404;
        return;
      }
      await rm(parts, { recursive: true });
      ctx.status = 204;
      return;
    }
    await next();
    if (ctx.method === 'POST' && 'uploads' in ctx.query && ctx.status === 200) begun.push(ctx.path.slice(1));
  });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    files: () => filesUnder(directory),
    began: (prefix) => begun.some((key) => key.startsWith(prefix)),
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
