import { beforeAll, describe, expect, inject, it } from 'vitest';
import { type Account, expectError, signUp } from './support/accounts.ts';
import type { ApiResponse } from './support/http.ts';
import { multipart } from './support/images.ts';
import { expectFlatUploads, serverPid } from './support/memory.ts';
import { createChannel } from './support/messages.ts';
import { createWorkspace, inWorkspace } from './support/workspaces.ts';

// The s3 driver's counterpart runs in assets-s3.test.ts, on that file's cluster.

const MiB = 1024 * 1024;

let member: Account;
let ws: string;
let conv: string;
let assetPid: number;

beforeAll(async () => {
  member = await signUp('asset-memory');
  ws = (await createWorkspace(member)).id;
  conv = await createChannel(member, ws);
  assetPid = serverPid('services/asset/src/main.ts', inject('databaseUrl'));
});

async function reserve(sizeBytes: number): Promise<string> {
  const res = await inWorkspace(member, ws, 'POST', `/conversations/${conv}/assets`, {
    body: { name: 'big.bin', content_type: 'application/octet-stream', size_bytes: sizeBytes },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return (res.body as { id: string }).id;
}

const upload = (assetId: string, bytes: Buffer): Promise<ApiResponse> =>
  inWorkspace(member, ws, 'PUT', `/conversations/${conv}/assets/${assetId}/content`, multipart(bytes));

describe('asset upload memory (fs driver)', () => {
  it("an upload of 10 MiB + 1 byte is rejected without the service's memory growing by the body's size", async () => {
    await expectFlatUploads(assetPid, {
      reservedBytes: 10 * MiB,
      body: Buffer.alloc(10 * MiB + 1, 3),
      reserve,
      upload,
      expectAnswer: (res) => expectError(res, 400, 'file_too_large'),
    });
  });

  it('a 10 MiB upload is stored without the service holding the body', async () => {
    await expectFlatUploads(assetPid, {
      reservedBytes: 10 * MiB,
      body: Buffer.alloc(10 * MiB, 4),
      reserve,
      upload,
      expectAnswer: (res) => expect(res.status, JSON.stringify(res.body)).toBe(200),
    });
  });
});
