import { describe, expect, it } from 'vitest';
import { MAX_ASSET_BYTES, previewKind, validateNewAsset } from './asset.ts';

const valid = { name: 'a.txt', contentType: 'text/plain', sizeBytes: 1 };
const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
    return undefined;
  } catch (err) {
    return (err as { code?: string }).code;
  }
};

describe('previewKind', () => {
  it('is image for png, jpeg, gif and webp, whatever the case and parameters', () => {
    for (const type of ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'IMAGE/PNG', 'image/webp; q=1'])
      expect(previewKind(type), type).toBe('image');
  });

  it('is null for anything else, other images included', () => {
    for (const type of ['image/svg+xml', 'image/tiff', 'application/pdf', 'text/plain'])
      expect(previewKind(type), type).toBeNull();
  });
});

describe('validateNewAsset', () => {
  it('trims the name and lowercases the media type, keeping its parameters', () => {
    expect(validateNewAsset({ name: '  r.txt ', contentType: 'Text/Plain; charset=UTF-8', sizeBytes: 3 })).toEqual({
      name: 'r.txt',
      contentType: 'text/plain; charset=UTF-8',
      sizeBytes: 3,
    });
  });

  it('accepts 1 to 10 MiB and refuses any other size as file_too_large, a non-integer as invalid_input', () => {
    expect(codeOf(() => validateNewAsset({ ...valid, sizeBytes: MAX_ASSET_BYTES }))).toBeUndefined();
    for (const sizeBytes of [0, -1, MAX_ASSET_BYTES + 1])
      expect(
        codeOf(() => validateNewAsset({ ...valid, sizeBytes })),
        String(sizeBytes),
      ).toBe('file_too_large');
    expect(codeOf(() => validateNewAsset({ ...valid, sizeBytes: 1.5 }))).toBe('invalid_input');
  });

  it('refuses names of 0 or over 255 characters, control characters, and what is not a media type', () => {
    expect(codeOf(() => validateNewAsset({ ...valid, name: '😀'.repeat(255) }))).toBeUndefined();
    for (const name of ['  ', 'x'.repeat(256), 'a\nb'])
      expect(
        codeOf(() => validateNewAsset({ ...valid, name })),
        JSON.stringify(name),
      ).toBe('invalid_input');
    for (const contentType of ['text', 'text/', 'text/plain\r\nX: y'])
      expect(
        codeOf(() => validateNewAsset({ ...valid, contentType })),
        contentType,
      ).toBe('invalid_input');
  });
});
