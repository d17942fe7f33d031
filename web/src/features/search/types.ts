import type { Message } from '../../lib/types.ts';
import type { Highlight } from './highlight.tsx';

/** One hit of `GET /search/messages`: the message and the spans of its `body_text` the query matched. */
export interface SearchHit {
  message: Message;
  highlights: Highlight[];
}

export type SearchSort = 'newest' | 'relevance';
