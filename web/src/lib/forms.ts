import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiFailure, failureMessage, failureRequestId } from '../api/errors';
import { useToast } from '../components/Toast';

export type FieldErrors = Record<string, string>;

type Options<V, R> = {
  /** The form's own checks (the API's stated rules, lib/rules.ts); any error stops the request. */
  validate?: (values: V) => FieldErrors;
  /** Query keys whose data the write changes. */
  invalidate?: QueryKey[];
  /** Toast after success. */
  success?: string | ((result: R) => string);
  onSuccess?: (result: R) => void;
};

/**
 * A form's write: client checks first, then the API; a refusal leaves the envelope's `message` (and
 * its request id) at the top of the form and each `errors[].message` next to the field its `path` names.
 */
export function useFormMutation<V, R>(send: (values: V) => Promise<R>, options: Options<V, R> = {}) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | undefined>();
  const [formRequestId, setFormRequestId] = useState<string | undefined>();
  const mutation = useMutation({
    mutationFn: send,
    onSuccess: async (result) => {
      await Promise.all((options.invalidate ?? []).map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      if (options.success) toast.success(typeof options.success === 'string' ? options.success : options.success(result));
      options.onSuccess?.(result);
    },
    onError: (error) => {
      setFormError(failureMessage(error));
      setFormRequestId(failureRequestId(error));
      setFieldErrors(error instanceof ApiFailure ? error.fieldErrors : {});
    },
  });
  function submit(values: V): void {
    const found = options.validate?.(values) ?? {};
    setFieldErrors(found);
    setFormError(Object.keys(found).length > 0 ? 'Check the highlighted fields.' : undefined);
    setFormRequestId(undefined);
    if (Object.keys(found).length === 0) mutation.mutate(values);
  }
  return { submit, busy: mutation.isPending, fieldErrors, formError, formRequestId, result: mutation.data };
}

/** A one-click write outside a form (revoke, cancel, replay): success or the envelope's message as a toast. */
export function useAction<V, R>(send: (values: V) => Promise<R>, options: Omit<Options<V, R>, 'validate'> = {}) {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: send,
    onSuccess: async (result) => {
      await Promise.all((options.invalidate ?? []).map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      if (options.success) toast.success(typeof options.success === 'string' ? options.success : options.success(result));
      options.onSuccess?.(result);
    },
    onError: (error) => toast.failure(error),
  });
}
