import { DomainError } from '@wms/kit/errors';
import { type Job, UnrecoverableError } from '@wms/kit/queues';
import type { ObjectStorage } from '@wms/kit/storage';
import { renderAvatar } from '../domain/avatar-image.ts';
import type { AvatarResizeJob, AvatarResizeResult } from '../queues.ts';

/** Renders an uploaded image into the stored WebP. An image that cannot be decoded fails at once with its contract code. */
export function avatarResizeProcessor(storage: ObjectStorage) {
  return async (job: Job<AvatarResizeJob, AvatarResizeResult>): Promise<AvatarResizeResult> => {
    const source = await storage.getBuffer(job.data.sourceKey);
    let webp: Buffer;
    try {
      webp = await renderAvatar(source);
    } catch (err) {
      if (err instanceof DomainError) throw new UnrecoverableError(err.code);
      throw err;
    }
    await storage.put(job.data.targetKey, webp, { contentType: 'image/webp', size: webp.length });
    return { sizeBytes: webp.length };
  };
}
