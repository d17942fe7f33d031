import { type Knex, queryable, type Tx } from '@wms/kit/db';

export interface EmailCode {
  id: string;
  codeHash: string;
}

export class EmailCodeStore {
  constructor(private readonly db: Knex) {}

  /** Issues a code and retires every earlier open code of the user, so only the newest one works. */
  async replace(code: { id: string; userId: string; codeHash: string; expiresAt: Date }): Promise<void> {
    await this.db.transaction(async (trx) => {
      await trx('email_codes')
        .where({ user_id: code.userId })
        .whereNull('consumed_at')
        .update({ consumed_at: trx.fn.now() });
      await trx('email_codes').insert({
        id: code.id,
        user_id: code.userId,
        code_hash: code.codeHash,
        expires_at: code.expiresAt,
      });
    });
  }

  /**
   * Counts one try against the user's open code and returns it, or nothing when there is none, it expired or its
   * tries are spent. One statement, so parallel guesses cannot exceed `maxAttempts`.
   */
  async takeAttempt(userId: string, maxAttempts: number): Promise<EmailCode | undefined> {
    const { rows } = await this.db.raw<{ rows: Array<{ id: string; code_hash: string }> }>(
      `UPDATE email_codes SET attempts = attempts + 1
        WHERE id = (SELECT id FROM email_codes WHERE user_id = ? AND consumed_at IS NULL ORDER BY created_at DESC LIMIT 1)
          AND expires_at > now() AND attempts < ?
        RETURNING id, code_hash`,
      [userId, maxAttempts],
    );
    const row = rows[0];
    return row && { id: row.id, codeHash: row.code_hash };
  }

  /** Marks a verified code used; false when a parallel request used it first. */
  async consume(id: string): Promise<boolean> {
    const count = await this.db('email_codes')
      .where({ id })
      .whereNull('consumed_at')
      .update({ consumed_at: this.db.fn.now() });
    return count === 1;
  }

  async revokeAllForUser(userId: string, tx?: Tx): Promise<void> {
    const db = queryable(this.db, tx);
    await db('email_codes').where({ user_id: userId }).whereNull('consumed_at').update({ consumed_at: db.fn.now() });
  }
}
