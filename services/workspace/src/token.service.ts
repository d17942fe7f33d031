import { randomUUID } from 'node:crypto';
import type { CallContext } from '@wms/kit/context';
import { ensure, notFound } from '@wms/kit/errors';
import { isUuid } from '@wms/kit/ids';
import { newTokenSecret, tokenHash, tokenPrefixOf } from '@wms/kit/tokens';
import type { Token } from './domain/model.ts';
import { limits, requireManager } from './domain/rules.ts';
import { requireCaller } from './lookups.ts';
import type { ActorStore } from './store/actor.store.ts';
import type { MemberStore } from './store/member.store.ts';
import type { TokenStore } from './store/token.store.ts';

export interface TokenDeps {
  members: MemberStore;
  actors: ActorStore;
  tokens: TokenStore;
}

/** A token as created: the secret alongside, shown this once. */
export type CreatedToken = Token & { secret: string };

/** Integration credentials of agents (contract §11), made, listed and revoked by owners and admins. */
export class TokenService {
  constructor(private readonly d: TokenDeps) {}

  /** A workspace token for an active agent that admins manage. */
  async createWorkspaceToken(ctx: CallContext, input: { actorId: string; name: string }): Promise<CreatedToken> {
    const name = input.name.trim();
    ensure(['body.actor_id', isUuid(input.actorId), 'must be a UUID'], ['body.name', name.length >= 1 && name.length <= limits.nameMax, `must be 1 to ${limits.nameMax} characters`]);
    const caller = await requireCaller(this.d.members, ctx);
    requireManager(caller.role);
    const agent = await this.d.actors.find(ctx.workspaceId!, input.actorId);
    ensure(['body.actor_id', agent?.kind === 'agent' && agent.managedByAdmins && agent.deactivatedAt === null, 'must be an active agent of this workspace managed by admins']);
    const secret = newTokenSecret('workspace');
    const token = await this.d.tokens.insert({
      id: randomUUID(),
      kind: 'workspace',
      workspaceId: ctx.workspaceId!,
      conversationId: null,
      actorId: agent!.id,
      name,
      tokenPrefix: tokenPrefixOf(secret),
      secretSha256: tokenHash(secret),
      createdByActorId: caller.actorId,
    });
    return { ...token, secret };
  }

  /** Every token of the workspace, both kinds, newest first, without secrets. */
  async listWorkspaceTokens(ctx: CallContext): Promise<Token[]> {
    requireManager((await requireCaller(this.d.members, ctx)).role);
    return this.d.tokens.list(ctx.workspaceId!);
  }

  /** Revokes a token of the workspace, of either kind; revoking it again changes nothing. */
  async revokeToken(ctx: CallContext, tokenId: string): Promise<void> {
    requireManager((await requireCaller(this.d.members, ctx)).role);
    if (!(await this.d.tokens.revoke(ctx.workspaceId!, tokenId))) throw notFound('No such token.');
  }
}
