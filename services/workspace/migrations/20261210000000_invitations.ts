import type { Knex } from '@wms/kit/db';

// Invitations (contract §12): an owner or admin invites an address, and the person behind it accepts. `status` is
// stored as it last changed; a pending invitation whose `expires_at` has passed reads `expired` (and is stored so when the
// address is invited again). At most one invitation per workspace and address is pending.
// Each mail's link carries a token of its own, kept as its SHA-256 alone (how a link finds its invitation): a resend
// adds one, so an earlier mail's link works as long as the invitation is pending.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE invitations (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      email text NOT NULL,
      role text NOT NULL CHECK (role IN ('admin', 'member')),
      status text NOT NULL CHECK (status IN ('pending', 'accepted', 'declined', 'revoked', 'expired')),
      invited_by_actor_id uuid NOT NULL,
      workspace_user_id uuid REFERENCES workspace_users (id),
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((status = 'accepted') = (workspace_user_id IS NOT NULL))
    );
    CREATE UNIQUE INDEX invitations_one_pending ON invitations (workspace_id, email) WHERE status = 'pending';
    CREATE INDEX invitations_by_workspace ON invitations (workspace_id, status, id DESC);
    CREATE INDEX invitations_pending_by_email ON invitations (email, id DESC) WHERE status = 'pending';

    CREATE TABLE invitation_links (
      token_hash text PRIMARY KEY,
      invitation_id uuid NOT NULL REFERENCES invitations (id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX invitation_links_by_invitation ON invitation_links (invitation_id);
  `);
}
