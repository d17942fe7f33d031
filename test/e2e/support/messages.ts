import { expect } from 'vitest';
import type { Account } from './accounts.ts';
import type { ApiResponse } from './http.ts';
import { inWorkspace } from './workspaces.ts';

export interface MessageBody {
  id: string;
  created_at: string;
  updated_at: string;
  children: Array<{ type: string; text: string; style?: Record<string, boolean> }>;
  loading_expires_at: string | null;
  saved_at: string | null;
  reply_count: number;
  reply_actor_ids: string[];
  last_reply_at: string | null;
  reactions: Array<{ emoji: string; actor_ids: string[] }>;
  reactions_version: number;
  assets: unknown[];
  workspace_id: string;
  conversation_id: string;
  author_actor_id: string;
  body_text: string;
  mentioned_actor_ids: string[];
  parent_message_id: string | null;
  edited_at: string | null;
  deleted_at: string | null;
}

/** An attachment (contract §6). */
export interface AssetBody {
  id: string;
  conversation_id: string;
  message_id: string | null;
  name: string;
  size_bytes: number;
  content_type: string;
  status: string;
  preview_kind: string | null;
  created_at: string;
  updated_at: string;
}

export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

export interface ReadStateBody {
  conversation_id: string;
  thread_root_id: string | null;
  last_read_message_id: string | null;
  last_read_at: string | null;
  unread_count: number;
  mention_count: number;
  following: boolean | null;
  updated_at: string | null;
}

export interface ThreadBody {
  id: string;
  conversation_id: string;
  root_message: MessageBody;
  reply_count: number;
  last_reply_at: string | null;
  following: boolean;
  last_read_message_id: string | null;
  unread_count: number;
  mention_count: number;
}

/** Every field of the Message schema (contract §4: nothing is omitted). */
export const MESSAGE_FIELDS = [
  'assets',
  'author_actor_id',
  'body_text',
  'children',
  'conversation_id',
  'created_at',
  'deleted_at',
  'edited_at',
  'id',
  'last_reply_at',
  'loading_expires_at',
  'mentioned_actor_ids',
  'parent_message_id',
  'reactions',
  'reactions_version',
  'reply_actor_ids',
  'reply_count',
  'saved_at',
  'updated_at',
  'workspace_id',
];

const unique = (tag: string) => `${tag}-${Math.random().toString(36).slice(2, 10)}`;

export async function createChannel(account: Account, workspaceId: string, tag = 'chan'): Promise<string> {
  const res = await inWorkspace(account, workspaceId, 'POST', '/channels', { body: { name: unique(tag) } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return (res.body as { id: string }).id;
}

/** POST a message and expect 201. */
export async function post(
  account: Account,
  workspaceId: string,
  conversationId: string,
  body: Record<string, unknown>,
): Promise<MessageBody> {
  const res = await inWorkspace(account, workspaceId, 'POST', `/conversations/${conversationId}/messages`, { body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as MessageBody;
}

export const postText = (
  account: Account,
  workspaceId: string,
  conversationId: string,
  text: string,
  extra: Record<string, unknown> = {},
) => post(account, workspaceId, conversationId, { body_text: text, ...extra });

/** Every page of a list, following next_cursor. */
export async function walk<T>(fetchPage: (cursor: string | null) => Promise<ApiResponse>): Promise<T[][]> {
  const pages: T[][] = [];
  let cursor: string | null = null;
  do {
    const res = await fetchPage(cursor);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const page = res.body as Page<T>;
    pages.push(page.items);
    cursor = page.next_cursor;
  } while (cursor !== null && pages.length < 1000);
  return pages;
}
