import type { ReactNode } from 'react';
import type { MessageChild, TextStyle } from '../../lib/types.ts';

// A message as elements from its `children` (contract §13), never from HTML: whatever a body holds is text, and a link
// is one only for the schemes the server allows (checked again here).
const ALLOWED = /^(https?|mailto):/i;

function styled(text: string, style: TextStyle): ReactNode {
  let node: ReactNode = text;
  if (style.code) node = <code>{node}</code>;
  if (style.strike) node = <s>{node}</s>;
  if (style.italic) node = <em>{node}</em>;
  if (style.bold) node = <strong>{node}</strong>;
  return node;
}

function element(child: MessageChild, key: number): ReactNode {
  switch (child.type) {
    case 'link':
      return ALLOWED.test(child.url) ? (
        <a key={key} href={child.url} rel="noopener noreferrer nofollow" target="_blank">
          {styled(child.text, child.style)}
        </a>
      ) : (
        <span key={key}>{child.text}</span>
      );
    case 'mention':
      return (
        <span key={key} className="mention">
          {child.text}
        </span>
      );
    case 'code_block':
      return (
        <pre key={key}>
          <code>{child.text}</code>
        </pre>
      );
    case 'quote':
      return <q key={key}>{styled(child.text, child.style)}</q>;
    default:
      return <span key={key}>{styled(child.text, child.style)}</span>;
  }
}

export function MessageBody({ nodes }: { nodes: MessageChild[] }) {
  return <div className="body">{nodes.map(element)}</div>;
}
