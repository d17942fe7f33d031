import { finished } from 'node:stream/promises';
import { DomainError, invalidArgument, invalidInput } from '@wms/kit/errors';
import busboy from 'busboy';
import type { Request } from 'express';

export interface UploadOptions {
  /** The multipart field that carries the file. */
  field: string;
  maxBytes: number;
  /** How long the client may send nothing while the gateway waits for it. */
  idleMs: number;
}

const malformed = () => invalidInput([{ field: 'body', message: 'is not well-formed multipart/form-data' }]);
const endedEarly = () =>
  invalidInput([{ field: 'body', message: 'ended before the multipart body was complete' }], 'The upload was cut off.');
const tooLarge = (maxBytes: number) => invalidArgument('file_too_large', `The file must be at most ${maxBytes} bytes.`);
const stalled = (idleMs: number) =>
  invalidInput([{ field: 'body', message: `no data arrived for ${idleMs / 1000} s` }], 'The upload stalled.');

/**
 * Streams one file field of a multipart/form-data request as it arrives, for uploads passed on to a service. The
 * last chunk is held back until the part ends within `maxBytes`, so a file over the limit never reaches its end
 * downstream: iteration throws 400 `file_too_large` instead. Every other way the body can end (a cut connection,
 * a missing final boundary, a malformed part, a client that stops sending for `idleMs`) throws 400 `invalid_input`.
 */
export async function* streamUpload(req: Request, { field, maxBytes, idleMs }: UploadOptions): AsyncGenerator<Buffer> {
  const parser = multipartParser(req, maxBytes);
  // Every failure becomes one error that destroys the parser, which passes it on to the file stream being read.
  let failure: DomainError | undefined;
  const fail = (err: DomainError) => {
    failure ??= err;
    parser.destroy(failure);
  };
  // A client that stalls or sends on without bound must not keep its connection; any other early answer lets Node
  // read the rest of the body, so that a client still sending can read the answer.
  const failAndClose = (err: DomainError) => {
    if (req.res && !req.res.headersSent) req.res.setHeader('Connection', 'close');
    fail(err);
  };
  // Runs only while the gateway waits for the client, never while the file waits for the service.
  let idle: NodeJS.Timeout | undefined;
  const watch = () => {
    clearTimeout(idle);
    idle = setTimeout(() => failAndClose(stalled(idleMs)), idleMs);
  };
  const unwatch = () => {
    clearTimeout(idle);
    idle = undefined;
  };
  // An oversized file is read to its end, so that the client can read the answer, but not without bound.
  let received = 0;
  const onData = (chunk: Buffer) => {
    idle?.refresh();
    received += chunk.length;
    if (received > 2 * maxBytes) failAndClose(tooLarge(maxBytes));
  };
  const onClose = () => {
    if (!req.complete) fail(endedEarly());
  };
  const onRequestError = () => fail(endedEarly());
  req.on('close', onClose);
  req.on('error', onRequestError);

  try {
    watch();
    const part = filePart(parser, field, fail, () => failure);
    req.pipe(parser);
    req.on('data', onData);
    const file = await part;
    let held: Buffer | undefined;
    try {
      for await (const chunk of file as AsyncIterable<Buffer>) {
        if (held) {
          unwatch();
          yield held;
          watch();
        }
        held = chunk;
      }
      if ((file as { truncated?: boolean }).truncated) throw tooLarge(maxBytes);
      // The file part ending is not enough: the rest of the body must be well-formed too.
      await finished(parser);
    } catch (err) {
      throw failure ?? (err instanceof DomainError ? err : malformed());
    }
    if (failure) throw failure;
    if (held) yield held;
  } finally {
    unwatch();
    req.off('data', onData);
    req.off('close', onClose);
    req.off('error', onRequestError);
    req.unpipe(parser);
    if (!parser.destroyed) parser.destroy();
  }
}

function multipartParser(req: Request, maxBytes: number): busboy.Busboy {
  try {
    // busboy reports its fileSize limit when a file reaches it, so the limit given is one byte over the largest file allowed.
    return busboy({ headers: req.headers, limits: { files: 1, fileSize: maxBytes + 1, fields: 20, parts: 25 } });
  } catch {
    throw invalidInput(
      [{ field: 'header.content-type', message: 'must be multipart/form-data with a boundary' }],
      'Upload the file as multipart/form-data.',
    );
  }
}

/**
 * The stream of the file part named `field` (any other file part is drained); fails with the upload's first failure,
 * or 400 when the body ends without that part.
 */
function filePart(
  parser: busboy.Busboy,
  field: string,
  fail: (err: DomainError) => void,
  failure: () => DomainError | undefined,
): Promise<NodeJS.ReadableStream> {
  return new Promise((resolve, reject) => {
    let found = false;
    parser.on('file', (name, stream) => {
      // busboy destroys a file stream with an error when the body ends inside it, possibly before anyone reads it.
      stream.on('error', () => {});
      if (name !== field || found) {
        stream.resume();
        return;
      }
      found = true;
      resolve(stream);
    });
    parser.on('error', (err) => {
      const reason = err instanceof DomainError ? err : malformed();
      fail(reason);
      reject(reason);
    });
    parser.on('close', () => reject(failure() ?? invalidInput([{ field: `body.${field}`, message: 'is required' }])));
  });
}

/** Reads one file field into memory (at most `maxBytes` + one chunk is ever held), for small uploads such as avatars. */
export async function readUpload(req: Request, options: UploadOptions): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of streamUpload(req, options)) chunks.push(chunk);
  return Buffer.concat(chunks);
}
