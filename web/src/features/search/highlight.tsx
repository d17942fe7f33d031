import type { ReactNode } from 'react';

/** A span of matched words in a text, UTF-16 offsets, `end` exclusive (docs/api.md "Search"). */
export interface Highlight {
  start: number;
  end: number;
}

/**
 * The text with each highlighted span in a `<mark>`, as React nodes (text stays text whatever it holds). Spans out of
 * range, empty, or overlapping an earlier one are clamped or skipped rather than trusted.
 */
export function highlighted(text: string, highlights: Highlight[]): ReactNode[] {
  const nodes: ReactNode[] = [];
  let at = 0;
  for (const h of [...highlights].sort((a, b) => a.start - b.start)) {
    const start = Math.max(h.start, at);
    const end = Math.min(h.end, text.length);
    if (end <= start) continue;
    if (start > at) nodes.push(text.slice(at, start));
    nodes.push(<mark key={start}>{text.slice(start, end)}</mark>);
    at = end;
  }
  if (at < text.length) nodes.push(text.slice(at));
  return nodes;
}
