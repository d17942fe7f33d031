import type { Knex } from '@wms/kit/db';
import { appendToOutbox } from '@wms/kit/outbox';
import type { Tx } from '@wms/kit/transactions';
import { type MessagingEvent, outboxEntriesOf } from '../event-payloads.ts';

/** Appends events inside the change's transaction, so an event exists exactly when its change committed. */
export class OutboxStore {
  constructor(private readonly db: Knex) {}

  async append(events: MessagingEvent[], tx: Tx): Promise<void> {
    await appendToOutbox(this.db, events.flatMap(outboxEntriesOf), tx);
  }
}
