/** What identity (which issues sessions) and the gateway (which checks them) agree on. */
export const session = {
  /** JWT issuer and algorithm of access tokens (Ed25519 keys, `JWT_PRIVATE_KEY` / `JWT_PUBLIC_KEY`). */
  issuer: 'wms',
  algorithm: 'EdDSA',
  /**
   * Redis key of a live session (under the deployment's key prefix). The key exists exactly while the session is
   * live: logout and password reset delete it, so the next request with its token fails the one-round-trip check.
   */
  key: (sessionId: string) => `session:${sessionId}`,
} as const;
