import type { DomainError } from '@wms/kit/errors';
import { fileTooLarge, MAX_ASSET_BYTES, sizeMismatch } from './asset.ts';

/**
 * An upload's bytes, counted. Storing stops at the first byte past the reservation, but the answer waits: more
 * bytes than reserved may still turn out to be more than 10 MiB, which is file_too_large, not size_mismatch
 * (contract §6). So the rest is read and dropped (memory stays flat) until the stream ends (size_mismatch), passes
 * 10 MiB (file_too_large), or the gateway, which refuses a file over 10 MiB itself, cancels it (its answer is then
 * the client's).
 */
export class UploadBody {
  private received = 0;
  /** Set once more bytes arrived than were reserved: the storing failed on purpose, `refusal` tells the answer. */
  overflowed = false;

  constructor(
    private readonly data: AsyncIterator<Buffer>,
    private readonly reserved: number,
  ) {}

  /** The bytes to store while they fit the reservation; fails at the first byte past it, or when the stream ends short. */
  async *toStore(): AsyncGenerator<Buffer> {
    for (let data = await this.next(); data; data = await this.next()) {
      if (this.received > this.reserved) {
        this.overflowed = true;
        throw sizeMismatch();
      }
      yield data;
    }
    if (this.received !== this.reserved) throw sizeMismatch();
  }

  /** After an overflow: the refusal, once the rest of the stream was read without keeping it. */
  async refusal(): Promise<DomainError> {
    while (await this.next());
    return sizeMismatch();
  }

  private async next(): Promise<Buffer | undefined> {
    const next = await this.data.next();
    if (next.done) return undefined;
    this.received += next.value.length;
    if (this.received > MAX_ASSET_BYTES) throw fileTooLarge();
    return next.value;
  }
}
