import { z } from 'zod';
import type { Clients } from '../clients.ts';
import { toAsset, toDownload } from '../mappers.ts';
import * as s from '../schemas.ts';
import { route } from './route.ts';

const ASSET_UPLOAD = { field: 'file', maxBytes: 10 * 1024 * 1024, streamed: true };

const assetPath = z.object({ conversation_id: s.id('conversation'), asset_id: s.id('asset') });

/** The spec's Assets table (contract §6), served by the asset service. */
export const assetRoutes = ({ asset }: Clients) => [
  route({
    method: 'post',
    path: '/conversations/:conversation_id/assets',
    tag: 'Assets',
    summary: 'Reserve a pending attachment (then attach it to a message and upload its content)',
    auth: 'workspace',
    tokens: 'workspace',
    params: z.object({ conversation_id: s.id('conversation') }),
    body: z
      .object({ name: s.assetName, content_type: s.contentType, size_bytes: s.sizeBytes })
      .meta({ examples: [{ name: 'diagram.png', content_type: 'image/png', size_bytes: 48213 }] }),
    status: 201,
    response: s.Asset,
    codes: ['not_found', 'file_too_large'],
    handle: async ({ params, body, ctx }) =>
      toAsset(await asset.CreateAsset({ conversation_id: params.conversation_id, ...body }, ctx)),
  }),
  route({
    method: 'put',
    path: '/conversations/:conversation_id/assets/:asset_id/content',
    tag: 'Assets',
    summary:
      'Upload the content (multipart field `file`, at most 10 MiB, the reserved size); a ready asset never changes',
    auth: 'workspace',
    tokens: 'workspace',
    params: assetPath,
    upload: ASSET_UPLOAD,
    status: 200,
    response: s.Asset,
    errors: [403],
    codes: ['forbidden', 'not_found', 'file_too_large', 'size_mismatch'],
    handle: async ({ params, stream, ctx }) => {
      // Streamed to the service as it arrives: the gateway never holds the file.
      async function* chunks() {
        yield { asset: { conversation_id: params.conversation_id, asset_id: params.asset_id } };
        for await (const data of stream()) yield { data };
      }
      return toAsset(await asset.UploadAssetContent(chunks(), ctx));
    },
  }),
  route({
    method: 'get',
    path: '/conversations/:conversation_id/assets/:asset_id/download',
    tag: 'Assets',
    summary: 'A URL serving the exact bytes for five minutes',
    auth: 'workspace',
    tokens: 'workspace',
    params: assetPath,
    status: 200,
    response: s.AssetDownload,
    errors: [409],
    codes: ['not_found', 'asset_not_ready'],
    handle: async ({ params, ctx }) => toDownload(await asset.GetAssetDownload(params, ctx)),
  }),
];
