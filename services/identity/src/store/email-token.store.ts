import { type Knex, queryable, type Tx } from '@wms/kit/db';
import type { TokenKind } from '../domain/secrets.ts';

export interface EmailToken {
  id: string;
  userId: string;
  kind: TokenKind;
  tokenHash: string;
  email: string;
}

interface EmailTokenRow {
  id: string;
  user_id: string;
  kind: TokenKind;
  token_hash: string;
  email: string;
  expires_at: Date;
  consumed_at: Date | null;
}

export class EmailTokenStore {
  constructor(private readonly db: Knex) {}

  async insert(token: {
    id: string;
    userId: string;
    kind: TokenKind;
    tokenHash: string;
    email: string;
    expiresAt: Date;
  }): Promise<void> {
    await this.db<EmailTokenRow>('email_tokens').insert({
      id: token.id,
      user_id: token.userId,
      kind: token.kind,
      token_hash: token.tokenHash,
      email: token.email,
      expires_at: token.expiresAt,
    });
  }

  /** Uses a live token of one of `kinds` exactly once: of two concurrent uses, one gets it, the other nothing. */
  async consume(tokenHash: string, kinds: TokenKind[], tx?: Tx): Promise<EmailToken | undefined> {
    const db = queryable(this.db, tx);
    const [row] = await db<EmailTokenRow>('email_tokens')
      .where({ token_hash: tokenHash })
      .whereIn('kind', kinds)
      .whereNull('consumed_at')
      .where('expires_at', '>', db.fn.now())
      .update({ consumed_at: db.fn.now() })
      .returning(['id', 'user_id', 'kind', 'token_hash', 'email']);
    return row && { id: row.id, userId: row.user_id, kind: row.kind, tokenHash: row.token_hash, email: row.email };
  }

  async revokeAllForUser(userId: string, tx?: Tx): Promise<void> {
    const db = queryable(this.db, tx);
    await db('email_tokens').where({ user_id: userId }).whereNull('consumed_at').update({ consumed_at: db.fn.now() });
  }
}
