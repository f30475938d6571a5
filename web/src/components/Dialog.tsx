import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { Button } from './ui';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Tab from the last control goes to the first, Shift+Tab from the first to the last: focus stays in the modal. */
function keepFocusInside(event: KeyboardEvent<HTMLDivElement>, panel: HTMLDivElement | null): void {
  const focusable = panel ? [...panel.querySelectorAll<HTMLElement>(FOCUSABLE)] : [];
  const first = focusable[0];
  const last = focusable.at(-1);
  if (!first || !last) return;
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
}

/**
 * A modal dialog: focus moves into it, Escape closes it, focus goes back to what opened it.
 * (Not the native <dialog>, whose showModal() test DOMs do not all implement.)
 */
export function Dialog({ title, onClose, children }: { title: string; onClose: () => void; children: ReactNode }) {
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const first = panel.current?.querySelector<HTMLElement>('input, select, textarea, button:not([data-close])');
    (first ?? panel.current)?.focus();
    return () => opener?.focus();
  }, []);
  return (
    <div className="dialog-backdrop" onMouseDown={(event) => event.target === event.currentTarget && onClose()}>
      <div
        ref={panel}
        className="dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        onKeyDown={(event) => {
          if (event.key === 'Escape') onClose();
          if (event.key === 'Tab') keepFocusInside(event, panel.current);
        }}
      >
        <header className="dialog-header">
          <h2 id={titleId}>{title}</h2>
          <Button variant="link" data-close onClick={onClose} aria-label="Close">✕</Button>
        </header>
        {children}
      </div>
    </div>
  );
}

/** Asks before a destructive action; the action's failure stays in the toast. */
export function Confirm({ title, message, confirmLabel, busy, onConfirm, onClose }: { title: string; message: ReactNode; confirmLabel: string; busy?: boolean; onConfirm: () => void; onClose: () => void }) {
  return (
    <Dialog title={title} onClose={onClose}>
      <div className="dialog-body">{message}</div>
      <footer className="dialog-footer">
        <Button onClick={onClose}>Keep</Button>
        <Button variant="danger" busy={busy ?? false} onClick={onConfirm}>{confirmLabel}</Button>
      </footer>
    </Dialog>
  );
}
