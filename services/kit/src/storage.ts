import path from 'node:path';
import { z } from 'zod';
import { ConfigError, env } from './config.ts';
import { FsStorage } from './storage/fs.ts';
import { S3Storage } from './storage/s3.ts';
import type { ObjectStorage, StorageConfig } from './storage/types.ts';

export { verifySignedStorageRequest } from './storage/fs.ts';
export { assertValidKey, contentDisposition } from './storage/rules.ts';
export type { ObjectStorage, SignedUrlOptions, StorageConfig } from './storage/types.ts';

/** Storage variables (DESIGN.md, Configuration), to spread into a service's config schema. */
export const storageEnv = {
  STORAGE_DRIVER: z.enum(['fs', 's3']).default('fs'),
  STORAGE_DIR: env.string('.wms/storage'),
  /** HMAC key of the filesystem driver's download URLs; shared by the services that sign and the gateway that serves. */
  STORAGE_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  PUBLIC_URL: env.url('http://localhost:8080').transform((u) => u.replace(/\/+$/, '')),
  S3_ENDPOINT: z.string().url().optional(),
  S3_ACCESS_KEY: z.string().min(1).optional(),
  S3_SECRET_KEY: z.string().min(1).optional(),
  S3_REGION: env.string('us-east-1'),
  S3_BUCKET: env.string('wms'),
  S3_PUBLIC_URL: z.string().url().optional(),
};

/** The parsed variables of `storageEnv`. */
export type StorageEnv = z.output<z.ZodObject<typeof storageEnv>>;

/** Builds the storage config from parsed env; throws a ConfigError listing every variable the chosen driver misses. */
export function storageConfigFrom(parsed: StorageEnv, cwd = process.cwd()): StorageConfig {
  const required = (names: Record<string, string | undefined>): void => {
    const missing = Object.entries(names).filter(([, value]) => !value);
    if (missing.length === 0) return;
    const lines = missing.map(([name]) => `  ${name}: is required when STORAGE_DRIVER=${parsed.STORAGE_DRIVER}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  };
  if (parsed.STORAGE_DRIVER === 'fs') {
    required({ STORAGE_SECRET: parsed.STORAGE_SECRET });
    return {
      driver: 'fs',
      dir: path.resolve(cwd, parsed.STORAGE_DIR),
      publicUrl: parsed.PUBLIC_URL,
      secret: parsed.STORAGE_SECRET ?? '',
    };
  }
  required({
    S3_ENDPOINT: parsed.S3_ENDPOINT,
    S3_ACCESS_KEY: parsed.S3_ACCESS_KEY,
    S3_SECRET_KEY: parsed.S3_SECRET_KEY,
  });
  return {
    driver: 's3',
    endpoint: parsed.S3_ENDPOINT ?? '',
    accessKey: parsed.S3_ACCESS_KEY ?? '',
    secretKey: parsed.S3_SECRET_KEY ?? '',
    region: parsed.S3_REGION,
    bucket: parsed.S3_BUCKET,
    publicUrl: parsed.S3_PUBLIC_URL,
  };
}

/** The driver the config names. */
export function createStorage(config: StorageConfig): ObjectStorage {
  return config.driver === 'fs' ? new FsStorage(config) : new S3Storage(config);
}
