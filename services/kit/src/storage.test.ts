import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, loadConfig } from './config.ts';
import { DomainError } from './errors.ts';
import { assertValidKey, contentDisposition, storageConfigFrom, storageEnv } from './storage.ts';

const parseEnv = (source: NodeJS.ProcessEnv) => loadConfig(z.object(storageEnv), source);

describe('assertValidKey', () => {
  it('rejects a key longer than 1024 characters', () => {
    expect(() => assertValidKey('x'.repeat(1025))).toThrow(DomainError);
  });

  it.each(['avatars/0b6c.webp', 'assets/ws-1/0b6c', 'a', 'a.b_c-d/e.f'])('accepts %s', (key) => {
    expect(() => assertValidKey(key)).not.toThrow();
  });

  it.each(['', '../x', 'a/../b', '/abs', 'a//b', 'a/', './a', '.meta/a', '.tmp/a', 'a b', 'a\\b', 'ä', 'a?b', 'a%2Fb'])(
    'rejects %j as invalid input',
    (key) => {
      expect(() => assertValidKey(key)).toThrow(
        expect.objectContaining({ name: 'DomainError', kind: 'invalid_argument', code: 'invalid_input' }),
      );
    },
  );
});

describe('contentDisposition', () => {
  it('is the bare disposition without a file name', () => {
    expect(contentDisposition('inline')).toBe('inline');
    expect(contentDisposition('attachment', '')).toBe('attachment');
  });

  it('keeps a plain ASCII name in both forms', () => {
    expect(contentDisposition('attachment', 'report.pdf')).toBe(
      `attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`,
    );
  });

  it('strips quotes, backslashes, control characters and separators from the fallback', () => {
    const value = contentDisposition('attachment', 'a"b\\c\r\nd/e;f%g.txt');
    expect(value).toBe(`attachment; filename="ab_cd_efg.txt"; filename*=UTF-8''a%22b_cd_e%3Bf%25g.txt`);
    expect(value).not.toMatch(/[\r\n]/);
  });

  it('transliterates accents for the fallback and percent-encodes UTF-8 in filename*', () => {
    expect(contentDisposition('inline', 'résumé (final)*.pdf')).toBe(
      `inline; filename="resume (final)*.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%28final%29%2A.pdf`,
    );
    expect(contentDisposition('attachment', "日本'.txt")).toBe(
      `attachment; filename="__'.txt"; filename*=UTF-8''%E6%97%A5%E6%9C%AC%27.txt`,
    );
  });

  it('falls back to "download" when nothing printable is left', () => {
    expect(contentDisposition('attachment', '"""')).toBe(`attachment; filename="download"; filename*=UTF-8''%22%22%22`);
  });
});

describe('storageConfigFrom', () => {
  const secret = 'x'.repeat(32);

  it('defaults to the filesystem driver under .wms/storage of the working directory', () => {
    expect(storageConfigFrom(parseEnv({ STORAGE_SECRET: secret }), '/srv/app')).toEqual({
      driver: 'fs',
      dir: path.resolve('/srv/app', '.wms/storage'),
      publicUrl: 'http://localhost:8080',
      secret,
    });
  });

  it('requires STORAGE_SECRET for the filesystem driver', () => {
    expect(() => storageConfigFrom(parseEnv({}))).toThrow(ConfigError);
    expect(() => storageConfigFrom(parseEnv({}))).toThrow(/STORAGE_SECRET: is required when STORAGE_DRIVER=fs/);
  });

  it('rejects a short STORAGE_SECRET at parse time', () => {
    expect(() => parseEnv({ STORAGE_SECRET: 'short' })).toThrow(/STORAGE_SECRET: must be at least 32 characters/);
  });

  it('lists every missing S3 variable at once', () => {
    const error = (() => {
      try {
        storageConfigFrom(parseEnv({ STORAGE_DRIVER: 's3', S3_ENDPOINT: 'http://127.0.0.1:9000' }));
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain('S3_ACCESS_KEY: is required when STORAGE_DRIVER=s3');
    expect((error as Error).message).toContain('S3_SECRET_KEY: is required when STORAGE_DRIVER=s3');
    expect((error as Error).message).not.toContain('S3_ENDPOINT');
  });

  it('builds the S3 config with region and bucket defaults', () => {
    const config = storageConfigFrom(
      parseEnv({
        STORAGE_DRIVER: 's3',
        S3_ENDPOINT: 'http://minio:9000',
        S3_ACCESS_KEY: 'access',
        S3_SECRET_KEY: 'secret',
        S3_PUBLIC_URL: 'https://files.example.com',
        PUBLIC_URL: 'https://wms.example.com/',
      }),
    );
    expect(config).toEqual({
      driver: 's3',
      endpoint: 'http://minio:9000',
      accessKey: 'access',
      secretKey: 'secret',
      region: 'us-east-1',
      bucket: 'wms',
      publicUrl: 'https://files.example.com',
    });
  });

  it('rejects an unknown driver', () => {
    expect(() => parseEnv({ STORAGE_DRIVER: 'gcs' })).toThrow(/STORAGE_DRIVER/);
  });
});
