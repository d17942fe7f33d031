import type { Knex } from '@wms/kit/db';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE users (
      id uuid PRIMARY KEY,
      email text NOT NULL,
      name text NOT NULL,
      password_hash text NOT NULL,
      email_verified_at timestamptz,
      pending_email text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT users_email_key UNIQUE (email)
    );

    CREATE TABLE sessions (
      id uuid PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      client_ip text,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz,
      revoked_at timestamptz
    );
    CREATE INDEX sessions_live_by_user ON sessions (user_id) WHERE revoked_at IS NULL;

    CREATE TABLE email_tokens (
      id uuid PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('register', 'magic', 'email_change', 'reset')),
      token_hash text NOT NULL,
      email text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      consumed_at timestamptz,
      CONSTRAINT email_tokens_hash_key UNIQUE (token_hash)
    );
    CREATE INDEX email_tokens_open_by_user ON email_tokens (user_id) WHERE consumed_at IS NULL;

    CREATE TABLE email_codes (
      id uuid PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      code_hash text NOT NULL,
      attempts integer NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      consumed_at timestamptz
    );
    CREATE INDEX email_codes_open_by_user ON email_codes (user_id, created_at DESC) WHERE consumed_at IS NULL;
  `);
}
