import type { Message } from '../../lib/types.ts';
import { isSaved, useSaveMessage } from './use-saved.ts';

/**
 * The caller's bookmark of a message, a toggle. Its name stays "Save for later" (pressed when saved): "Save" is the
 * edit form's button and "Saved" the toolbar's.
 */
export function SaveToggle({ message }: { message: Message }) {
  const save = useSaveMessage();
  const saved = isSaved(message);
  return (
    <button
      type="button"
      aria-pressed={saved}
      disabled={save.isPending}
      onClick={() => save.mutate({ message, save: !saved })}
    >
      <span aria-hidden="true">{saved ? '★' : '☆'}</span> Save for later
    </button>
  );
}
