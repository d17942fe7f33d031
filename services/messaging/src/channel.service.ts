import { callerOf } from '@wms/kit/caller';
import type { CallContext } from '@wms/kit/context';
import { invalidInput } from '@wms/kit/errors';
import { isUuid, uuidv7 } from '@wms/kit/ids';
import type { Transact } from '@wms/kit/transactions';
import { type Channel, validateNewChannel } from './domain/channel.ts';
import { requireChannel } from './lookups.ts';
import type { ChannelStore } from './store/channel.store.ts';
import type { OutboxStore } from './store/outbox.store.ts';
import type { PurgeStore } from './store/purge.store.ts';

export interface ChannelDeps {
  transact: Transact;
  channels: ChannelStore;
  outbox: OutboxStore;
  purge: PurgeStore;
}

const PURGE_BATCH = 500;

/**
 * Channels of a workspace: readable and writable by all its accepted members (the gateway checks membership); once
 * the workspace is deleted, removed with everything in them.
 */
export class ChannelService {
  constructor(private readonly d: ChannelDeps) {}

  async createChannel(ctx: CallContext, input: { name: string; topic?: string | undefined }): Promise<Channel> {
    const fields = validateNewChannel(input);
    const { workspaceId, actorId } = callerOf(ctx);
    return this.d.transact(async (tx) => {
      const channel = await this.d.channels.insert({ id: uuidv7(), workspaceId, ...fields, createdByActorId: actorId }, tx);
      await this.d.outbox.append([{ type: 'channel.created', channel }], tx);
      return channel;
    });
  }

  listChannels(ctx: CallContext): Promise<Channel[]> {
    return this.d.channels.list(callerOf(ctx).workspaceId);
  }

  async getChannel(ctx: CallContext, id: string): Promise<Channel> {
    return requireChannel(this.d.channels, callerOf(ctx).workspaceId, id);
  }

  /** For the workspace worker, once the workspace is deleted (any caller): one bounded batch; true once nothing is left. */
  async purgeWorkspace(workspaceId: string): Promise<boolean> {
    if (!isUuid(workspaceId)) throw invalidInput([{ field: 'workspace_id', message: 'must be a UUID' }]);
    return this.d.transact((tx) => this.d.purge.purgeBatch(workspaceId, PURGE_BATCH, tx));
  }
}
