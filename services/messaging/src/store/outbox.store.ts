import type { Knex } from '@wms/kit/db';
import { deliverable, type OutboxEvent } from '../domain/events.ts';

/** Appends events inside the caller's transaction, so an event exists exactly when its change committed. */
export class OutboxStore {
  async append(trx: Knex.Transaction, events: OutboxEvent[]): Promise<void> {
    if (events.length === 0) return;
    await trx('outbox').insert(
      events.map((e) => ({ workspace_id: e.workspaceId, channel: e.channel, event: e.event, payload: JSON.stringify(deliverable(e)) })),
    );
  }
}
