import type { Context } from 'hono';
import { RECOMPUTING_HEADER } from '../../schemas/cohort';
import type { Recomputable } from '../../services/cohorts';

/** The answer's data, with the cohorts still being re-evaluated named in `X-Cohorts-Recomputing`. */
export function recomputableData<T>(c: Context, { data, recomputing }: Recomputable<T>): T {
  if (recomputing.length > 0) c.header(RECOMPUTING_HEADER, recomputing.join(','));
  return data;
}
