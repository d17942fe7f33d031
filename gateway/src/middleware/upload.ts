import { invalidArgument, invalidInput } from '@wms/kit/errors';
import busboy from 'busboy';
import type { Request } from 'express';

// busboy reports its fileSize limit when a file reaches it, so the limit given is one byte over the largest file allowed.

/**
 * Reads one file field of a multipart/form-data request into memory, refusing it (400 `file_too_large`) as soon as
 * it passes `maxBytes`, so no more than `maxBytes` + one chunk is ever held. For small uploads such as avatars.
 */
export function readUpload(req: Request, field: string, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { files: 1, fileSize: maxBytes + 1, fields: 20, parts: 25 } });
    } catch {
      reject(invalidInput([{ field: 'body', message: 'must be multipart/form-data' }], 'Upload the file as multipart/form-data.'));
      return;
    }
    let settled = false;
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      req.unpipe(parser);
      req.resume();
      reject(err);
    };
    let file: Buffer | undefined;
    parser.on('file', (name, stream) => {
      if (name !== field || file) {
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => fail(invalidArgument('file_too_large', `The file must be at most ${maxBytes} bytes.`)));
      stream.on('end', () => {
        if (!settled) file = Buffer.concat(chunks);
      });
    });
    parser.on('error', () => fail(invalidInput([{ field: 'body', message: 'is not well-formed multipart/form-data' }])));
    parser.on('close', () => {
      if (settled) return;
      if (!file) {
        fail(invalidInput([{ field: `body.${field}`, message: 'is required' }]));
        return;
      }
      settled = true;
      resolve(file);
    });
    req.pipe(parser);
  });
}

/**
 * Streams one file field of a multipart/form-data request as it arrives, for uploads passed on to a service. The
 * last chunk is held back until the part ends within `maxBytes`, so a file over the limit never reaches its end
 * downstream: iteration throws 400 `file_too_large` instead.
 */
export async function* streamUpload(req: Request, field: string, maxBytes: number): AsyncGenerator<Buffer> {
  let parser: busboy.Busboy;
  try {
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
    parser.on('error', () => reject(invalidInput([{ field: 'body', message: 'is not well-formed multipart/form-data' }])));
    parser.on('close', () => reject(invalidInput([{ field: `body.${field}`, message: 'is required' }])));
    req.pipe(parser);
  });
  let held: Buffer | undefined;
  for await (const chunk of file as AsyncIterable<Buffer>) {
    if (held) yield held;
    held = chunk;
  }
  if (file.truncated) throw invalidArgument('file_too_large', `The file must be at most ${maxBytes} bytes.`);
  if (held) yield held;
}
