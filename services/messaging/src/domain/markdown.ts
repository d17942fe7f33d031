import MarkdownIt from 'markdown-it';
import type StateInline from 'markdown-it/lib/rules_inline/state_inline.mjs';
import Token from 'markdown-it/lib/token.mjs';

// A message's body as clients write it, CommonMark (contract §13), read by markdown-it into the flat nodes of
// `children`: text runs with their style, links, mentions, code blocks and quotes, in text order. Joining the nodes'
// texts gives the message as a reader sees it. Raw HTML is text; only http, https and mailto URLs become links.

export interface TextStyle {
  bold: boolean;
  italic: boolean;
  strike: boolean;
  code: boolean;
}

export type RichNode =
  | { type: 'text'; text: string; style: TextStyle }
  | { type: 'link'; text: string; url: string; style: TextStyle }
  | { type: 'mention'; text: string; actor_id: string }
  | { type: 'code_block'; text: string; language: string | null }
  | { type: 'quote'; text: string; style: TextStyle };

/** A body read into tokens, with the ids its `<@actor_id>` mentions name, in order of first appearance. */
export interface ParsedBody {
  tokens: Token[];
  mentionIds: string[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ALLOWED_URL = /^(https?|mailto):/i;
const MENTION_LENGTH = '<@'.length + 36 + '>'.length;

/** `<@actor_id>` (a UUID in any case) as a `mention` token, wherever inline markup may be (not in code). */
function mentionRule(state: StateInline, silent: boolean): boolean {
  const { src, pos } = state;
  if (src.charCodeAt(pos) !== 0x3c || src.charCodeAt(pos + 1) !== 0x40 || src.charCodeAt(pos + 38) !== 0x3e)
    return false;
  const id = src.slice(pos + 2, pos + 38);
  if (!UUID.test(id)) return false;
  if (!silent) {
    const token = state.push('mention', '', 0);
    token.content = id.toLowerCase();
    token.markup = src.slice(pos, pos + MENTION_LENGTH);
  }
  state.pos += MENTION_LENGTH;
  return true;
}

/** Blocks nested deeper than this (quotes in quotes, lists in lists) make the whole body plain text. */
const MAX_NESTING = 20;
/**
 * How far a link's text and its URL may reach. markdown-it looks for the `]` of every `[`, and the end of every
 * `](`'s URL, to the end of the paragraph (40,000 unmatched `[` took a second); bounded, each costs at most this
 * much. A longer link text or URL stays text.
 */
const MAX_LINK_TEXT = 200;
const MAX_LINK_URL = 2048;

/**
 * A paragraph with more markup than `MAX_INLINE_MARKUP`, or a body whose other paragraphs hold more than `MAX_MARKUP`
 * together, is read as plain text (code stays code): markdown-it's inline rules cost more than linear time on long
 * runs of markup characters (13,000 `**a` took 300 ms), and each URL found in text costs linkify some 10 µs; no message
 * that means its markup has this much.
 */
const MAX_INLINE_MARKUP = 500;
const MAX_MARKUP = 2_000;
const INLINE_MARKUP = /[*_~`[<]|:\/\/|mailto:/gi;
/**
 * A body of more lines than this is read as plain text: markdown-it spends about a microsecond per character on a body
 * of short blocks (40,000 characters of one-letter paragraphs took 40 ms), which this bounds to a few milliseconds.
 */
const MAX_LINES = 1_000;

const md = new MarkdownIt('default', { html: false, linkify: true, typographer: false });
(md.options as { maxNesting: number }).maxNesting = MAX_NESTING;
md.disable(['table', 'image']);
md.linkify.set({ fuzzyLink: false, fuzzyEmail: false, fuzzyIP: false });
md.validateLink = (url: string) => ALLOWED_URL.test(url.trim());
md.inline.ruler.before('autolink', 'mention', mentionRule);
const parseLinkDestination = md.helpers.parseLinkDestination;
md.helpers.parseLinkDestination = (str, start, max) =>
  parseLinkDestination(str, start, Math.min(max, start + MAX_LINK_URL));
md.core.ruler.before('inline', 'plain_inline', (state) => {
  const paragraphs = state.tokens.filter((t) => t.type === 'inline');
  let left = MAX_MARKUP;
  const busy = paragraphs.filter((t) => {
    const n = markupIn(t.content, MAX_INLINE_MARKUP + 1);
    if (n <= MAX_INLINE_MARKUP) left -= n;
    return n > MAX_INLINE_MARKUP;
  });
  for (const token of left < 0 ? paragraphs : busy) {
    const run = new Token('text', '', 0);
    run.content = token.content;
    token.children = [run];
    token.type = 'plain_inline';
  }
});
const parseLinkLabel = md.helpers.parseLinkLabel;
md.helpers.parseLinkLabel = (state, start, disableNested) => {
  const posMax = state.posMax;
  // `[`, the text, `]`.
  state.posMax = Math.min(posMax, start + MAX_LINK_TEXT + 2);
  try {
    return parseLinkLabel(state, start, disableNested);
  } finally {
    state.posMax = posMax;
  }
};

/** Reads a body; its mentions are resolved (against the workspace's actors) before it becomes nodes. */
export function parseBody(bodyText: string): ParsedBody {
  if (lineCount(bodyText) > MAX_LINES) return { tokens: plainText(bodyText), mentionIds: [] };
  const tokens = bodyText === '' ? [] : md.parse(bodyText, {});
  for (const t of tokens) if (t.type === 'plain_inline') t.type = 'inline';
  // markdown-it drops what is nested deeper than its limit: the body is then read as it was written.
  if (tokens.some((t) => t.level >= MAX_NESTING - 1)) return { tokens: plainText(bodyText), mentionIds: [] };
  const ids = new Set<string>();
  for (const block of tokens) for (const t of block.children ?? []) if (t.type === 'mention') ids.add(t.content);
  return { tokens, mentionIds: [...ids] };
}

/** How many markup characters `text` holds, counted up to `atMost`. */
function markupIn(text: string, atMost: number): number {
  const markup = new RegExp(INLINE_MARKUP);
  let n = 0;
  while (n < atMost && markup.exec(text)) n++;
  return n;
}

/** Lines as CommonMark counts them (ended by `\n`, `\r\n` or `\r`), counted up to one past MAX_LINES. */
function lineCount(text: string): number {
  let n = 1;
  for (let i = 0; i < text.length && n <= MAX_LINES; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a || (c === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) n++;
  }
  return n;
}

/** The tokens of a paragraph holding `text` as it is. */
function plainText(text: string): Token[] {
  const inline = new Token('inline', '', 0);
  const run = new Token('text', '', 0);
  run.content = text;
  inline.children = [run];
  return [inline];
}

/** The body's nodes; `names` holds the display name of each mentioned id that is an actor of the workspace. */
export function childrenOf(parsed: ParsedBody, names: ReadonlyMap<string, string>): RichNode[] {
  const out = new NodeList();
  const blocks = new BlockWalker(out);
  for (const token of parsed.tokens) {
    if (token.type === 'inline' || token.type === 'plain_inline') {
      blocks.beginLeaf();
      inlineNodes(token.children ?? [], out, names);
    } else blocks.step(token);
  }
  return out.nodes;
}

/** The nodes as they are made: adjacent runs of one kind, style (and link) are one node. */
class NodeList {
  readonly nodes: RichNode[] = [];
  quoteDepth = 0;

  /** Text of the current block: a link's label inside a link, else a quote's run inside a quote (`quoted`), else text. */
  text(text: string, style: TextStyle, url?: string, quoted = this.quoteDepth > 0): void {
    if (text === '') return;
    const last = this.nodes.at(-1);
    const node: RichNode =
      url !== undefined
        ? { type: 'link', text, url, style }
        : quoted
          ? { type: 'quote', text, style }
          : { type: 'text', text, style };
    if (last && last.type === node.type && 'style' in last && sameStyle(last.style, style)) {
      if (last.type !== 'link' || (node.type === 'link' && last.url === node.url)) {
        last.text += text;
        return;
      }
    }
    this.nodes.push(node);
  }

  push(node: RichNode): void {
    this.nodes.push(node);
  }
}

const PLAIN: TextStyle = { bold: false, italic: false, strike: false, code: false };
const sameStyle = (a: TextStyle, b: TextStyle) =>
  a.bold === b.bold && a.italic === b.italic && a.strike === b.strike && a.code === b.code;

/** Where blocks start and end: the separators between them and the markers of list items. */
class BlockWalker {
  private separator = '';
  private marker = '';
  private readonly lists: Array<{ ordered: boolean; next: number; items: number }> = [];

  constructor(private readonly out: NodeList) {}

  /** A block with text begins: its separator from the block before, and its list item's marker. */
  beginLeaf(): void {
    // Between blocks, also in a quote: text of its own.
    if (this.out.nodes.length > 0) this.out.text(this.separator, PLAIN, undefined, false);
    this.out.text(this.marker, PLAIN);
    this.separator = '';
    this.marker = '';
  }

  step(token: Token): void {
    switch (token.type) {
      case 'paragraph_close':
      case 'heading_close':
        this.separator = '\n\n';
        return;
      case 'bullet_list_open':
      case 'ordered_list_open':
        // A list inside an item goes on the item's next line.
        if (this.lists.length > 0) this.separator = '\n';
        this.lists.push({
          ordered: token.type === 'ordered_list_open',
          next: Number(token.attrGet('start') ?? 1),
          items: 0,
        });
        return;
      case 'list_item_open':
        this.listItem(token);
        return;
      case 'list_item_close':
        // An empty item is its marker alone.
        if (this.marker !== '') {
          const marker = this.marker.trimEnd();
          this.marker = '';
          this.beginLeaf();
          this.out.text(marker, PLAIN);
        }
        return;
      case 'bullet_list_close':
      case 'ordered_list_close':
        this.lists.pop();
        this.separator = this.lists.length > 0 ? '\n' : '\n\n';
        return;
      case 'blockquote_open':
        this.out.quoteDepth++;
        return;
      case 'blockquote_close':
        this.out.quoteDepth--;
        this.separator = '\n\n';
        return;
      case 'fence':
      case 'code_block':
        this.beginLeaf();
        this.out.push({ type: 'code_block', text: token.content.replace(/\n$/, ''), language: fenceLanguage(token) });
        this.separator = '\n\n';
        return;
      case 'hr':
        this.beginLeaf();
        this.out.text('---', PLAIN);
        this.separator = '\n\n';
        return;
    }
  }

  private listItem(token: Token): void {
    const list = this.lists.at(-1)!;
    if (list.items++ > 0) this.separator = '\n';
    const indent = '  '.repeat(this.lists.length - 1);
    this.marker = `${indent}${list.ordered ? `${token.info || list.next}. ` : '• '}`;
    list.next = (Number(token.info) || list.next) + 1;
  }
}

const fenceLanguage = (token: Token): string | null =>
  token.type === 'fence' ? (token.info.trim().split(/\s+/)[0] ?? '') || null : null;

/** The runs of one block's inline tokens, each with the style and link it is inside. */
function inlineNodes(tokens: Token[], out: NodeList, names: ReadonlyMap<string, string>): void {
  const depth = { bold: 0, italic: 0, strike: 0 };
  let url: string | undefined;
  const style = (code = false): TextStyle => ({
    bold: depth.bold > 0,
    italic: depth.italic > 0,
    strike: depth.strike > 0,
    code,
  });
  for (const t of tokens) {
    switch (t.type) {
      case 'text':
        out.text(t.content, style(), url);
        break;
      case 'code_inline':
        out.text(t.content, style(true), url);
        break;
      case 'softbreak':
      case 'hardbreak':
        out.text('\n', style(), url);
        break;
      case 'strong_open':
      case 'strong_close':
        depth.bold += t.nesting;
        break;
      case 'em_open':
      case 'em_close':
        depth.italic += t.nesting;
        break;
      case 's_open':
      case 's_close':
        depth.strike += t.nesting;
        break;
      case 'link_open': {
        // markdown-it checks only a URL that is there: `[x]()` is a link to nothing, and its text stays text.
        const href = t.attrGet('href');
        url = href && ALLOWED_URL.test(href) ? href : undefined;
        break;
      }
      case 'link_close':
        url = undefined;
        break;
      case 'mention': {
        const name = names.get(t.content);
        if (name === undefined) out.text(t.markup, style(), url);
        else out.push({ type: 'mention', text: `@${name}`, actor_id: t.content });
        break;
      }
      default:
        // Nothing else is enabled; whatever a future markdown-it adds is read as its source text.
        out.text(t.content, style(), url);
    }
  }
}

/** A body's nodes, its `<@actor_id>` resolved against `names` (none: every mention stays text). */
export const readBody = (bodyText: string, names: ReadonlyMap<string, string> = new Map()): RichNode[] =>
  childrenOf(parseBody(bodyText), names);
