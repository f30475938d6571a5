import { describe, expect, it } from 'vitest';
import committedText from '../../sdk/openapi.json?raw';
import { operations } from '../../sdk/src';
import { fetchDocument, operations as documentOperations } from '../support/openapi';

const STALE = 'the committed SDK is stale: run `npm run sdk:generate` and commit sdk/';

/** JSON with object keys sorted: key order is not meaning (workerd's build of the document orders some differently from Node's). */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(',')}}`;
}

/** Where two documents differ, as `paths./x.get`-like names (not a 400 KB diff). */
function differences(served: Record<string, unknown>, committed: Record<string, unknown>, prefix = '', depth = 0): string[] {
  const keys = [...new Set([...Object.keys(served), ...Object.keys(committed)])];
  return keys.flatMap((key) => {
    const [a, b] = [served[key], committed[key]];
    if (canonical(a) === canonical(b)) return [];
    const name = `${prefix}${key}`;
    const nested = depth < 2 && typeof a === 'object' && a !== null && typeof b === 'object' && b !== null;
    return nested ? differences(a as Record<string, unknown>, b as Record<string, unknown>, `${name}.`, depth + 1) : [name];
  });
}

describe('SDK freshness', () => {
  it('sdk/openapi.json is the document the Worker serves', async () => {
    const { doc } = await fetchDocument();
    const committed: Record<string, unknown> = JSON.parse(committedText);
    expect(differences(doc, committed), STALE).toEqual([]);
  });

  it('the SDK has a named method for exactly the operations the Worker serves', async () => {
    const { doc } = await fetchDocument();
    const served = documentOperations(doc).map(({ path, method, op }) => `${op.operationId} ${method} ${path}`);
    const mapped = Object.entries(operations).map(([id, operation]) => `${id} ${operation.method} ${operation.path}`);
    expect(mapped.sort(), STALE).toEqual(served.sort());
  });
});
