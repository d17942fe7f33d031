import type { Asset__Output } from '@wms/protos/gen/wms/common/v1/Asset';
import type { Message__Output } from '@wms/protos/gen/wms/messaging/v1/Message';
import { publicMessagePage, publicSearchPage, publicThreadPage } from '@wms/protos/public';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  toActor,
  toActorPresence,
  toAuth,
  toDownload,
  toEventPage,
  toMessagePage,
  toSearchPage,
  toRealtimeAuthorization,
  toRealtimeConfiguration,
  toRealtimeUserAuthorization,
  toVerifiedEmail,
  toWorkspaceUser,
} from './mappers.ts';
import * as s from './schemas.ts';

const ex = s.exampleIds;

const asset: Asset__Output = {
  id: ex.asset,
  created_at: ex.at,
  updated_at: ex.later,
  conversation_id: ex.channel,
  message_id: ex.message,
  name: 'diagram.png',
  size_bytes: 48213,
  content_type: 'image/png',
  status: 'ready',
  preview_kind: 'image',
};

const message: Message__Output = {
  id: ex.message,
  workspace_id: ex.workspace,
  conversation_id: ex.channel,
  author_actor_id: ex.actor,
  body_text: 'hello',
  mentioned_actor_ids: [ex.actor],
  reply_count: 1,
  reply_actor_ids: [ex.actor],
  last_reply_at: ex.later,
  reactions: [{ emoji: '👍', actor_ids: [ex.actor] }],
  reactions_version: 1,
  created_at: ex.at,
  updated_at: ex.later,
  assets: [asset],
  children: [
    {
      type: 'text',
      text: 'hello',
      style: { bold: false, italic: false, strike: false, code: false },
      url: undefined,
      actor_id: undefined,
      language: undefined,
    },
  ],
};

const user = {
  id: ex.user,
  email: 'ada@example.org',
  name: 'Ada',
  email_verified_at: ex.at,
  created_at: ex.at,
  updated_at: ex.at,
};

/** The body is exactly what its schema describes: it parses, and parsing drops nothing. */
const expectBody = (schema: z.ZodType, body: unknown) => expect(schema.parse(body)).toEqual(body);

describe('mappers', () => {
  it('map proto answers to bodies their response schemas accept as they are', () => {
    expectBody(
      s.MessagePage,
      publicMessagePage({
        items: [message, { ...message, children: [], body_text: '', assets: [], last_reply_at: undefined }],
        next_cursor: ex.message,
      }),
    );
    expectBody(
      s.ThreadPage,
      publicThreadPage({
        items: [
          {
            id: ex.message,
            conversation_id: ex.channel,
            root_message: message,
            reply_count: 1,
            following: true,
            unread_count: 0,
            mention_count: 0,
          },
        ],
      }),
    );
    expectBody(s.AuthResponse, toAuth({ access_token: 't', user, expires_at: ex.later }));
    expectBody(s.EmailVerified, toVerifiedEmail({ user }));
    expectBody(
      s.AssetDownload,
      toDownload({
        url: 'http://localhost:8080/storage/x',
        expires_at: ex.later,
        name: 'a.png',
        content_type: 'image/png',
        size_bytes: 3,
      }),
    );
    expectBody(
      s.WorkspaceUser,
      toWorkspaceUser({
        id: ex.workspaceUser,
        workspace_id: ex.workspace,
        user_id: ex.user,
        actor_id: ex.actor,
        role: 'owner',
        created_at: ex.at,
        updated_at: ex.at,
        user: { id: ex.user, email: 'ada@example.org', name: 'Ada' },
      }),
    );
    expectBody(
      s.WorkspaceActor,
      toActor({
        id: ex.actor,
        workspace_id: ex.workspace,
        kind: 'agent',
        display_name: 'Bot',
        managed_by_admins: true,
        created_at: ex.at,
        updated_at: ex.at,
      }),
    );
    expectBody(
      s.RealtimeConfiguration,
      toRealtimeConfiguration(
        {
          app_key: 'wms-key',
          cluster: 'eu',
          ws_host: 'ws-eu.pusher.com',
          ws_port: 80,
          wss_port: 443,
          ws_path: '',
          force_tls: true,
        },
        { workspaceId: ex.workspace, actorId: ex.actor },
      ),
    );
    expectBody(s.RealtimeAuthorization, toRealtimeAuthorization({ auth: 'wms-key:abc' }));
    expectBody(s.RealtimeAuthorization, toRealtimeAuthorization({ auth: 'wms-key:abc', channel_data: '{}' }));
    expectBody(s.RealtimeUserAuthorization, toRealtimeUserAuthorization({ auth: 'wms-key:abc', user_data: '{}' }));
    expectBody(s.ActorPresenceList, [toActorPresence({ actor_id: ex.actor, status: 'online', since: ex.at })]);
    expectBody(
      s.EventPage,
      toEventPage({
        items: [
          {
            cursor: '7',
            channel: `private-actor-${ex.actor}`,
            name: 'saved.updated',
            data: '{"event_id":"e","saved":{}}',
            created_at: ex.at,
          },
        ],
        next_cursor: '7',
      }),
    );
  });

  it('passes the pages messaging rendered on as their bytes, which parse as their schemas say', () => {
    const bytes = Buffer.from(
      JSON.stringify(publicSearchPage({ items: [{ message, highlights: [{ start: 0, end: 3 }] }], next_cursor: '7' })),
    );
    const answer = toSearchPage({ json: bytes });
    expect(answer.bytes).toBe(bytes);
    expectBody(s.SearchPage, JSON.parse(bytes.toString()));
    expect(toMessagePage({ json: bytes }).bytes).toBe(bytes);
  });

  it("passes a message's children through as the messaging service computed them, each with its type's fields", () => {
    const none = { url: undefined, actor_id: undefined, language: undefined };
    const bold = { bold: true, italic: false, strike: false, code: false };
    const [page] = publicMessagePage({
      items: [
        {
          ...message,
          body_text: 'shown',
          children: [
            { ...none, type: 'text', text: 'as sent', style: null },
            { ...none, type: 'link', text: 'docs', url: 'https://a.example', style: bold },
            { ...none, type: 'mention', text: '@Ada', actor_id: ex.actor, style: null },
            { ...none, type: 'code_block', text: 'x', style: null },
            { ...none, type: 'code_block', text: 'y', language: 'ts', style: null },
            { ...none, type: 'quote', text: 'q', style: bold },
          ],
        },
      ],
    }).items;
    const plain = { bold: false, italic: false, strike: false, code: false };
    expect(page!.children).toEqual([
      { type: 'text', text: 'as sent', style: plain },
      { type: 'link', text: 'docs', url: 'https://a.example', style: bold },
      { type: 'mention', text: '@Ada', actor_id: ex.actor },
      { type: 'code_block', text: 'x', language: null },
      { type: 'code_block', text: 'y', language: 'ts' },
      { type: 'quote', text: 'q', style: bold },
    ]);
    for (const child of page!.children) expectBody(s.MessageChild, child);
  });
});
