import { describe, expect, it } from 'vitest';
import { breakingChanges, nextSurface, parseSurface, surfaceOf, surfaceText, type SurfaceDocument } from '../../scripts/lib/api-surface';

/** A small document: one operation with a parameter, a request body with an enum, a success body through a $ref, a failure. */
function document(version = '1.0.0', change: (doc: SurfaceDocument) => void = () => undefined): SurfaceDocument {
  const doc: SurfaceDocument = {
    info: { version },
    components: {
      schemas: {
        Customer: { type: 'object', properties: { id: { type: 'string' }, status: { type: 'string', enum: ['active', 'blocked'] }, friends: { type: 'array', items: { $ref: '#/components/schemas/Customer' } } } },
      },
    },
    paths: {
      '/customers': {
        post: {
          parameters: [{ name: 'dry_run', in: 'query' }],
          requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { kind: { type: 'string', enum: ['person', 'company'] } } } } } },
          responses: {
            '201': { content: { 'application/json': { schema: { allOf: [{ type: 'object', properties: { data: { $ref: '#/components/schemas/Customer' } } }] } } } },
            '400': { content: { 'application/json': { schema: { type: 'object', properties: { code: { type: 'string', enum: ['BAD_REQUEST'] } } } } } },
          },
        },
      },
    },
  };
  change(doc);
  return doc;
}

const released = () => nextSurface(document(), undefined);

describe('the API surface', () => {
  it('lists operations, parameters, request and success fields through $ref and allOf, and enum values; not failure bodies; a recursive schema once', () => {
    expect(surfaceOf(document())).toEqual([
      'operation POST /customers',
      'operation POST /customers parameter query dry_run',
      'operation POST /customers request application/json.kind',
      'operation POST /customers request application/json.kind = "company"',
      'operation POST /customers request application/json.kind = "person"',
      'operation POST /customers response 201 application/json.data',
      'operation POST /customers response 201 application/json.data.friends',
      'operation POST /customers response 201 application/json.data.id',
      'operation POST /customers response 201 application/json.data.status',
      'operation POST /customers response 201 application/json.data.status = "active"',
      'operation POST /customers response 201 application/json.data.status = "blocked"',
    ]);
  });

  it('refuses a removed operation, field or enum value under the same major', () => {
    const removedEnum = document('1.1.0', (doc) => void doc.components!.schemas!.Customer!.properties!.status!.enum!.pop());
    expect(breakingChanges(removedEnum, released())).toEqual(['operation POST /customers response 201 application/json.data.status = "blocked"']);
    const removedField = document('1.1.0', (doc) => delete doc.components!.schemas!.Customer!.properties!.id);
    expect(breakingChanges(removedField, released())).toEqual(['operation POST /customers response 201 application/json.data.id']);
    const removedOperation = document('1.1.0', (doc) => delete doc.paths!['/customers']);
    expect(breakingChanges(removedOperation, released())).toHaveLength(11);
    const removedParameter = document('1.0.1', (doc) => delete (doc.paths!['/customers']!.post as { parameters?: unknown }).parameters);
    expect(breakingChanges(removedParameter, released())).toEqual(['operation POST /customers parameter query dry_run']);
  });

  it('accepts additions, and removals once the major version moves; refuses a major older than the released one', () => {
    const added = document('1.1.0', (doc) => void doc.components!.schemas!.Customer!.properties!.status!.enum!.push('erased'));
    expect(breakingChanges(added, released())).toEqual([]);
    expect(breakingChanges(document('2.0.0', (doc) => delete doc.paths!['/customers']), released())).toEqual([]);
    expect(breakingChanges(document('0.9.0'), released())).toEqual(['info.version 0.9.0 is older than the released major 1']);
  });

  it('keeps every line released under a major (an addition then removed is still refused), and starts again at a new major', () => {
    const added = nextSurface(document('1.1.0', (doc) => void doc.components!.schemas!.Customer!.properties!.status!.enum!.push('erased')), released());
    expect(breakingChanges(document('1.2.0'), added)).toEqual(['operation POST /customers response 201 application/json.data.status = "erased"']);
    const next = nextSurface(document('2.0.0', (doc) => delete doc.paths!['/customers']), added);
    expect(next).toEqual({ major: 2, lines: [] });
    expect(parseSurface(surfaceText(added))).toEqual(added);
    expect(() => parseSurface('operation GET /x\n')).toThrow(/first line must be/);
  });
});
