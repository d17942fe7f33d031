import { ensure, invalidArgument } from '@wms/kit/errors';
import { isMediaType } from '@wms/kit/media-type';

export interface Asset {
  id: string;
  workspaceId: string;
  conversationId: string;
  reservedByActorId: string;
  messageId: string | null;
  name: string;
  contentType: string;
  sizeBytes: number;
  status: 'pending' | 'ready';
  storageKey: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Where to fetch an asset's bytes, and until when. */
export interface AssetDownload {
  url: string;
  expiresAt: Date;
  name: string;
  contentType: string;
  sizeBytes: number;
}

/** Asset content upload limit (spec Limits). */
export const MAX_ASSET_BYTES = 10 * 1024 * 1024;
/** How long a download URL works (contract §6). */
export const DOWNLOAD_SECONDS = 5 * 60;
/** A reservation no message attached within this time is removed (contract §6). */
export const UNATTACHED_TTL_MS = 24 * 60 * 60 * 1000;

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

export const fileTooLarge = () =>
  invalidArgument('file_too_large', `The file must be at most ${MAX_ASSET_BYTES} bytes.`);
export const sizeMismatch = () =>
  invalidArgument('size_mismatch', 'The uploaded file is not the size that was reserved.');

/** `image` for the image types clients can preview, else null (contract §6). */
export const previewKind = (contentType: string): 'image' | null =>
  IMAGE_TYPES.has(mediaType(contentType)) ? 'image' : null;

/** The media type without parameters, lowercase. */
const mediaType = (contentType: string) => contentType.split(';')[0]!.trim().toLowerCase();

/** CreateAsset (contract §6): a name of 1..255 characters, a media type, a size of 1..10 MiB (else file_too_large). */
export function validateNewAsset(input: { name: string; contentType: string; sizeBytes: number }): {
  name: string;
  contentType: string;
  sizeBytes: number;
} {
  const name = input.name.trim();
  ensure(
    [
      'body.name',
      name.length >= 1 && [...name].length <= 255 && !/\p{Cc}/u.test(name),
      'must be 1 to 255 characters without control characters',
    ],
    ['body.content_type', isMediaType(input.contentType), 'must be a media type such as image/png'],
    ['body.size_bytes', Number.isSafeInteger(input.sizeBytes), 'must be an integer'],
  );
  // The contract's range is 1..10 MiB, "else file_too_large": an empty or negative size is refused with that code too.
  if (input.sizeBytes < 1 || input.sizeBytes > MAX_ASSET_BYTES) throw fileTooLarge();
  return {
    name,
    contentType: input.contentType.trim().replace(/^[^;]+/, (t) => t.toLowerCase()),
    sizeBytes: input.sizeBytes,
  };
}
