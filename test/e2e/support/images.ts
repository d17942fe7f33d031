import sharp from 'sharp';

/** A solid-colour image of the given format and size, made with sharp. */
export async function image(
  format: 'png' | 'jpeg' | 'webp' | 'gif' | 'tiff',
  width = 320,
  height = 200,
  colour = { r: 200, g: 30, b: 30 },
): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } })
    [format]()
    .toBuffer();
}

/** A 2-frame animated GIF, 64 × 64: a red frame, then a blue one. */
export async function animatedGif(): Promise<Buffer> {
  const frames = Buffer.alloc(64 * 128 * 3);
  for (let i = 0; i < 64 * 128; i++) frames.set(i < 64 * 64 ? [255, 0, 0] : [0, 0, 255], i * 3);
  return sharp(frames, { raw: { width: 64, height: 128, channels: 3, pageHeight: 64 } })
    .gif({ loop: 0 })
    .toBuffer();
}

/** Uploads bytes as the multipart field `file` (or another field). */
export function multipart(bytes: Buffer, field = 'file', fileName = 'upload.bin'): { body: FormData } {
  const form = new FormData();
  form.append(field, new Blob([bytes]), fileName);
  return { body: form };
}
