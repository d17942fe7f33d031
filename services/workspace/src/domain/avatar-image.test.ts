import { DomainError } from '@wms/kit/errors';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { AVATAR_MAX_BYTES, AVATAR_MAX_PIXELS, AVATAR_SIZE, inspectAvatar, renderAvatar } from './avatar-image.ts';

type Rgb = [number, number, number];
const RED: Rgb = [255, 0, 0];
const GREEN: Rgb = [0, 255, 0];
const BLUE: Rgb = [0, 0, 255];

const solid = (width: number, height: number, [r, g, b]: Rgb) =>
  sharp({ create: { width, height, channels: 3, background: { r, g, b } } });

/** Noise, so that every part of the encoded file matters to the decoder. */
const noisy = (width: number, height: number) =>
  sharp({
    create: { width, height, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 40 } },
  });

/** A raw RGB image whose pixel colour is chosen per position. */
function painted(width: number, height: number, colourAt: (x: number, y: number) => Rgb, pageHeight?: number) {
  const data = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) data.set(colourAt(x, y), (y * width + x) * 3);
  }
  return sharp(data, { raw: { width, height, channels: 3, ...(pageHeight ? { pageHeight } : {}) } });
}

async function pixel(webp: Buffer, x: number, y: number): Promise<Rgb> {
  const { data, info } = await sharp(webp).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const i = (y * info.width + x) * info.channels;
  return [data[i]!, data[i + 1]!, data[i + 2]!];
}

function expectColour(actual: Rgb, expected: Rgb): void {
  actual.forEach((channel, i) =>
    expect(Math.abs(channel - expected[i]!), `channel ${i} of ${actual.join(',')}`).toBeLessThan(48),
  );
}

async function expectAvatar(out: Buffer): Promise<void> {
  const meta = await sharp(out).metadata();
  expect(meta).toMatchObject({ format: 'webp', width: AVATAR_SIZE, height: AVATAR_SIZE });
  expect(meta.pages ?? 1).toBe(1);
}

async function rejection(promise: Promise<unknown>): Promise<DomainError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DomainError);
  expect((err as DomainError).kind).toBe('invalid_argument');
  return err as DomainError;
}
const codeOf = async (promise: Promise<unknown>) => (await rejection(promise)).code;

/** A 2 × 2 24-bit BMP, built by hand since sharp cannot write one. */
function bmp(): Buffer {
  const rowSize = 8;
  const pixels = 2 * rowSize;
  const buf = Buffer.alloc(54 + pixels);
  buf.write('BM', 0, 'latin1');
  buf.writeUInt32LE(buf.length, 2);
  buf.writeUInt32LE(54, 10);
  buf.writeUInt32LE(40, 14);
  buf.writeInt32LE(2, 18);
  buf.writeInt32LE(2, 22);
  buf.writeUInt16LE(1, 26);
  buf.writeUInt16LE(24, 28);
  buf.writeUInt32LE(pixels, 34);
  buf.fill(0xff, 54);
  return buf;
}

describe('inspectAvatar', () => {
  it('reads the format and size of each allowed format from its content', async () => {
    await expect(inspectAvatar(await solid(30, 20, RED).png().toBuffer())).resolves.toEqual({
      format: 'png',
      width: 30,
      height: 20,
    });
    await expect(inspectAvatar(await solid(30, 20, RED).jpeg().toBuffer())).resolves.toEqual({
      format: 'jpeg',
      width: 30,
      height: 20,
    });
    await expect(inspectAvatar(await solid(30, 20, RED).webp().toBuffer())).resolves.toEqual({
      format: 'webp',
      width: 30,
      height: 20,
    });
    await expect(inspectAvatar(await solid(30, 20, RED).gif().toBuffer())).resolves.toEqual({
      format: 'gif',
      width: 30,
      height: 20,
    });
  });

  it('counts one frame of an animation', async () => {
    const gif = await painted(40, 60, (_x, y) => (y < 30 ? RED : BLUE), 30)
      .gif()
      .toBuffer();
    await expect(inspectAvatar(gif)).resolves.toEqual({ format: 'gif', width: 40, height: 30 });
  });

  it('refuses a file over 10 MiB before looking at it', async () => {
    expect(await codeOf(inspectAvatar(Buffer.alloc(AVATAR_MAX_BYTES + 1)))).toBe('file_too_large');
    expect(await codeOf(inspectAvatar(Buffer.alloc(AVATAR_MAX_BYTES)))).toBe('unsupported_image');
  });

  it('refuses an image over 40,000,000 pixels', async () => {
    const png = await solid(8000, 6000, RED).png({ compressionLevel: 9 }).toBuffer();
    expect(png.length).toBeLessThan(AVATAR_MAX_BYTES);
    const err = await rejection(inspectAvatar(png));
    expect(err.code).toBe('image_too_large');
    expect(await codeOf(renderAvatar(png))).toBe('image_too_large');
  });

  it('accepts exactly 40,000,000 pixels', async () => {
    const png = await solid(8000, AVATAR_MAX_PIXELS / 8000, RED)
      .png({ compressionLevel: 9 })
      .toBuffer();
    await expect(inspectAvatar(png)).resolves.toEqual({ format: 'png', width: 8000, height: 5000 });
  });

  it.each([
    ['text', () => Promise.resolve(Buffer.from('hello, this is not an image\n'))],
    ['an empty file', () => Promise.resolve(Buffer.alloc(0))],
    ['BMP', () => Promise.resolve(bmp())],
    ['TIFF', () => solid(20, 20, RED).tiff().toBuffer()],
    [
      'SVG',
      () =>
        Promise.resolve(
          Buffer.from(
            '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><rect width="20" height="20" fill="red"/></svg>',
          ),
        ),
    ],
    [
      'a PNG signature with nothing after it',
      () => Promise.resolve(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
    ],
  ])('refuses %s as unsupported_image', async (_name, make) => {
    const bytes = await make();
    expect(await codeOf(inspectAvatar(bytes))).toBe('unsupported_image');
    expect(await codeOf(renderAvatar(bytes))).toBe('unsupported_image');
  });
});

describe('renderAvatar', () => {
  it.each([
    ['PNG', () => solid(300, 300, RED).png().toBuffer()],
    ['JPEG', () => solid(300, 300, RED).jpeg().toBuffer()],
    ['WebP', () => solid(300, 300, RED).webp().toBuffer()],
    ['GIF', () => solid(300, 300, RED).gif().toBuffer()],
    ['a small PNG (upscaled)', () => solid(16, 16, RED).png().toBuffer()],
  ])('renders %s to a 256 × 256 WebP', async (_name, make) => {
    const out = await renderAvatar(await make());
    await expectAvatar(out);
    expectColour(await pixel(out, 128, 128), RED);
  });

  it('keeps only the first frame of an animated GIF', async () => {
    const gif = await painted(100, 200, (_x, y) => (y < 100 ? RED : BLUE), 100)
      .gif()
      .toBuffer();
    expect(await sharp(gif).metadata()).toMatchObject({ format: 'gif', pages: 2, height: 100 });
    const out = await renderAvatar(gif);
    await expectAvatar(out);
    expectColour(await pixel(out, 128, 128), RED);
    expectColour(await pixel(out, 128, 250), RED);
  });

  it('keeps only the first frame of an animated WebP', async () => {
    const webp = await painted(100, 200, (_x, y) => (y < 100 ? BLUE : RED), 100)
      .webp()
      .toBuffer();
    expect(await sharp(webp).metadata()).toMatchObject({ format: 'webp', pages: 2 });
    const out = await renderAvatar(webp);
    await expectAvatar(out);
    expectColour(await pixel(out, 128, 128), BLUE);
  });

  it('crops a wide image to its centre', async () => {
    const png = await painted(600, 200, (x) => (x >= 200 && x < 400 ? GREEN : BLUE))
      .png()
      .toBuffer();
    const out = await renderAvatar(png);
    await expectAvatar(out);
    expectColour(await pixel(out, 128, 128), GREEN);
    expectColour(await pixel(out, 4, 128), GREEN);
    expectColour(await pixel(out, 251, 128), GREEN);
  });

  it('crops a tall image to its centre', async () => {
    const png = await painted(200, 600, (_x, y) => (y >= 200 && y < 400 ? GREEN : BLUE))
      .png()
      .toBuffer();
    const out = await renderAvatar(png);
    expectColour(await pixel(out, 128, 4), GREEN);
    expectColour(await pixel(out, 128, 251), GREEN);
  });

  it('applies the EXIF orientation and drops the metadata', async () => {
    // Stored 300 × 100, top half red; orientation 6 shows it turned a quarter clockwise, red on the right.
    const jpeg = await painted(300, 100, (_x, y) => (y < 50 ? RED : BLUE))
      .jpeg({ quality: 95 })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    expect((await sharp(jpeg).metadata()).orientation).toBe(6);
    const out = await renderAvatar(jpeg);
    await expectAvatar(out);
    expectColour(await pixel(out, 40, 128), BLUE);
    expectColour(await pixel(out, 216, 128), RED);
    const meta = await sharp(out).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
  });

  it('refuses a truncated JPEG that passes the header check', async () => {
    const jpeg = await noisy(600, 600).jpeg().toBuffer();
    const truncated = jpeg.subarray(0, Math.floor(jpeg.length / 2));
    await expect(inspectAvatar(truncated)).resolves.toMatchObject({ format: 'jpeg', width: 600, height: 600 });
    expect(await codeOf(renderAvatar(truncated))).toBe('unsupported_image');
  });

  it('refuses a truncated PNG', async () => {
    const png = await noisy(400, 400).png().toBuffer();
    expect(await codeOf(renderAvatar(png.subarray(0, Math.floor(png.length / 2))))).toBe('unsupported_image');
  });
});
