import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3Storage } from '../src/storage/s3.ts';

// s3rver ships no types; this is the part of its API the test uses.
interface S3rverServer {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverOptions = { address: string; port: number; silent: boolean; directory: string };
const S3rver = createRequire(import.meta.url)('s3rver') as new (options: S3rverOptions) => S3rverServer;

const MiB = 1024 * 1024;

/** How the proxy fails connections. */
interface Faults {
  /**
   * A request arriving on a connection that has already answered one finds it closed, unread: what a server's idle
   * timeout does when it fires as the next request arrives on a kept-alive connection (s3rver's fires after 5 s, and on
   * a loaded machine while its clients still take the connection for open). Here every reused connection meets it.
   */
  closeReused?: boolean;
  /** The answer to a request whose head matches is dropped and its connection closed, after S3 took the request whole. */
  dropAnswerTo?: RegExp;
}

/** A TCP proxy to `port` that fails connections as `faults` say. */
async function faultyProxy(port: number, faults: Faults): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const proxy = net.createServer((client) => {
    const upstream = net.connect(port, '127.0.0.1');
    let head = '';
    let answered = false;
    const fail = () => {
      client.destroy();
      upstream.destroy();
    };
    const requests = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        if (answered && faults.closeReused) {
          fail();
          return callback();
        }
        head ||= chunk.toString('latin1');
        callback(null, chunk);
      },
    });
    const answers = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        if (faults.dropAnswerTo?.test(head)) {
          fail();
          return callback();
        }
        answered = true;
        callback(null, chunk);
      },
    });
    for (const [socket, other] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      sockets.add(socket);
      socket.on('error', () => other.destroy());
      socket.on('close', () => {
        sockets.delete(socket);
        other.destroy();
      });
    }
    client.pipe(requests).pipe(upstream);
    upstream.pipe(answers).pipe(client);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    port: (proxy.address() as AddressInfo).port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => proxy.close(resolve));
    },
  };
}

async function* chunksOf(bytes: Buffer) {
  for (let offset = 0; offset < bytes.length; offset += 64 * 1024) yield bytes.subarray(offset, offset + 64 * 1024);
}

describe(S3Storage.name, () => {
  let directory: string;
  let s3rver: S3rverServer;
  let s3rverPort: number;
  const proxies: Array<{ close(): Promise<void> }> = [];

  /** A driver reaching s3rver through a proxy with `faults`, on a bucket of its own. */
  async function storageWith(faults: Faults): Promise<S3Storage> {
    const proxy = await faultyProxy(s3rverPort, faults);
    proxies.push(proxy);
    const bucket = `test-${randomBytes(6).toString('hex')}`;
    return new S3Storage({
      driver: 's3',
      endpoint: `http://127.0.0.1:${proxy.port}`,
      accessKey: 'S3RVER',
      secretKey: 'S3RVER',
      region: 'us-east-1',
      bucket,
    });
  }

  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'wms-s3rver-'));
    s3rver = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
    s3rverPort = (await s3rver.run()).port;
  });

  afterAll(async () => {
    for (const proxy of proxies) await proxy.close();
    await s3rver?.close();
    if (directory) await rm(directory, { recursive: true, force: true });
  });

  it('stores, reads and removes objects through an S3 that closes a connection when a second request arrives on it', async () => {
    const storage = await storageWith({ closeReused: true });
    // A stream goes up in three parts between the upload's start and completion, a Buffer in one request. (Each key in
    // a folder of its own: s3rver removes a folder that a delete empties, and answers 500 when two deletes race to.)
    const streamed = { key: `${randomUUID()}/streamed`, bytes: randomBytes(11 * MiB) };
    const small = { key: `${randomUUID()}/small`, bytes: randomBytes(1000) };
    await storage.put(streamed.key, Readable.from(chunksOf(streamed.bytes)), {
      contentType: 'application/octet-stream',
      size: streamed.bytes.length,
    });
    await storage.put(small.key, small.bytes, { contentType: 'text/plain' });

    expect((await storage.getBuffer(streamed.key)).equals(streamed.bytes)).toBe(true);
    expect(await storage.stat(small.key)).toEqual({ size: small.bytes.length, contentType: 'text/plain' });
    await storage.delete([streamed.key, small.key]);
    expect(await storage.stat(streamed.key)).toBeUndefined();
    expect(await storage.stat(small.key)).toBeUndefined();
  });

  it('fails a put, rather than waiting forever, when the connection drops after a part went out whole', async () => {
    const storage = await storageWith({ dropAnswerTo: /^PUT [^ ]*[?&]partNumber=2&/ });
    const key = `${randomUUID()}/dropped`;
    const body = Readable.from(chunksOf(randomBytes(11 * MiB)));
    await expect(
      storage.put(key, body, { contentType: 'application/octet-stream', size: 11 * MiB }),
    ).rejects.toMatchObject({ code: 'ECONNRESET' });
    expect(body.destroyed).toBe(true);
    expect(await storage.stat(key)).toBeUndefined();
  });
});
