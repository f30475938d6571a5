import { cohortsNamingKeyQuery, definitionPageQueries, deleteDefinition, insertDefinitionQuery } from '../data/attributes';
import { namedBatch } from '../data/named-batch';
import { ATTRIBUTE_KEY_PATTERN, normalizeAttributeKey } from '../domain/attributes';
import { ApiError } from '../lib/errors';
import { newId } from '../lib/ids';
import { pageOf, type Page, type PageParams } from '../lib/paging';
import type { AttributeCreatedView, AttributeDefinitionView, CreateAttributeInput } from '../schemas/attribute';
import { toAttributeDefinitionView } from '../views/attribute';
import { applyTenantRecomputes } from './cohort-recomputes';
import type { ServiceContext } from './context';

export async function listAttributeDefinitions({ db, tenantId }: ServiceContext, params: PageParams): Promise<Page<AttributeDefinitionView>> {
  const { page } = await namedBatch(db, { page: definitionPageQueries(db, tenantId, params) });
  const [rows, [total]] = page;
  return pageOf(rows.map(toAttributeDefinitionView), total?.value ?? 0, params);
}

/**
 * Defines a key (normalized to lowercase snake case). Accepted with a `warning` when the key was
 * normalized, or when saved cohorts already name it: they start matching against this definition.
 */
export async function createAttributeDefinition(ctx: ServiceContext, input: CreateAttributeInput): Promise<AttributeCreatedView> {
  const { db, tenantId } = ctx;
  const key = normalizeAttributeKey(input.key);
  if (!ATTRIBUTE_KEY_PATTERN.test(key)) {
    throw new ApiError('VALIDATION_FAILED', 'The key must be lowercase snake case: a letter, then letters, digits or underscores, 1-64 characters', { path: 'key' });
  }
  const id = newId('atd');
  const [inserted, [naming]] = await db.batch([
    insertDefinitionQuery(db, { id, tenantId, key, type: input.type }),
    cohortsNamingKeyQuery(db, tenantId, key),
  ]);
  if (inserted.length === 0) throw new ApiError('CONFLICT', `Attribute "${key}" is already defined`, { path: 'key' });
  await applyTenantRecomputes(ctx);

  const warnings: string[] = [];
  if (key !== input.key) warnings.push(`The key "${input.key}" was normalized to "${key}".`);
  const cohortCount = naming?.value ?? 0;
  if (cohortCount > 0) {
    warnings.push(`${cohortCount} existing cohort${cohortCount === 1 ? '' : 's'} already name "${key}" and will now match against this definition.`);
  }
  return warnings.length > 0 ? { id, warning: warnings.join(' ') } : { id };
}

/** Deletes the definition and its values; cohorts naming the key then list it in `dead_keys`. */
export async function deleteAttributeDefinition(ctx: ServiceContext, id: string): Promise<{ success: true }> {
  if (!(await deleteDefinition(ctx.db, ctx.tenantId, id))) throw ApiError.notFound('Attribute definition');
  await applyTenantRecomputes(ctx);
  return { success: true };
}
