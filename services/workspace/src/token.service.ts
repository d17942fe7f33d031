import { randomUUID } from 'node:crypto';
import type { CallContext } from '@wms/kit/context';
import { ensure, notFound } from '@wms/kit/errors';
import { isUuid } from '@wms/kit/ids';
import { newTokenSecret, type TokenKind, tokenHash, tokenPrefixOf } from '@wms/kit/tokens';
import type { Conversations } from './adapters/conversations.ts';
import type { CreatedToken, Token } from './domain/model.ts';
import { limits, requireManager } from './domain/rules.ts';
import { type CallerRole, requireCaller } from './lookups.ts';
import type { ActorStore } from './store/actor.store.ts';
import type { MemberStore } from './store/member.store.ts';
import type { TokenCache } from './store/token-cache.ts';
import type { TokenStore } from './store/token.store.ts';

export interface TokenDeps {
  members: MemberStore;
  actors: ActorStore;
  tokens: TokenStore;
  tokenCache: TokenCache;
  conversations: Conversations;
}

/** A token as created: the secret alongside, shown this once. */

const noConversation = () => notFound('No such conversation.');

/** A new token's body: its trimmed name. */
function validateNewToken(input: { actorId: string; name: string }): string {
  const name = input.name.trim();
  ensure(
    ['body.actor_id', isUuid(input.actorId), 'must be a UUID'],
    ['body.name', name.length >= 1 && name.length <= limits.nameMax, `must be 1 to ${limits.nameMax} characters`],
  );
  return name;
}

/** Integration credentials of agents (contract §11), made, listed and revoked by owners and admins. */
export class TokenService {
  constructor(private readonly d: TokenDeps) {}

  /** A workspace token for an active agent that admins manage. */
  async createWorkspaceToken(ctx: CallContext, input: { actorId: string; name: string }): Promise<CreatedToken> {
    const name = validateNewToken(input);
    const { caller, agentId } = await this.checkNewToken(ctx, input.actorId);
    return this.insert(ctx, 'workspace', null, caller, agentId, name);
  }

  /**
   * A conversation token: the caller must read the conversation; a private channel gains the agent as a member, a
   * direct conversation must have it among its participants (messaging, which owns conversations, decides both).
   */
  async createConversationToken(
    ctx: CallContext,
    conversationId: string,
    input: { actorId: string; name: string },
  ): Promise<CreatedToken> {
    const name = validateNewToken(input);
    await this.requireReadable(ctx, conversationId);
    const { caller, agentId } = await this.checkNewToken(ctx, input.actorId);
    await this.d.conversations.admitAgent(ctx, conversationId, agentId);
    return this.insert(ctx, 'conversation', conversationId.toLowerCase(), caller, agentId, name);
  }

  /** Every token of the workspace, both kinds, newest first, without secrets. */
  async listWorkspaceTokens(ctx: CallContext): Promise<Token[]> {
    requireManager((await requireCaller(this.d, ctx)).role);
    return this.d.tokens.list(ctx.workspaceId!);
  }

  /** A conversation's tokens, newest first, for owners and admins who may read it. */
  async listConversationTokens(ctx: CallContext, conversationId: string): Promise<Token[]> {
    await this.requireReadable(ctx, conversationId);
    requireManager((await requireCaller(this.d, ctx)).role);
    return this.d.tokens.list(ctx.workspaceId!, conversationId.toLowerCase());
  }

  /** Revokes a token of the workspace, of either kind, at the gateway's next request; revoking it again changes nothing. */
  async revokeToken(ctx: CallContext, tokenId: string): Promise<void> {
    requireManager((await requireCaller(this.d, ctx)).role);
    await this.d.tokenCache.ending(async (tx) => {
      const revoked = await this.d.tokens.revoke(ctx.workspaceId!, tokenId, tx);
      if (!revoked) throw notFound('No such token.');
      return { result: undefined, ended: [revoked.secretSha256] };
    });
  }

  /** For the gateway: the token whose secret has this SHA-256 when it may act now (contract §11), else undefined. */
  resolve(secretSha256: Buffer): Promise<Token | undefined> {
    return secretSha256.length === 32 ? this.d.tokens.findUsable(secretSha256) : Promise.resolve(undefined);
  }

  /** For the gateway, at most once a minute per token: the token was used now. */
  async recordUse(tokenId: string): Promise<void> {
    await this.d.tokens.touch([tokenId], new Date());
  }

  /** The caller's role, then the agent (contract §1's order: 403 before a 400 that needs a lookup). */
  private async checkNewToken(ctx: CallContext, actorId: string): Promise<{ caller: CallerRole; agentId: string }> {
    const caller = await requireCaller(this.d, ctx);
    requireManager(caller.role);
    const agent = await this.d.actors.find(ctx.workspaceId!, actorId);
    ensure([
      'body.actor_id',
      agent?.kind === 'agent' && agent.managedByAdmins && agent.deactivatedAt === null,
      'must be an active agent of this workspace managed by admins',
    ]);
    return { caller, agentId: agent!.id };
  }

  private async requireReadable(ctx: CallContext, conversationId: string): Promise<void> {
    if (!isUuid(conversationId) || !(await this.d.conversations.readable(ctx, conversationId))) throw noConversation();
  }

  private async insert(
    ctx: CallContext,
    kind: TokenKind,
    conversationId: string | null,
    caller: CallerRole,
    actorId: string,
    name: string,
  ): Promise<CreatedToken> {
    const secret = newTokenSecret(kind);
    const token = await this.d.tokens.insert({
      id: randomUUID(),
      kind,
      workspaceId: ctx.workspaceId!,
      conversationId,
      actorId,
      name,
      tokenPrefix: tokenPrefixOf(secret),
      secretSha256: tokenHash(secret),
      createdByActorId: caller.actorId,
    });
    return { ...token, secret };
  }
}
