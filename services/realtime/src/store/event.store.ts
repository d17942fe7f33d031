import { type Knex, queryable, type Tx } from '@wms/kit/db';
import { actorChannel, CHANNEL_PREFIXES } from '@wms/kit/channels';
import type { JsonObject, NewEvent, StoredEvent } from '../domain/events.ts';
import { lock } from './locks.ts';

interface EventRow {
  id: string;
  channel: string;
  name: string;
  data: JsonObject;
  created_at: Date;
}

const columns = ['id', 'channel', 'name', 'data', 'created_at'];

/** Rows of one INSERT: 7 parameters each, well under the 65,535 a statement takes. */
const INSERT_ROWS = 1000;

const toEvent = (r: EventRow): StoredEvent => ({
  id: String(r.id),
  channel: r.channel,
  name: r.name,
  data: r.data,
  createdAt: r.created_at,
});

export class EventStore {
  constructor(private readonly db: Knex) {}

  /**
   * Stores the events in order, each (source, source id) once; returns how many were new. The events lock is held
   * to the commit, so ids become visible in id order: a reader who sees an id sees every smaller one that committed.
   * At most INSERT_ROWS rows a statement (a statement's parameters are counted in 16 bits).
   */
  async insert(events: NewEvent[], tx: Tx): Promise<number> {
    if (events.length === 0) return 0;
    await lock(this.db, 'events', tx);
    let stored = 0;
    for (let i = 0; i < events.length; i += INSERT_ROWS) {
      const rows = await queryable(
        this.db,
        tx,
      )('events')
        .insert(
          events.slice(i, i + INSERT_ROWS).map((e) => ({
            event_id: e.eventId,
            source: e.source,
            source_id: e.sourceId,
            workspace_id: e.workspaceId,
            channel: e.channel,
            name: e.name,
            data: JSON.stringify(e.data),
          })),
        )
        .onConflict(['source', 'source_id'])
        .ignore()
        .returning('id');
      stored += rows.length;
    }
    return stored;
  }

  /**
   * The workspace's events after the cursor that the actor can receive (another actor's channel is not its own), oldest
   * first. Conversation access is messaging's: the caller leaves out the conversations it may not read.
   */
  async after(q: { workspaceId: string; actorId: string; after: string; limit: number }): Promise<StoredEvent[]> {
    const rows = await this.db('events')
      .select<EventRow[]>(columns)
      .where({ workspace_id: q.workspaceId })
      .andWhere('id', '>', q.after)
      .andWhere((w) => {
        w.whereNot('channel', 'like', `${CHANNEL_PREFIXES.actor}%`).orWhere('channel', actorChannel(q.actorId));
      })
      .orderBy('id')
      .limit(q.limit);
    return rows.map(toEvent);
  }

  /** The newest event id (or, with none left, the highest one removed): where a client that connects now starts. */
  async head(): Promise<string> {
    const { rows } = await this.db.raw<{ rows: Array<{ head: string }> }>(
      'SELECT greatest(coalesce((SELECT max(id) FROM events), 0), (SELECT removed_through FROM event_retention)) AS head',
    );
    return String(rows[0]!.head);
  }

  /** The highest event id the retention sweep removed: a cursor below it may have missed events. */
  async removedThrough(): Promise<string> {
    const row = await this.db('event_retention').first<{ removed_through: string }>('removed_through');
    return String(row.removed_through);
  }

  /** Holds delivery for the transaction (drainers wait their turn): one batch in flight at a time keeps the order. */
  lockDelivery(tx: Tx): Promise<void> {
    return lock(this.db, 'delivery', tx);
  }

  /** The oldest events not yet triggered: those above the delivery mark (delivery goes in id order). */
  async untriggered(limit: number, tx: Tx): Promise<StoredEvent[]> {
    const { rows } = await queryable(this.db, tx).raw<{ rows: EventRow[] }>(
      'SELECT id, channel, name, data, created_at FROM events WHERE id > (SELECT triggered_through FROM event_retention) ORDER BY id LIMIT ?',
      [limit],
    );
    return rows.map(toEvent);
  }

  /** Every event up to `id` has been triggered. */
  async markTriggered(id: string, tx: Tx): Promise<void> {
    await queryable(this.db, tx).raw('UPDATE event_retention SET triggered_through = greatest(triggered_through, ?)', [
      id,
    ]);
  }

  /**
   * Removes those of the `limit` oldest triggered events that were stored before `cutoff`, and raises the retention
   * mark past them; returns how many. Ids are taken in storing order, so the oldest are the lowest and the read stops
   * at `limit` rows.
   */
  async expire(cutoff: Date, limit: number): Promise<number> {
    const { rows } = await this.db.raw<{ rows: Array<{ removed: number }> }>(
      `WITH oldest AS (
         SELECT id, created_at FROM events WHERE id <= (SELECT triggered_through FROM event_retention) ORDER BY id LIMIT ?
       ), gone AS (
         DELETE FROM events WHERE id IN (SELECT id FROM oldest WHERE created_at < ?) RETURNING id
       ), mark AS (
         UPDATE event_retention SET removed_through = greatest(removed_through, (SELECT max(id) FROM gone))
         WHERE EXISTS (SELECT 1 FROM gone)
       )
       SELECT count(*)::int AS removed FROM gone`,
      [limit, cutoff],
    );
    return rows[0]!.removed;
  }
}
