import { z } from '@hono/zod-openapi';

/**
 * The part of JSON Schema 2020-12 that the fuzzer understands. The served document is parsed with
 * `jsonSchemaSchema` (strict), so a keyword the generator and checker do not know fails the run
 * loudly instead of being silently ignored (and generating "valid" data the document forbids).
 */
export type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'null' | 'object' | 'array';

export type JsonSchema = {
  $ref?: string;
  type?: JsonType | JsonType[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  minProperties?: number;
  maxProperties?: number;
  propertyNames?: JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  // Annotations: no effect on validity.
  description?: string;
  title?: string;
  example?: unknown;
  examples?: unknown[];
  default?: unknown;
  deprecated?: boolean;
};

const jsonType = z.enum(['string', 'integer', 'number', 'boolean', 'null', 'object', 'array']);
const count = z.number().int().min(0).optional();

/** `x-...` specification extensions carry no validation: allowed, ignored. Any other unknown keyword is an error. */
function onlyKnownOrExtensions(known: string[]) {
  return (schema: Record<string, unknown>, ctx: z.core.$RefinementCtx) => {
    const unknown = Object.keys(schema).filter((key) => !known.includes(key) && !key.startsWith('x-'));
    if (unknown.length) ctx.addIssue({ code: 'custom', message: `JSON Schema keywords the fuzzer does not know: ${unknown.join(', ')}` });
  };
}

export const jsonSchemaSchema: z.ZodType<JsonSchema> = z.lazy(() => {
  const keywords = {
    $ref: z.string().optional(),
    type: z.union([jsonType, z.array(jsonType)]).optional(),
    enum: z.array(z.unknown()).optional(),
    const: z.unknown().optional(),
    format: z.enum(['date', 'date-time', 'email', 'uri']).optional(),
    pattern: z.string().optional(),
    minLength: count,
    maxLength: count,
    minimum: z.number().optional(),
    maximum: z.number().optional(),
    exclusiveMinimum: z.number().optional(),
    exclusiveMaximum: z.number().optional(),
    properties: z.record(z.string(), jsonSchemaSchema).optional(),
    required: z.array(z.string()).optional(),
    additionalProperties: z.union([z.boolean(), jsonSchemaSchema]).optional(),
    minProperties: count,
    maxProperties: count,
    propertyNames: jsonSchemaSchema.optional(),
    items: jsonSchemaSchema.optional(),
    minItems: count,
    maxItems: count,
    uniqueItems: z.boolean().optional(),
    anyOf: z.array(jsonSchemaSchema).optional(),
    oneOf: z.array(jsonSchemaSchema).optional(),
    description: z.string().optional(),
    title: z.string().optional(),
    example: z.unknown().optional(),
    examples: z.array(z.unknown()).optional(),
    default: z.unknown().optional(),
    deprecated: z.boolean().optional(),
  };
  return z.looseObject(keywords).superRefine(onlyKnownOrExtensions(Object.keys(keywords)));
});

/** Resolves `#/components/schemas/<name>` references of one document. */
export type Resolve = (ref: string) => JsonSchema;

export function resolverOf(components: Record<string, JsonSchema>): Resolve {
  return (ref) => {
    const name = ref.replace('#/components/schemas/', '');
    const schema = components[name];
    if (!schema) throw new Error(`Unresolved $ref ${ref}`);
    return schema;
  };
}

export function typesOf(schema: JsonSchema): JsonType[] | undefined {
  if (schema.type === undefined) return undefined;
  return Array.isArray(schema.type) ? schema.type : [schema.type];
}

/** The JSON types a value has (an integer is also a number). */
function jsonTypesOfValue(value: unknown): JsonType[] {
  if (value === null) return ['null'];
  if (Array.isArray(value)) return ['array'];
  if (typeof value === 'number') return Number.isInteger(value) ? ['integer', 'number'] : ['number'];
  if (typeof value === 'string') return ['string'];
  if (typeof value === 'boolean') return ['boolean'];
  if (typeof value === 'object') return ['object'];
  return [];
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Length in code points, as JSON Schema counts (zod counts UTF-16 units). */
const codePoints = (text: string) => [...text].length;

const calendarDate = /^(\d{4})-(\d{2})-(\d{2})/;

function isCalendarDate(text: string): boolean {
  const match = calendarDate.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** RFC 5321 characters of an atom (`atext`), a quoted string's content, a domain label, an address literal's content. */
const ATOM = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const QUOTED = '"(?:[\\x20\\x21\\x23-\\x5b\\x5d-\\x7e]|\\\\[\\x20-\\x7e])*"';
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?';
const LITERAL = '\\[[\\x21-\\x5a\\x5e-\\x7e]+\\]';
/**
 * RFC 5321 `Mailbox`, which JSON Schema's `email` format names: a dot-string or quoted local part,
 * then letter-digit-hyphen labels (none starting or ending with `-`) or an address literal (any
 * literal's characters, without reading IPv4/IPv6: lenient there, as every other format check).
 */
const MAILBOX = new RegExp(`^(?:${ATOM}(?:\\.${ATOM})*|${QUOTED})@(?:${LABEL}(?:\\.${LABEL})*|${LITERAL})$`);

/**
 * Format checks. A value they refuse is certainly invalid (mutations) and a response they refuse
 * certainly is; `date`, `date-time` and `uri` are lenient (they may accept a value a stricter
 * validator refuses), `email` is the exact RFC 5321 grammar, since the keyword probes send values
 * that match an email `pattern` but break the format, which the API must refuse.
 */
const formats: Record<string, (text: string) => boolean> = {
  date: (text) => /^\d{4}-\d{2}-\d{2}$/.test(text) && isCalendarDate(text),
  'date-time': (text) => /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.test(text) && isCalendarDate(text),
  email: (text) => MAILBOX.test(text),
  uri: (text) => /^[A-Za-z][A-Za-z0-9+.-]*:\S*$/.test(text),
};

/**
 * Whether a description (prose) sits on the schema at `path` or on one enclosing it: the only place
 * a document can state a rule JSON Schema cannot express.
 */
export function describedAlong(schema: JsonSchema, path: PropertyKey[], resolve: Resolve): boolean {
  const resolved = schema.$ref ? resolve(schema.$ref) : schema;
  if (schema.description !== undefined || resolved.description !== undefined) return true;
  const [head, ...rest] = path;
  if (head === undefined) return false;
  const record = typeof resolved.additionalProperties === 'object' ? resolved.additionalProperties : undefined;
  const next = typeof head === 'number' ? resolved.items : (resolved.properties?.[String(head)] ?? record);
  const branches = [...(next ? [next] : []), ...(resolved.anyOf ?? []), ...(resolved.oneOf ?? [])];
  return branches.some((branch) => describedAlong(branch, next === branch ? rest : path, resolve));
}

function deepEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Every way `value` breaks `schema`, as `path: reason` (empty when valid). */
export function violations(schema: JsonSchema, value: unknown, resolve: Resolve, path = '$'): string[] {
  if (schema.$ref) return violations(resolve(schema.$ref), value, resolve, path);
  const out: string[] = [];
  if (schema.anyOf && !schema.anyOf.some((branch) => violations(branch, value, resolve, path).length === 0)) out.push(`${path}: matches no anyOf branch`);
  if (schema.oneOf && schema.oneOf.filter((branch) => violations(branch, value, resolve, path).length === 0).length !== 1) {
    out.push(`${path}: does not match exactly one oneOf branch`);
  }
  const types = typesOf(schema);
  const valueTypes = jsonTypesOfValue(value);
  if (types && !types.some((type) => valueTypes.includes(type))) return [...out, `${path}: type ${valueTypes[0] ?? typeof value} is not ${types.join('|')}`];
  if (schema.enum && !schema.enum.some((option) => deepEqual(option, value))) out.push(`${path}: not one of ${JSON.stringify(schema.enum)}`);
  if (schema.const !== undefined && !deepEqual(schema.const, value)) out.push(`${path}: is not ${JSON.stringify(schema.const)}`);
  if (typeof value === 'string') out.push(...stringViolations(schema, value, path));
  if (typeof value === 'number') out.push(...numberViolations(schema, value, path));
  if (Array.isArray(value)) out.push(...arrayViolations(schema, value, resolve, path));
  if (isPlainObject(value)) out.push(...objectViolations(schema, value, resolve, path));
  return out;
}

function stringViolations(schema: JsonSchema, value: string, path: string): string[] {
  const out: string[] = [];
  const length = codePoints(value);
  if (schema.minLength !== undefined && length < schema.minLength) out.push(`${path}: shorter than ${schema.minLength}`);
  if (schema.maxLength !== undefined && length > schema.maxLength) out.push(`${path}: longer than ${schema.maxLength}`);
  if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(value)) out.push(`${path}: does not match ${schema.pattern}`);
  const format = schema.format === undefined ? undefined : formats[schema.format];
  if (format && !format(value)) out.push(`${path}: not a ${schema.format}`);
  return out;
}

function numberViolations(schema: JsonSchema, value: number, path: string): string[] {
  const out: string[] = [];
  if (schema.minimum !== undefined && value < schema.minimum) out.push(`${path}: below ${schema.minimum}`);
  if (schema.maximum !== undefined && value > schema.maximum) out.push(`${path}: above ${schema.maximum}`);
  if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum) out.push(`${path}: not above ${schema.exclusiveMinimum}`);
  if (schema.exclusiveMaximum !== undefined && value >= schema.exclusiveMaximum) out.push(`${path}: not below ${schema.exclusiveMaximum}`);
  return out;
}

function arrayViolations(schema: JsonSchema, value: unknown[], resolve: Resolve, path: string): string[] {
  const out: string[] = [];
  if (schema.minItems !== undefined && value.length < schema.minItems) out.push(`${path}: fewer than ${schema.minItems} items`);
  if (schema.maxItems !== undefined && value.length > schema.maxItems) out.push(`${path}: more than ${schema.maxItems} items`);
  if (schema.uniqueItems && new Set(value.map((item) => JSON.stringify(item))).size < value.length) out.push(`${path}: items not unique`);
  const items = schema.items;
  if (items) value.forEach((item, index) => out.push(...violations(items, item, resolve, `${path}[${index}]`)));
  return out;
}

function objectViolations(schema: JsonSchema, value: Record<string, unknown>, resolve: Resolve, path: string): string[] {
  const out: string[] = [];
  const keys = Object.keys(value);
  for (const key of schema.required ?? []) if (!(key in value)) out.push(`${path}.${key}: required`);
  if (schema.minProperties !== undefined && keys.length < schema.minProperties) out.push(`${path}: fewer than ${schema.minProperties} properties`);
  if (schema.maxProperties !== undefined && keys.length > schema.maxProperties) out.push(`${path}: more than ${schema.maxProperties} properties`);
  for (const key of keys) {
    const where = `${path}.${key}`;
    if (schema.propertyNames) out.push(...violations(schema.propertyNames, key, resolve, `${where}(name)`));
    const declared = schema.properties?.[key];
    if (declared) out.push(...violations(declared, value[key], resolve, where));
    else if (schema.additionalProperties === false) out.push(`${where}: not allowed`);
    else if (typeof schema.additionalProperties === 'object') out.push(...violations(schema.additionalProperties, value[key], resolve, where));
  }
  return out;
}
