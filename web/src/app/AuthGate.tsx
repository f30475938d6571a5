import { useNavigate } from '@tanstack/react-router';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Button, ErrorNote, Loading } from '../components/ui';
import { useAuth, useSession } from '../context/providers';

function currentPath(): string {
  return `${window.location.pathname}${window.location.search}`;
}

/** Signed out: a page with a "Sign in" button (the provider's page is one redirect away). */
export function AuthGate({ children }: { children: ReactNode }) {
  const auth = useAuth();
  const session = useSession();
  const [error, setError] = useState<string | undefined>();
  if (auth.status === 'signed-in') return children;
  return (
    <main className="signin" id="main">
      <h1>Loyalty CMS</h1>
      {auth.reason === 'expired' ? <p role="status">Your session has ended. Sign in again to continue.</p> : <p>Sign in to manage your loyalty programs.</p>}
      <Button
        variant="primary"
        onClick={() => {
          setError(undefined);
          session.signIn(currentPath() === '/auth/callback' ? '/' : currentPath()).catch((cause: unknown) => {
            setError(cause instanceof Error ? `Sign-in could not start: ${cause.message}` : 'Sign-in could not start.');
          });
        }}
      >
        Sign in
      </Button>
      {error ? <ErrorNote message={error} /> : null}
    </main>
  );
}

/** /auth/callback: completes the code flow (PKCE) and goes back to where sign-in started. */
export function AuthCallback() {
  const session = useSession();
  const navigate = useNavigate();
  const [error, setError] = useState<string | undefined>();
  const started = useRef(false);
  useEffect(() => {
    // Once only: the authorization code is single-use (StrictMode would run the effect twice).
    if (started.current) return;
    started.current = true;
    session.completeSignIn(window.location.href).then(
      (returnTo) => navigate({ to: returnTo, replace: true }),
      (cause: unknown) => setError(cause instanceof Error ? cause.message : 'The sign-in could not be completed.'),
    );
  }, [session, navigate]);
  if (error) {
    return (
      <main className="signin" id="main">
        <h1>Sign-in failed</h1>
        <ErrorNote message={error} />
        <Button variant="primary" onClick={() => void session.signIn('/')}>Sign in again</Button>
      </main>
    );
  }
  return <Loading what="Signing in" />;
}
