import { useState, type ReactNode } from 'react';
import { Dialog } from '../../components/Dialog';
import { Button } from '../../components/ui';

/**
 * A secret the API returns exactly once: shown here with a copy button, kept only in this
 * component's props (never in the query cache), gone when the dialog closes.
 */
export function SecretOnce({ title, label, secret, details, onClose }: { title: string; label: string; secret: string; details?: ReactNode; onClose: () => void }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  return (
    <Dialog title={title} onClose={onClose}>
      <div className="note note-warn" role="note"><p>Copy the {label} now: it is shown only once and cannot be retrieved later.</p></div>
      {details}
      <div className="secret">
        <code aria-label={label}>{secret}</code>
        <Button
          onClick={() => {
            navigator.clipboard.writeText(secret).then(() => setCopied('yes'), () => setCopied('failed'));
          }}
        >
          Copy
        </Button>
      </div>
      <p role="status" className="hint">{copied === 'yes' ? 'Copied to the clipboard.' : copied === 'failed' ? 'Copying failed: select the text and copy it by hand.' : ''}</p>
      <footer className="dialog-footer"><Button variant="primary" onClick={onClose}>I have stored it</Button></footer>
    </Dialog>
  );
}
