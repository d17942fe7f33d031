import { session } from '@wms/kit/sessions';
import { importPKCS8, SignJWT } from 'jose';
import type { AccessTokenSigner } from '../identity.service.ts';

/** Signs access tokens: a JWT naming the user (`sub`) and the session (`sid`), with `exp` when sessions expire. */
export class JwtAccessTokens implements AccessTokenSigner {
  private constructor(private readonly key: Awaited<ReturnType<typeof importPKCS8>>) {}

  static async fromPem(privateKeyPem: string): Promise<JwtAccessTokens> {
    return new JwtAccessTokens(await importPKCS8(privateKeyPem, session.algorithm));
  }

  sign(userId: string, sessionId: string, expiresAt: Date | null): Promise<string> {
    const jwt = new SignJWT({ sid: sessionId })
      .setProtectedHeader({ alg: session.algorithm })
      .setSubject(userId)
      .setIssuer(session.issuer)
      .setIssuedAt();
    if (expiresAt) jwt.setExpirationTime(Math.floor(expiresAt.getTime() / 1000));
    return jwt.sign(this.key);
  }
}
