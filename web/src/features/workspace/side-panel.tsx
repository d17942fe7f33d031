import { useEffect, useRef, useState } from 'react';
import { SavedPanel } from '../saved/saved-panel.tsx';
import { SearchPanel } from '../search/search-panel.tsx';
import { ThreadPanel } from '../threads/thread-panel.tsx';
import { type Panel, useWorkspace } from './context.ts';

const TITLES: Record<Panel['kind'], string> = { thread: 'Thread', search: 'Search', saved: 'Saved messages' };

/** The side panel beside the conversation: its title, a Close button, and Escape closes it from anywhere. */
export function SidePanel({ panel }: { panel: Panel }) {
  const { closePanel } = useWorkspace();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !e.defaultPrevented) closePanel();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [closePanel]);
  // The focus moves into the panel when it opens or shows another thing (unless a control of it took it already), and
  // back to what opened it when it closes.
  const [opener] = useState(() => document.activeElement);
  const aside = useRef<HTMLElement>(null);
  useEffect(() => {
    if (!aside.current?.contains(document.activeElement)) heading.current?.focus();
  }, [panel.kind]);
  useEffect(
    () => () => {
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
    },
    [opener],
  );
  return (
    <aside ref={aside} className="side-panel" aria-label={TITLES[panel.kind]}>
      <header>
        <h2 ref={heading} tabIndex={-1}>
          {TITLES[panel.kind]}
        </h2>
        <button type="button" onClick={closePanel}>
          Close
        </button>
      </header>
      <PanelContent panel={panel} />
    </aside>
  );
}

function PanelContent({ panel }: { panel: Panel }) {
  switch (panel.kind) {
    case 'thread':
      return <ThreadPanel key={panel.messageId} conversationId={panel.conversationId} messageId={panel.messageId} />;
    case 'search':
      return <SearchPanel />;
    case 'saved':
      return <SavedPanel />;
  }
}
