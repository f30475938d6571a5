import { attributeTypes, customerStatuses, roles, transactionStatuses, transactionTypes } from '../db/schema';
import { cohortOps } from '../domain/cohort-ops';
import { countries } from '../domain/countries';
import type { MasterdataView } from '../schemas/masterdata';
import { toCountryView } from '../views/country';

/** Static reference data; built once per isolate. */
let cached: MasterdataView | undefined;

export function getMasterdata(): MasterdataView {
  cached ??= {
    countries: countries.map(toCountryView),
    transaction_types: [...transactionTypes],
    transaction_statuses: [...transactionStatuses],
    customer_statuses: [...customerStatuses],
    attribute_types: [...attributeTypes],
    cohort_ops: [...cohortOps],
    roles: [...roles],
  };
  return cached;
}
