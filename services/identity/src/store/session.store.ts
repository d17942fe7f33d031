import { type Knex, queryable, type Tx } from '@wms/kit/db';
import type { Redis } from '@wms/kit/redis';
import { session } from '@wms/kit/sessions';

/**
 * Sessions live in two places: a Postgres row (the record) and a Redis key (the live switch the gateway checks on
 * every request). A session is usable exactly while its key exists.
 */
export class SessionStore {
  constructor(
    private readonly db: Knex,
    private readonly redis: Redis,
  ) {}

  async create(s: { id: string; userId: string; clientIp: string | undefined; expiresAt: Date | null }): Promise<void> {
    await this.db('sessions').insert({
      id: s.id,
      user_id: s.userId,
      client_ip: s.clientIp ?? null,
      expires_at: s.expiresAt,
    });
    const set = (key: string) =>
      s.expiresAt ? this.redis.set(key, s.userId, 'PXAT', s.expiresAt.getTime()) : this.redis.set(key, s.userId);
    // One command a key: on a Redis Cluster they are in different slots.
    await Promise.all([set(session.key(s.userId, s.id)), set(session.previousKey(s.id))]);
  }

  /** Ends one session; the keys go first, so a Redis failure leaves the session live and the caller sees an error. */
  async revoke(userId: string, id: string): Promise<void> {
    await Promise.all([this.redis.del(session.key(userId, id)), this.redis.del(session.previousKey(id))]);
    await this.db('sessions').where({ id }).whereNull('revoked_at').update({ revoked_at: this.db.fn.now() });
  }

  /** Ends every session of a user inside `tx`; if Redis fails the transaction fails with it. */
  async revokeAllForUser(userId: string, tx: Tx): Promise<number> {
    const db = queryable(this.db, tx);
    const rows: Array<{ id: string }> = await db('sessions')
      .where({ user_id: userId })
      .whereNull('revoked_at')
      .update({ revoked_at: db.fn.now() })
      .returning(['id']);
    if (rows.length > 0)
      await Promise.all([
        this.redis.del(...rows.map((r) => session.key(userId, r.id))),
        ...rows.map((r) => this.redis.del(session.previousKey(r.id))),
      ]);
    return rows.length;
  }
}
