import { invalidArgument } from '@wms/kit/errors';
import sharp from 'sharp';

export const AVATAR_MAX_BYTES = 10 * 1024 * 1024;
export const AVATAR_MAX_PIXELS = 40_000_000;
export const AVATAR_SIZE = 256;

export type AvatarFormat = 'jpeg' | 'png' | 'webp' | 'gif';

export interface AvatarInfo {
  format: AvatarFormat;
  width: number;
  height: number;
}

const FORMATS: ReadonlySet<string> = new Set<AvatarFormat>(['jpeg', 'png', 'webp', 'gif']);

const fileTooLarge = () => invalidArgument('file_too_large', 'The avatar must be at most 10 MiB.');
const imageTooLarge = () => invalidArgument('image_too_large', 'The avatar must be at most 40,000,000 pixels.');
const unsupportedImage = () =>
  invalidArgument('unsupported_image', 'The avatar must be a JPG, PNG, WebP or GIF image.');

const isPixelLimitError = (err: unknown) => err instanceof Error && /pixel limit/i.test(err.message);
const decodeError = (err: unknown) => (isPixelLimitError(err) ? imageTooLarge() : unsupportedImage());

/** Checks an upload from its header only (format by content, bytes, pixels of one frame) without decoding it. */
export async function inspectAvatar(bytes: Buffer): Promise<AvatarInfo> {
  if (bytes.length > AVATAR_MAX_BYTES) throw fileTooLarge();
  let meta: sharp.Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: AVATAR_MAX_PIXELS }).metadata();
  } catch (err) {
    throw decodeError(err);
  }
  const { format, width } = meta;
  const height = meta.pageHeight ?? meta.height;
  if (!format || !FORMATS.has(format) || !width || !height) throw unsupportedImage();
  if (width * height > AVATAR_MAX_PIXELS) throw imageTooLarge();
  return { format: format as AvatarFormat, width, height };
}

/** Decodes an accepted upload (first frame, EXIF orientation applied) into the stored 256 × 256 WebP, centre-cropped. */
export async function renderAvatar(bytes: Buffer): Promise<Buffer> {
  // The header check again, so that nothing but the four allowed decoders (no SVG, no TIFF) ever sees the bytes.
  await inspectAvatar(bytes);
  try {
    return await sharp(bytes, { limitInputPixels: AVATAR_MAX_PIXELS, failOn: 'truncated', pages: 1, page: 0 })
      .rotate()
      .resize(AVATAR_SIZE, AVATAR_SIZE, { fit: 'cover', position: 'centre' })
      .webp({ quality: 82 })
      .toBuffer();
  } catch (err) {
    throw decodeError(err);
  }
}
