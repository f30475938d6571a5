import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { failureMessage, failureRequestId } from '../api/errors';
import { ErrorNote, Loading } from './ui';

/** A query's three states: loading, the envelope's message (with a retry), or the data. */
export function QueryView<T>({ query, children, what }: { query: UseQueryResult<T>; children: (data: T) => ReactNode; what?: string }) {
  if (query.isPending) return <Loading {...(what ? { what } : {})} />;
  if (query.isError) return <ErrorNote message={failureMessage(query.error)} requestId={failureRequestId(query.error)} onRetry={() => void query.refetch()} />;
  return children(query.data);
}
