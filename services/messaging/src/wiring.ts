import { type Knex, transactor } from '@wms/kit/db';
import { connectPeer } from '@wms/kit/grpc-client';
import type { Logger } from '@wms/kit/logger';
import type { ProcessBase, StartedServer } from '@wms/kit/service';
import { type AssetClient, Attachments } from './adapters/attachments.ts';
import { ChannelService } from './channel.service.ts';
import type { MessagingConfig } from './config.ts';
import { MessageActionsService } from './message-actions.service.ts';
import { MessageService } from './message.service.ts';
import { ReadStateService } from './read-state.service.ts';
import { messagingHandlers, type MessagingServices } from './rpc.ts';
import { ChannelStore } from './store/channel.store.ts';
import { MessageStore } from './store/message.store.ts';
import { OutboxStore } from './store/outbox.store.ts';
import { PurgeStore } from './store/purge.store.ts';
import { ReactionStore } from './store/reaction.store.ts';
import { ReadStateStore } from './store/read-state.store.ts';
import { SavedStore } from './store/saved.store.ts';
import { SearchService } from './search.service.ts';
import { SearchStore } from './store/search.store.ts';
import { type WorkspaceClient, WorkspaceMembers } from './adapters/workspace-members.ts';

/** The messaging services over one pool, each given only what it uses (tests build them here too). */
export function buildMessagingServices(d: {
  db: Knex;
  workspace: WorkspaceClient;
  assets: AssetClient;
  log: Logger;
  searchConfig?: string;
}): MessagingServices {
  const transact = transactor(d.db);
  const attachments = new Attachments(d.assets);
  const channels = new ChannelStore(d.db);
  const messages = new MessageStore(d.db, d.searchConfig);
  const readStates = new ReadStateStore(d.db);
  const outbox = new OutboxStore(d.db);
  const members = new WorkspaceMembers(d.workspace);
  return {
    channels: new ChannelService({ transact, channels, outbox, purge: new PurgeStore(d.db), members }),
    messages: new MessageService({ transact, log: d.log, attachments, messages, outbox, members }),
    actions: new MessageActionsService({
      transact,
      attachments,
      messages,
      reactions: new ReactionStore(d.db),
      saved: new SavedStore(d.db),
      outbox,
    }),
    readStates: new ReadStateService({ transact, attachments, channels, messages, readStates, outbox }),
    search: new SearchService({ attachments, search: new SearchStore(d.db, d.searchConfig) }),
  };
}

/** SEARCH_TEXT_CONFIG must name a text search configuration of this Postgres: else the process does not start. */
export async function requireSearchConfig(db: Knex, name: string): Promise<void> {
  try {
    await db.raw('SELECT ?::regconfig', [name]);
  } catch (err) {
    // 42704 undefined_object: no configuration of that name.
    if ((err as { code?: string }).code !== '42704') throw err;
    throw new Error(
      `SEARCH_TEXT_CONFIG=${name} is not a text search configuration of this Postgres (psql's \\dF lists them; the default is english)`,
      { cause: err },
    );
  }
}

/** The server role: the service's RPCs; it holds no Redis client. */
export async function startMessagingServer(
  config: MessagingConfig,
  { db, log }: ProcessBase,
): Promise<StartedServer<'messaging'>> {
  await requireSearchConfig(db, config.SEARCH_TEXT_CONFIG);
  const workspace = connectPeer('workspace', config.WORKSPACE_GRPC_URL);
  const assets = connectPeer('asset', config.ASSET_GRPC_URL);
  return {
    handlers: messagingHandlers(
      buildMessagingServices({ db, workspace, assets, log, searchConfig: config.SEARCH_TEXT_CONFIG }),
    ),
    stop: [['clients', async () => [workspace, assets].forEach((c) => c.close())]],
  };
}
