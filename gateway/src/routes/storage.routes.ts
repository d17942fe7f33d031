import { pipeline } from 'node:stream/promises';
import { notFound } from '@wms/kit/errors';
import { type ObjectStorage, verifySignedStorageRequest } from '@wms/kit/storage';
import { z } from 'zod';
import { documentedAs } from '../openapi/documented-as.ts';
import { route } from './route.ts';

export interface StorageRouteDeps {
  /** The filesystem storage whose signed URLs this route serves; undefined with S3, whose URLs point at S3 itself. */
  storage: ObjectStorage | undefined;
  secret: string;
}

/** Serves signed download URLs of the filesystem storage driver: the exact bytes, no credentials, until expiry. */
export const storageRoutes = ({ storage, secret }: StorageRouteDeps) => [
  route({
    method: 'get',
    path: '/storage/*key',
    tag: 'Downloads',
    summary: 'A signed download URL (from an AssetDownload) of the filesystem storage driver',
    auth: 'none',
    tokens: 'none',
    params: z.object({
      key: z
        .array(z.string())
        .transform((parts) => parts.join('/'))
        .register(documentedAs, {
          type: 'string',
          minLength: 1,
          description: 'the storage key, its `/` included (one wildcard segment)',
        }),
    }),
    // Checked only as a whole, by the signature: anything wrong is 404 (the rules below are documentation).
    query: z
      .object({
        expires: z.string().meta({ pattern: '^[0-9]+$', description: 'Unix seconds after which the URL answers 404' }),
        type: z.string().meta({ minLength: 1, maxLength: 255, description: 'the Content-Type to answer with' }),
        name: z
          .string()
          .optional()
          .meta({ maxLength: 255, description: 'the file name of Content-Disposition (empty for none)' }),
        disposition: z.string().meta({ enum: ['attachment', 'inline'] }),
        sig: z.string().meta({
          pattern: '^[0-9a-f]{64}$',
          description: 'hex HMAC-SHA256 of the key and the other fields; any change makes the URL 404',
        }),
      })
      .partial(),
    status: 200,
    errors: [404],
    codes: ['not_found'],
    handle: async ({ params, req, res }) => {
      const expired = () => notFound('This download link is invalid or has expired.');
      const headers =
        storage && verifySignedStorageRequest(secret, params.key, new URL(req.originalUrl, 'http://x').searchParams);
      if (!storage || !headers) throw expired();
      const stat = await storage.stat(params.key);
      if (!stat) throw expired();
      const body = await storage.get(params.key);
      res.status(200);
      res.setHeader('Content-Type', headers.contentType);
      res.setHeader('Content-Disposition', headers.contentDisposition);
      res.setHeader('Content-Length', String(stat.size));
      res.setHeader('X-Content-Type-Options', 'nosniff');
      // Security: whatever the bytes are, a browser must not run them as a page of this origin.
      res.setHeader('Content-Security-Policy', "sandbox; default-src 'none'");
      res.setHeader('Cache-Control', 'private, max-age=300');
      // The file is closed however the response ends; a client going away mid-download is no error of ours.
      await pipeline(body, res).catch((err: unknown) => {
        if ((err as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') throw err;
      });
    },
  }),
];
