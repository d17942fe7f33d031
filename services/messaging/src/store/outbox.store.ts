import type { Knex } from '@wms/kit/db';

/** One change for clients (contract §7): the provider channel, the event name and its payload. */
export interface OutboxEvent {
  workspaceId: string;
  channel: string;
  event: string;
  payload: Record<string, unknown>;
}

/** Appends events inside the caller's transaction, so an event exists exactly when its change committed. */
export class OutboxStore {
  async append(trx: Knex.Transaction, events: OutboxEvent[]): Promise<void> {
    if (events.length === 0) return;
    await trx('outbox').insert(events.map((e) => ({ workspace_id: e.workspaceId, channel: e.channel, event: e.event, payload: JSON.stringify(e.payload) })));
  }
}
