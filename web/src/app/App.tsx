import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider, type RouterHistory } from '@tanstack/react-router';
import { useState } from 'react';
import { ApiFailure } from '../api/errors';
import { createApi } from '../api/client';
import type { Session } from '../auth/session';
import { ToastProvider } from '../components/Toast';
import { ServicesProvider } from '../context/providers';
import { createAppRouter } from './router';

function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 15_000,
        // The SDK already retries transient failures of reads; a refusal (4xx) will not change.
        retry: (count, error) => !(error instanceof ApiFailure) && count < 1,
        refetchOnWindowFocus: false,
      },
    },
  });
}

/** The signed-in app: one API client, one query cache and one router for the page's life. */
export function App({ session, history }: { session: Session; history?: RouterHistory }) {
  const [services] = useState(() => {
    const queryClient = createQueryClient();
    const api = createApi({
      token: session.token,
      onUnauthenticated: () => {
        queryClient.clear();
        session.expire();
      },
    });
    return { queryClient, api, router: createAppRouter(history) };
  });
  return (
    <QueryClientProvider client={services.queryClient}>
      <ServicesProvider api={services.api} session={session}>
        <ToastProvider>
          <RouterProvider router={services.router} />
        </ToastProvider>
      </ServicesProvider>
    </QueryClientProvider>
  );
}
