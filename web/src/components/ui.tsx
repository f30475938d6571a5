/** The CMS's small component set: every screen is built from these, so they look and behave alike. */
import { cloneElement, isValidElement, useEffect, useId, useRef, type ButtonHTMLAttributes, type ReactElement, type ReactNode } from 'react';

type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & { variant?: 'primary' | 'secondary' | 'danger' | 'link'; busy?: boolean };

export function Button({ variant = 'secondary', busy = false, type = 'button', disabled, children, className, ...rest }: ButtonProps) {
  return (
    <button {...rest} type={type} className={`btn btn-${variant}${className ? ` ${className}` : ''}`} disabled={disabled || busy} aria-busy={busy || undefined}>
      {children}
    </button>
  );
}

type ControlProps = { id?: string; 'aria-invalid'?: boolean; 'aria-describedby'?: string; required?: boolean };

/**
 * A labelled control with its hint and its error (the API's `errors[].message` for this field, or
 * the form's own check) right under it, tied to the control by aria-describedby.
 */
export function Field({ label, error, hint, children }: { label: string; error?: string | undefined; hint?: ReactNode; children: ReactElement<ControlProps> }) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined;
  const control = isValidElement(children) ? cloneElement(children, { id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy }) : children;
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {control}
      {hint ? <small id={hintId} className="hint">{hint}</small> : null}
      {error ? <small id={errorId} className="error" role="alert">{error}</small> : null}
    </div>
  );
}

export function Page({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    // Arrived from the section nav or the tenant switcher: start keyboard and screen-reader users at the new content.
    if (document.activeElement?.closest('.sidenav, .switcher')) heading.current?.focus();
  }, []);
  return (
    <section className="page" aria-labelledby="page-title">
      <header className="page-header">
        <h1 id="page-title" ref={heading} tabIndex={-1}>{title}</h1>
        {actions ? <div className="page-actions">{actions}</div> : null}
      </header>
      {children}
    </section>
  );
}

const tones: Record<string, 'ok' | 'warn' | 'bad' | 'muted'> = {
  active: 'ok', completed: 'ok', succeeded: 'ok', delivered: 'ok', enabled: 'ok', reinstated: 'ok',
  pending: 'warn', paused: 'warn', initialized: 'warn', applied: 'ok', deploying: 'warn', invited: 'warn', draft: 'muted', queued: 'warn', running: 'warn',
  suspended: 'bad', eligible: 'ok', 'not eligible': 'muted', failed: 'bad', revoked: 'bad', expired: 'muted', canceled: 'muted', archived: 'muted', inactive: 'muted', disabled: 'bad',
};

/** A status in its tone; `label` words it when the bare value says too little (e.g. "Pending until …"). */
export function Badge({ value, label }: { value: string; label?: string }) {
  return <span className={`badge badge-${tones[value] ?? 'muted'}`}>{label ?? value.replace(/_/g, ' ')}</span>;
}

/** The id a person quotes when reporting a failure of the API (the server logs it with the failure); selectable to copy. */
export function RequestId({ id }: { id: string | undefined }) {
  return id ? <small className="request-id">Request id: <code>{id}</code></small> : null;
}

/** The failure of a whole screen or section: the envelope's message and its request id, never a blank area. */
export function ErrorNote({ message, requestId, onRetry }: { message: string; requestId?: string | undefined; onRetry?: () => void }) {
  return (
    <div className="note note-error" role="alert">
      <p>{message}</p>
      <RequestId id={requestId} />
      {onRetry ? <Button onClick={onRetry}>Try again</Button> : null}
    </div>
  );
}

export function Loading({ what = 'Loading' }: { what?: string }) {
  return <p className="loading" role="status">{what}…</p>;
}

/** A definition list of label/value pairs (profiles, details). */
export function Facts({ items }: { items: [string, ReactNode][] }) {
  return (
    <dl className="facts">
      {items.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value ?? '—'}</dd>
        </div>
      ))}
    </dl>
  );
}

export function Card({ title, children, actions }: { title: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <section className="card">
      <header className="card-header">
        <h2>{title}</h2>
        {actions}
      </header>
      {children}
    </section>
  );
}
