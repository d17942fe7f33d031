import {
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
  type SyntheticEvent,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { useActors } from '../workspace/directory.tsx';
import { useWorkspace } from '../workspace/context.ts';

/** `@` and the word typed after it, just before the caret (a mention being written). */
const TYPING = /(^|\s)@([^\s@<>]{0,40})$/;

export interface MentionPicker {
  /** Handles the picker's keys (arrows, Enter, Tab, Escape); answers whether it took the key. */
  onKeyDown: (event: KeyboardEvent<HTMLTextAreaElement>) => boolean;
  /** Follows the caret (the textarea's `onSelect`). */
  onSelect: (event: SyntheticEvent<HTMLTextAreaElement>) => void;
  /** The textarea's ARIA attributes while the picker is open. */
  inputProps: Record<string, string | undefined>;
  list: ReactNode;
}

/**
 * The composer's `@` picker: typing `@` and part of a name lists the workspace's active actors that match; Enter, Tab
 * or a click puts `<@actor_id>` in place of what was typed (the mention syntax, docs/api.md "Formatting").
 */
export function useMentionPicker(
  text: string,
  setText: (text: string) => void,
  textarea: RefObject<HTMLTextAreaElement | null>,
): MentionPicker {
  const { me } = useWorkspace();
  const actors = useActors();
  const id = useId();
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState<string | null>(null);
  // Where the caret is, told by the textarea's select events (typing, arrows, clicks): rendering does not read the DOM.
  const [caretAt, setCaretAt] = useState<number | null>(null);
  const caret = Math.min(caretAt ?? text.length, text.length);
  const placeCaret = useRef<number | null>(null);
  const typed = TYPING.exec(text.slice(0, caret));
  const query = typed?.[2]?.toLowerCase() ?? '';
  const matches =
    typed && dismissed !== text
      ? [...actors.values()]
          .filter((a) => !a.deactivated_at && a.id !== me && a.display_name.toLowerCase().includes(query))
          .slice(0, 8)
      : [];
  const open = matches.length > 0;
  const current = Math.min(active, matches.length - 1);
  const pick = (actorId: string) => {
    const start = typed!.index + typed![1]!.length;
    const inserted = `<@${actorId}> `;
    setText(text.slice(0, start) + inserted + text.slice(caret));
    setActive(0);
    setCaretAt(start + inserted.length);
    placeCaret.current = start + inserted.length;
  };
  // The caret goes after the mention as the new text is committed, before the next key is handled (a frame later, a key
  // typed meanwhile went in after the caret was put back before it).
  useLayoutEffect(() => {
    const at = placeCaret.current;
    if (at === null) return;
    placeCaret.current = null;
    textarea.current?.setSelectionRange(at, at);
  });
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open) return false;
    const moves: Record<string, () => void> = {
      ArrowDown: () => setActive((current + 1) % matches.length),
      ArrowUp: () => setActive((current - 1 + matches.length) % matches.length),
      Enter: () => pick(matches[current]!.id),
      Tab: () => pick(matches[current]!.id),
      Escape: () => setDismissed(text),
    };
    const move = moves[event.key];
    if (!move || event.shiftKey) return false;
    event.preventDefault();
    move();
    return true;
  };
  const optionId = (i: number) => `${id}-option-${i}`;
  const list = open && (
    <ul className="mention-picker" role="listbox" id={`${id}-list`} aria-label="Mention someone">
      {matches.map((a, i) => (
        <li
          key={a.id}
          id={optionId(i)}
          role="option"
          aria-selected={i === current}
          onMouseDown={(e) => {
            e.preventDefault();
            pick(a.id);
          }}
        >
          {a.display_name}
        </li>
      ))}
    </ul>
  );
  // The textarea stays a textbox (which allows these, and not aria-expanded): the list is announced as it changes.
  const inputProps = {
    'aria-autocomplete': 'list' as const,
    'aria-controls': open ? `${id}-list` : undefined,
    'aria-activedescendant': open ? optionId(current) : undefined,
  };
  const onSelect = (event: SyntheticEvent<HTMLTextAreaElement>) => setCaretAt(event.currentTarget.selectionStart);
  return { onKeyDown, onSelect, inputProps, list };
}
