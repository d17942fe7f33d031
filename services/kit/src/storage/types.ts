import type { Readable } from 'node:stream';

// What storage.ts and its drivers share: storage.ts picks a driver, the drivers implement the interface; both import
// this module, so imports go one way (storage.ts → drivers → types).

/** Object storage behind one small interface: the filesystem driver locally, any S3 (MinIO) in production. */
export interface ObjectStorage {
  /**
   * Stores bytes under `key`: a Buffer, or a Readable stream of announced size (checked: another byte count fails the
   * put and stores nothing). A failed put destroys the stream.
   */
  put(key: string, body: Buffer, meta: { contentType: string; size?: number }): Promise<void>;
  put(key: string, body: Readable, meta: { contentType: string; size: number }): Promise<void>;
  /** Reads an object as a stream; throws a DomainError not_found when absent. */
  get(key: string): Promise<Readable>;
  /** Reads a whole (small) object; throws a DomainError not_found when absent. */
  getBuffer(key: string): Promise<Buffer>;
  /** Size and content type, or undefined when absent. */
  stat(key: string): Promise<{ size: number; contentType: string } | undefined>;
  /** Removes objects; absent keys are fine. */
  delete(keys: string[]): Promise<void>;
  /** A URL that serves the object's exact bytes to anyone holding it, without headers, until `expiresAt`. */
  signedUrl(key: string, options: SignedUrlOptions): Promise<{ url: string; expiresAt: Date }>;
}

/** Options of `ObjectStorage.signedUrl`; disposition defaults to `attachment`. */
export interface SignedUrlOptions {
  expiresInSeconds: number;
  contentType: string;
  fileName?: string;
  disposition?: 'inline' | 'attachment';
}

/** Where objects live: a directory (served by the gateway through signed URLs) or an S3 bucket. */
export type StorageConfig =
  | { driver: 'fs'; dir: string; publicUrl: string; secret: string }
  | {
      driver: 's3';
      endpoint: string;
      accessKey: string;
      secretKey: string;
      region: string;
      bucket: string;
      /** The base URL clients reach S3 at, when it differs from `endpoint`. */
      publicUrl?: string | undefined;
    };
