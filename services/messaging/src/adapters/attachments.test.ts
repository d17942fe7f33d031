import { randomUUID } from 'node:crypto';
import type { MessageAssetsRequest } from '@wms/protos/gen/wms/asset/v1/MessageAssetsRequest';
import { describe, expect, it } from 'vitest';
import { type AssetClient, Attachments } from './attachments.ts';

/** An asset client that records the release and detach requests it gets. */
function recording() {
  const asked: Array<[string, MessageAssetsRequest]> = [];
  const refuse = () => Promise.reject(new Error('not in this test'));
  const client: AssetClient = {
    GetAssetsByIds: refuse,
    AttachAssets: refuse,
    ReleaseMessageAssets: async (req) => {
      asked.push(['release', req]);
      return {};
    },
    DetachMessageAssets: async (req) => {
      asked.push(['detach', req]);
      return {};
    },
  };
  return { attachments: new Attachments(client), asked };
}

describe(Attachments.name, () => {
  const workspaceId = randomUUID();
  const ctx = { requestId: randomUUID(), userId: randomUUID(), workspaceId, actorId: randomUUID() };

  it("names the caller's workspace when it releases or detaches messages' assets", async () => {
    const { attachments, asked } = recording();
    const [m1, m2, m3] = [randomUUID(), randomUUID(), randomUUID()];
    await attachments.release(ctx, [m1, m2]);
    await attachments.detach(ctx, m3);
    await attachments.release(ctx, []);
    expect(asked).toEqual([
      ['release', { workspace_id: workspaceId, message_ids: [m1, m2] }],
      ['detach', { workspace_id: workspaceId, message_ids: [m3] }],
    ]);
  });

  it('asks nothing without a workspace, which would reach the assets of every workspace', async () => {
    const { attachments, asked } = recording();
    const noWorkspace = { requestId: randomUUID() };
    await expect(attachments.release(noWorkspace, [randomUUID()])).rejects.toThrow(/workspace/);
    await expect(attachments.detach(noWorkspace, randomUUID())).rejects.toThrow(/workspace/);
    expect(asked).toEqual([]);
  });
});
