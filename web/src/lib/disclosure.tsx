import { type ReactNode, useState } from 'react';

/** A `<details>` whose content is made only while it is open (so what it reads is read only when wanted). */
export function Disclosure({ summary, children }: { summary: string; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <details onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>{summary}</summary>
      {open && children}
    </details>
  );
}
