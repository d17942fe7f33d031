import { isUniqueViolation, type Knex, queryable, type Tx } from '@wms/kit/db';
import { invalidLink } from '../domain/errors.ts';
import type { UserWithPassword } from '../domain/user.ts';

interface UserRow {
  id: string;
  email: string;
  name: string;
  password_hash: string;
  email_verified_at: Date | null;
  pending_email: string | null;
  created_at: Date;
  updated_at: Date;
}

const columns: (keyof UserRow)[] = [
  'id',
  'email',
  'name',
  'password_hash',
  'email_verified_at',
  'pending_email',
  'created_at',
  'updated_at',
];

const toUser = (row: UserRow): UserWithPassword => ({
  id: row.id,
  email: row.email,
  name: row.name,
  passwordHash: row.password_hash,
  emailVerifiedAt: row.email_verified_at,
  pendingEmail: row.pending_email,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export class UserStore {
  constructor(private readonly db: Knex) {}

  async findByEmail(email: string): Promise<UserWithPassword | undefined> {
    const row = await this.db<UserRow>('users').select(columns).where({ email }).first();
    return row && toUser(row);
  }

  /** Users by id, in one query; unknown ids are left out. */
  async findByIds(ids: string[]): Promise<UserWithPassword[]> {
    if (ids.length === 0) return [];
    const rows: UserRow[] = await this.db<UserRow>('users').select(columns).whereIn('id', ids).orderBy('id');
    return rows.map(toUser);
  }

  async findById(id: string): Promise<UserWithPassword | undefined> {
    const row = await this.db<UserRow>('users').select(columns).where({ id }).first();
    return row && toUser(row);
  }

  /** Creates the account unless the address has one already (then returns that one, unchanged). */
  async insertIfAbsent(user: {
    id: string;
    email: string;
    name: string;
    passwordHash: string;
    /** Made with its address verified (an invitation's link proved the mailbox). */
    verified?: boolean;
  }): Promise<{ user: UserWithPassword; created: boolean }> {
    const [row] = await this.db<UserRow>('users')
      .insert({
        id: user.id,
        email: user.email,
        name: user.name,
        password_hash: user.passwordHash,
        ...(user.verified ? { email_verified_at: this.db.fn.now() } : {}),
      })
      .onConflict('email')
      .ignore()
      .returning(columns);
    if (row) return { user: toUser(row), created: true };
    const existing = await this.findByEmail(user.email);
    if (!existing) throw new Error('user vanished between insert and read');
    return { user: existing, created: false };
  }

  async markVerified(id: string): Promise<UserWithPassword> {
    const [row] = await this.db<UserRow>('users')
      .where({ id })
      .update({ email_verified_at: this.db.raw('coalesce(email_verified_at, now())'), updated_at: this.db.fn.now() })
      .returning(columns);
    if (!row) throw new Error(`user ${id} not found`);
    return toUser(row);
  }

  /** Sets a new password; owning the mailbox the reset link went to also proves the address. */
  async setPassword(id: string, passwordHash: string, tx?: Tx): Promise<void> {
    const db = queryable(this.db, tx);
    await db('users')
      .where({ id })
      .update({
        password_hash: passwordHash,
        email_verified_at: db.raw('coalesce(email_verified_at, now())'),
        updated_at: db.fn.now(),
      });
  }

  async updateProfile(
    id: string,
    changes: { name?: string; pendingEmail?: string | null },
  ): Promise<UserWithPassword | undefined> {
    const patch: Pick<Partial<UserRow>, 'name' | 'pending_email'> & { updated_at: Knex.Raw } = {
      updated_at: this.db.fn.now(),
    };
    if (changes.name !== undefined) patch.name = changes.name;
    if (changes.pendingEmail !== undefined) patch.pending_email = changes.pendingEmail;
    const [row] = await this.db<UserRow>('users').where({ id }).update(patch).returning(columns);
    return row && toUser(row);
  }

  /**
   * Moves the account to `email` if that is still the address it is waiting to confirm and no other account took it
   * meanwhile; undefined otherwise. An account that takes the address concurrently wins on the unique index: the link
   * then cannot do what it says, so it is refused as invalid.
   */
  async confirmEmailChange(id: string, email: string, tx?: Tx): Promise<UserWithPassword | undefined> {
    const result = await queryable(this.db, tx)
      .raw<{ rows: UserRow[] }>(
        `UPDATE users SET email = :email, pending_email = NULL, email_verified_at = now(), updated_at = now()
          WHERE id = :id AND pending_email = :email
            AND NOT EXISTS (SELECT 1 FROM users other WHERE other.email = :email)
          RETURNING ${columns.join(', ')}`,
        { id, email },
      )
      .catch((err: unknown) => {
        if (isUniqueViolation(err, 'users_email_key')) throw invalidLink();
        throw err;
      });
    const row = result.rows[0];
    return row && toUser(row);
  }
}
