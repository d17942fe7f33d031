import { describe, expect, it } from 'vitest';
import { MAX_ASSET_BYTES } from './asset.ts';
import { UploadBody } from './upload.ts';

async function* chunks(...sizes: number[]): AsyncGenerator<Buffer> {
  for (const size of sizes) yield Buffer.alloc(size);
}

const stored = async (body: UploadBody): Promise<number> => {
  let bytes = 0;
  for await (const data of body.toStore()) bytes += data.length;
  return bytes;
};

const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (err: unknown) => (err as { code?: string }).code,
  );

describe(UploadBody.name, () => {
  it('hands over every byte of an upload of the reserved size', async () => {
    expect(await stored(new UploadBody(chunks(3, 4), 7))).toBe(7);
  });

  it('refuses an upload shorter than reserved as size_mismatch', async () => {
    expect(await codeOf(stored(new UploadBody(chunks(3), 7)))).toBe('size_mismatch');
  });

  it('stops storing at the first byte past the reservation and answers size_mismatch once the rest is read', async () => {
    const rest = chunks(4, 4, 4);
    const body = new UploadBody(rest, 7);
    expect(await codeOf(stored(body))).toBe('size_mismatch');
    expect(body.overflowed).toBe(true);
    expect((await body.refusal()).code).toBe('size_mismatch');
    expect(await rest.next()).toEqual({ done: true, value: undefined });
  });

  it('answers file_too_large once more than 10 MiB arrived, whatever was reserved', async () => {
    const body = new UploadBody(chunks(8, MAX_ASSET_BYTES), 7);
    expect(await codeOf(stored(body))).toBe('size_mismatch');
    expect(await codeOf(body.refusal())).toBe('file_too_large');
    expect(await codeOf(stored(new UploadBody(chunks(MAX_ASSET_BYTES, 1), MAX_ASSET_BYTES)))).toBe('file_too_large');
  });
});
