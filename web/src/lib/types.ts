// The API's resources as the app reads them (the gateway's OpenAPI document at /openapi.json has them whole).

export interface Workspace {
  id: string;
  name: string;
  slug: string;
}

export interface Conversation {
  id: string;
  kind: 'public' | 'private' | 'direct';
  name: string | null;
  topic?: string | null;
  /** Direct conversations: every participant, the caller included; channels: empty. */
  participant_actor_ids: string[];
  /** GET /channels: whether the caller is a member. */
  is_member?: boolean;
}

export interface ReadState {
  unread_count: number;
  mention_count: number;
}

export interface ConversationItem {
  conversation: Conversation;
  read_state: ReadState;
}

export interface TextStyle {
  bold: boolean;
  italic: boolean;
  strike: boolean;
  code: boolean;
}

export type MessageChild =
  | { type: 'text'; text: string; style: TextStyle }
  | { type: 'link'; text: string; url: string; style: TextStyle }
  | { type: 'mention'; text: string; actor_id: string }
  | { type: 'code_block'; text: string; language: string | null }
  | { type: 'quote'; text: string; style: TextStyle };

export interface Reaction {
  emoji: string;
  actor_ids: string[];
}

export interface Message {
  id: string;
  conversation_id: string;
  author_actor_id: string;
  body_text: string;
  children: MessageChild[];
  reactions: Reaction[];
  reactions_version: number;
  created_at: string;
  edited_at: string | null;
  deleted_at: string | null;
  /** The caller's own bookmark (null in events: a bookmark is the caller's alone). */
  saved_at: string | null;
  /** Set on replies: the thread root. */
  parent_message_id: string | null;
  reply_count: number;
  reply_actor_ids: string[];
  last_reply_at: string | null;
  assets: Asset[];
}

/** An uploaded (or reserved) file, as the asset routes answer it and as a message carries it in `assets`. */
export interface Asset {
  id: string;
  conversation_id: string;
  message_id: string | null;
  name: string;
  size_bytes: number;
  content_type: string;
  /** `pending` until its content is uploaded; a ready asset never changes. */
  status: 'pending' | 'ready';
  preview_kind: 'image' | null;
}

/** A message's reactions as `reactions.updated` and the reaction routes answer them. */
export interface MessageReactions {
  message_id: string;
  reactions: Reaction[];
  reactions_version: number;
}

export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}
