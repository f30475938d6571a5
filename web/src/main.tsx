import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { apiBaseUrl } from './api/client';
import { App } from './app/App';
import { loadCmsConfig } from './auth/config';
import { createUserManager, Session } from './auth/session';
import { ErrorNote } from './components/ui';
import './styles.css';

/** Boot: read the runtime config, then either the silent-renew page, "not configured", or the app. */
async function start(): Promise<void> {
  const container = document.getElementById('root');
  if (!container) return;
  const root = createRoot(container);
  let config;
  try {
    config = await loadCmsConfig(apiBaseUrl());
  } catch (error) {
    root.render(<main className="signin"><h1>Loyalty CMS</h1><ErrorNote message={error instanceof Error ? error.message : 'The CMS could not start.'} /></main>);
    return;
  }
  if (!config.oidc) {
    root.render(
      <main className="signin">
        <h1>Loyalty CMS</h1>
        <ErrorNote message="Sign-in is not configured: set the Worker vars CMS_OIDC_ISSUER and CMS_OIDC_CLIENT_ID (both), then reload." />
      </main>,
    );
    return;
  }
  const manager = createUserManager(config.oidc, window.location.origin);
  if (window.location.pathname === '/auth/silent') {
    // The hidden iframe of a silent renewal: hand the answer to the parent page, render nothing.
    await manager.signinSilentCallback();
    return;
  }
  root.render(
    <StrictMode>
      <App session={new Session(manager)} />
    </StrictMode>,
  );
}

void start();
