import { DomainError, invalidArgument, invalidInput } from '@wms/kit/errors';
import busboy from 'busboy';
import type { Request } from 'express';

const malformed = () => invalidInput([{ field: 'body', message: 'is not well-formed multipart/form-data' }]);

/**
 * Streams one file field of a multipart/form-data request as it arrives, for uploads passed on to a service. The
 * last chunk is held back until the part ends within `maxBytes`, so a file over the limit never reaches its end
 * downstream: iteration throws 400 `file_too_large` instead.
 */
export async function* streamUpload(req: Request, field: string, maxBytes: number): AsyncGenerator<Buffer> {
  let parser: busboy.Busboy;
  try {
    // busboy reports its fileSize limit when a file reaches it, so the limit given is one byte over the largest file allowed.
    parser = busboy({ headers: req.headers, limits: { files: 1, fileSize: maxBytes + 1, fields: 20, parts: 25 } });
  } catch {
    throw invalidInput([{ field: 'body', message: 'must be multipart/form-data' }], 'Upload the file as multipart/form-data.');
  }
  const file = await new Promise<NodeJS.ReadableStream & { truncated?: boolean }>((resolve, reject) => {
    let found = false;
    parser.on('file', (name, stream) => {
      if (name !== field || found) {
        stream.resume();
        return;
      }
      found = true;
      resolve(stream);
    });
    parser.on('error', () => reject(malformed()));
    parser.on('close', () => reject(invalidInput([{ field: `body.${field}`, message: 'is required' }])));
    req.pipe(parser);
  });
  let held: Buffer | undefined;
  try {
    for await (const chunk of file as AsyncIterable<Buffer>) {
      if (held) yield held;
      held = chunk;
    }
  } catch (err) {
    throw err instanceof DomainError ? err : malformed();
  }
  if (file.truncated) throw invalidArgument('file_too_large', `The file must be at most ${maxBytes} bytes.`);
  if (held) yield held;
}

/** Reads one file field into memory (at most `maxBytes` + one chunk is ever held), for small uploads such as avatars. */
export async function readUpload(req: Request, field: string, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of streamUpload(req, field, maxBytes)) chunks.push(chunk);
  return Buffer.concat(chunks);
}
