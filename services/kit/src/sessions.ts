/** What identity (which issues sessions) and the gateway (which checks them) agree on. */
export const session = {
  /** JWT issuer and algorithm of access tokens (Ed25519 keys, `JWT_PRIVATE_KEY` / `JWT_PUBLIC_KEY`). */
  issuer: 'wms',
  algorithm: 'EdDSA',
  /**
   * Redis key of a live session (under the deployment's key prefix). The key exists exactly while the session is
   * live: logout and password reset delete it, so the next request with its token fails the one-round-trip check.
   * Hash-tagged by user, so that on a Redis Cluster it shares a slot with the user's cached memberships (read with it
   * in one script) and their other sessions (deleted together).
   */
  key: (userId: string, sessionId: string) => `session:{${userId}}:${sessionId}`,
  /** The previous release's key of a session: written and deleted beside `key` (kit's `keyToRead`). */
  previousKey: (sessionId: string) => `session:${sessionId}`,
} as const;
