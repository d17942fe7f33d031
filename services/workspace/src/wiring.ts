import { type Knex, transactor } from '@wms/kit/db';
import { connectPeer } from '@wms/kit/grpc-client';
import { redisCheck } from '@wms/kit/health';
import { createRedis, type Redis, redisReady, redisTarget } from '@wms/kit/redis';
import { ThrottleStore } from '@wms/kit/throttle';
import type { ProcessBase, StartedServer } from '@wms/kit/service';
import { createStorage, type ObjectStorage, storageConfigFrom } from '@wms/kit/storage';
import { ActorService } from './actor.service.ts';
import { type AvatarResizer, AvatarService } from './avatar.service.ts';
import type { WorkspaceConfig } from './config.ts';
import { InvitationService } from './invitation.service.ts';
import { MemberService } from './member.service.ts';
import { MembershipChanges } from './membership-changes.ts';
import { openWorkspaceProducers } from './queues.ts';
import { type WorkspaceServices, workspaceHandlers } from './rpc.ts';
import { ActorStore } from './store/actor.store.ts';
import { AvatarStore } from './store/avatar.store.ts';
import { InvitationStore } from './store/invitation.store.ts';
import { MemberStore } from './store/member.store.ts';
import { MembershipCache } from './store/membership-cache.ts';
import { OutboxStore } from './store/outbox.store.ts';
import { TokenCache } from './store/token-cache.ts';
import { TokenStore } from './store/token.store.ts';
import { WorkspaceStore } from './store/workspace.store.ts';
import { Conversations, type MessagingClient } from './adapters/conversations.ts';
import { type IdentityClient, UserDirectory } from './adapters/user-directory.ts';
import { TokenService } from './token.service.ts';
import { type WorkspacePurges, WorkspaceService } from './workspace.service.ts';

export interface WorkspaceStores {
  workspaces: WorkspaceStore;
  members: MemberStore;
  actors: ActorStore;
  avatars: AvatarStore;
  outbox: OutboxStore;
  tokens: TokenStore;
  invitations: InvitationStore;
}

export type { WorkspaceServices } from './rpc.ts';

/** The stores over one pool, for the server and the worker role (tests build them here too). */
export function buildWorkspaceStores(db: Knex): WorkspaceStores {
  return {
    workspaces: new WorkspaceStore(db),
    members: new MemberStore(db),
    actors: new ActorStore(db),
    avatars: new AvatarStore(db),
    outbox: new OutboxStore(db),
    tokens: new TokenStore(db),
    invitations: new InvitationStore(db),
  };
}

/** The services over their stores and connections (tests build them here too). */
export function buildWorkspaceServices(c: {
  db: Knex;
  redis: Redis;
  storage: ObjectStorage;
  identity: IdentityClient;
  messaging: MessagingClient;
  resizer: AvatarResizer;
  purges: WorkspacePurges;
  /** Invitation mails a workspace may send in a sliding hour. */
  invitationMailsPerHour: number;
  /** The services' clock; tests move it. */
  now?: () => Date;
}): WorkspaceServices {
  const stores = buildWorkspaceStores(c.db);
  const transact = transactor(c.db);
  const cache = new MembershipCache(c.redis);
  const changes = new MembershipChanges(transact, cache);
  const users = new UserDirectory(c.identity);
  const tokenCache = new TokenCache(c.redis, transact);
  const now = c.now ?? (() => new Date());
  const admission = {
    members: stores.members,
    actors: stores.actors,
    outbox: stores.outbox,
    invitations: stores.invitations,
  };
  return {
    workspaces: new WorkspaceService({ transact, ...stores, changes, users, purges: c.purges, tokenCache }),
    members: new MemberService({ ...admission, cache, changes, users, now }),
    actors: new ActorService({ transact, ...stores, tokenCache }),
    avatars: new AvatarService({ transact, ...stores, storage: c.storage, resizer: c.resizer }),
    tokens: new TokenService({ ...stores, tokenCache, conversations: new Conversations(c.messaging) }),
    invitations: new InvitationService({
      ...admission,
      workspaces: stores.workspaces,
      changes,
      users,
      mailLimit: { store: new ThrottleStore(c.redis, 60 * 60 * 1000), perHour: c.invitationMailsPerHour },
      now,
    }),
  };
}

/** The server role: the service's RPCs, with the membership cache and the queues' producers on Redis. */
export async function startWorkspaceServer(
  config: WorkspaceConfig,
  { db, log }: ProcessBase,
): Promise<StartedServer<'workspace'>> {
  const redis = createRedis(redisTarget(config), config.REDIS_PREFIX, log);
  await redisReady(redis);
  const producers = await openWorkspaceProducers({ redis: redisTarget(config), prefix: config.REDIS_PREFIX, log });
  const identity = connectPeer('identity', config.IDENTITY_GRPC_URL);
  const messaging = connectPeer('messaging', config.MESSAGING_GRPC_URL);
  const services = buildWorkspaceServices({
    db,
    redis,
    storage: createStorage(storageConfigFrom(config)),
    identity,
    messaging,
    resizer: producers.resizer,
    purges: producers.purges,
    invitationMailsPerHour: config.INVITATION_RATE_LIMIT_PER_HOUR,
  });
  return {
    handlers: workspaceHandlers(services),
    checks: [redisCheck([redis, producers.connection])],
    stop: [
      ['queues', () => producers.close()],
      ['peers', async () => [identity, messaging].forEach((c) => c.close())],
      ['redis', () => redis.quit()],
    ],
  };
}
