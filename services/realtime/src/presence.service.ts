import { callerOf } from '@wms/kit/caller';
import type { CallContext } from '@wms/kit/context';
import { invalidInput, unauthenticated } from '@wms/kit/errors';
import type { PresenceState } from './domain/presence.ts';
import { isSignedWebhook, occupancyChannelsOf } from './domain/webhook.ts';
import type { PresenceStore } from './store/presence.store.ts';

/** Has the channels a webhook named reconciled with the provider; the same webhook twice (by `id`) once. */
export interface OccupancyChecks {
  check(id: string, channels: string[]): Promise<void>;
}

export interface Webhook {
  rawBody: Buffer;
  key: string;
  signature: string;
}

export class PresenceService {
  constructor(
    private readonly d: {
      app: { key: string; secret: string };
      presence: Pick<PresenceStore, 'online'>;
      occupancy: OccupancyChecks;
    },
  ) {}

  /** The caller's workspace's actors online now. */
  async online(ctx: CallContext): Promise<PresenceState[]> {
    return this.d.presence.online(callerOf(ctx).workspaceId);
  }

  /** A provider webhook: taken as a hint only, so the work is to ask the provider about the channels it names. */
  async acceptWebhook(w: Webhook): Promise<void> {
    if (!isSignedWebhook(this.d.app, w.rawBody, w.key, w.signature))
      throw unauthenticated('invalid_signature', 'The webhook signature does not verify.');
    const channels = occupancyChannelsOf(w.rawBody);
    if (!channels) throw invalidInput([{ field: 'body', message: 'must be a webhook: a JSON object with events' }]);
    if (channels.length > 0) await this.d.occupancy.check(w.signature.toLowerCase(), channels);
  }
}
