import type { CallContext } from '@wms/kit/context';
import type { PeerClient } from '@wms/kit/grpc-client';
import type { Asset__Output } from '@wms/protos/gen/wms/common/v1/Asset';
import { type Message, type MessageWithSave, shown } from '../domain/message.ts';
import type { Thread } from '../domain/read-state.ts';

export type AssetClient = Pick<
  PeerClient<'asset'>,
  'GetAssetsByIds' | 'AttachAssets' | 'ReleaseMessageAssets' | 'DetachMessageAssets'
>;

/** An attachment as the asset service answers it (contract §6): passed on to clients as it is. */
export type Attachment = Asset__Output;

/** A message as its reader sees it: the placeholder when deleted, the reader's bookmark, the attachments in order. */
export interface MessageRead extends MessageWithSave {
  assets: Attachment[];
}

/** A thread of the inbox with its root as the caller sees it. */
export interface ThreadRead extends Thread {
  root: MessageRead;
}

/** `row` as its reader sees it, its attachments taken from `attachments` by id. */
export function readOf(
  { message, savedAt }: MessageWithSave,
  attachments: ReadonlyMap<string, Attachment> = new Map(),
): MessageRead {
  const visible = shown(message);
  return { message: visible, savedAt, assets: visible.assetIds.flatMap((id) => attachments.get(id) ?? []) };
}

const byId = (assets: Attachment[]) => new Map(assets.map((a) => [a.id, a]));

/** The workspace whose messages' assets a release or detach touches: the asset service touches no other's. */
function workspaceOf(ctx: CallContext): string {
  if (!ctx.workspaceId) throw new Error('a release or detach of assets needs the workspace of its messages');
  return ctx.workspaceId;
}

/** Messages' attachments, owned by the asset service: one batch call per response, none when nothing is attached. */
export class Attachments {
  constructor(private readonly assets: AssetClient) {}

  /** The attachments of live messages, by id. */
  async of(ctx: CallContext, messages: Message[]): Promise<Map<string, Attachment>> {
    const ids = [...new Set(messages.flatMap((m) => shown(m).assetIds))];
    if (ids.length === 0) return new Map();
    return byId((await this.assets.GetAssetsByIds({ ids }, ctx)).assets);
  }

  /** The rows as their reader sees them, with one call for all their attachments. */
  async read(ctx: CallContext, rows: MessageWithSave[]): Promise<MessageRead[]> {
    const attachments = await this.of(
      ctx,
      rows.map((r) => r.message),
    );
    return rows.map((r) => readOf(r, attachments));
  }

  async readOne(ctx: CallContext, row: MessageWithSave): Promise<MessageRead> {
    return readOf(row, await this.of(ctx, [row.message]));
  }

  /** Attaches the caller's reservations to a new message, all or none (the asset service answers 400 otherwise). */
  async attach(
    ctx: CallContext,
    message: Pick<Message, 'id' | 'conversationId' | 'assetIds'>,
  ): Promise<Map<string, Attachment>> {
    if (message.assetIds.length === 0) return new Map();
    const { assets } = await this.assets.AttachAssets(
      { conversation_id: message.conversationId, message_id: message.id, asset_ids: message.assetIds },
      ctx,
    );
    return byId(assets);
  }

  /** When the message an attach was for, in the workspace of `ctx`, did not commit: its assets are free to attach again. */
  async detach(ctx: CallContext, messageId: string): Promise<void> {
    await this.assets.DetachMessageAssets({ workspace_id: workspaceOf(ctx), message_ids: [messageId] }, ctx);
  }

  /**
   * After deletes committed: the messages' assets and their bytes go; the messages are of the workspace of `ctx`. The
   * messages keep naming them until the caller calls `MessageStore.forgetAssets`, so what fails here is retried by the
   * cleanup worker.
   */
  async release(ctx: CallContext, messageIds: string[]): Promise<void> {
    if (messageIds.length > 0)
      await this.assets.ReleaseMessageAssets({ workspace_id: workspaceOf(ctx), message_ids: messageIds }, ctx);
  }
}
