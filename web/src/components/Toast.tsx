import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { failureMessage, failureRequestId } from '../api/errors';
import { RequestId } from './ui';

type Toast = { id: number; tone: 'success' | 'error'; message: string; requestId?: string | undefined };
type Toaster = { success: (message: string) => void; failure: (error: unknown) => void };

const ToastContext = createContext<Toaster | null>(null);
const TOAST_MS = 5000;
const TOAST_ERROR_MS = 10000;

/** Short messages after an action: the API's envelope `message` (and request id) when it refused, a confirmation when it did it. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((toast) => toast.id !== id)), []);
  const push = useCallback(
    (tone: Toast['tone'], message: string, requestId?: string) => {
      const id = Date.now() + Math.random();
      setToasts((all) => [...all.slice(-3), { id, tone, message, requestId }]);
      // Long enough to read; a toast must not linger over the next screens (errors stay longer).
      setTimeout(() => dismiss(id), tone === 'error' ? TOAST_ERROR_MS : TOAST_MS);
    },
    [dismiss],
  );
  const toaster = useMemo<Toaster>(() => ({ success: (message) => push('success', message), failure: (error) => push('error', failureMessage(error), failureRequestId(error)) }), [push]);
  return (
    <ToastContext.Provider value={toaster}>
      {children}
      <div className="toasts" aria-live="polite">
        {toasts.map((toast) => (
          <div key={toast.id} className={`toast toast-${toast.tone}`} role={toast.tone === 'error' ? 'alert' : 'status'}>
            <span>{toast.message}</span>
            <RequestId id={toast.requestId} />
            <button type="button" className="btn btn-link" aria-label="Dismiss" onClick={() => dismiss(toast.id)}>✕</button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

export function useToast(): Toaster {
  const toaster = useContext(ToastContext);
  if (!toaster) throw new Error('useToast outside ToastProvider');
  return toaster;
}
