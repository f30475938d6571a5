/**
 * What a caller of the API may rely on, as lines of text: every operation, parameter, request and
 * response field, webhook field and enum value of the OpenAPI document. sdk/api-surface.txt holds
 * every line released under the document's major version (success bodies: failures share one envelope); a line missing from the document is a
 * change that would break a caller (`npm run sdk:check` refuses it unless the major moves).
 */

type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
};
type Parameter = { name: string; in: string; $ref?: string };
type Content = { content?: Record<string, { schema?: Schema }> };
type Operation = { parameters?: Parameter[]; requestBody?: Content; responses?: Record<string, Content> };
type PathItem = Record<string, unknown> & { parameters?: Parameter[] };
export type SurfaceDocument = {
  info: { version: string };
  paths?: Record<string, PathItem>;
  webhooks?: Record<string, PathItem>;
  components?: { schemas?: Record<string, Schema>; parameters?: Record<string, Parameter> };
};

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** The first line of sdk/api-surface.txt names the major version its lines were released under. */
export const surfaceHeader = (major: number) => `# API ${major}.x: what callers may rely on (npm run sdk:generate adds; only a new major removes)`;

export function majorOf(version: string): number {
  const major = Number(/^(\d+)\./.exec(version)?.[1]);
  if (!Number.isInteger(major)) throw new Error(`info.version ${version} is not a semantic version`);
  return major;
}

/** Every line of the document's surface, sorted. */
export function surfaceOf(document: SurfaceDocument): string[] {
  const lines = new Set<string>();
  const schemas = document.components?.schemas ?? {};
  const refName = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1);

  const walk = (prefix: string, schema: Schema | undefined, seen: readonly string[]): void => {
    if (!schema) return;
    if (schema.$ref) {
      const name = refName(schema.$ref);
      if (!seen.includes(name)) walk(prefix, schemas[name], [...seen, name]);
      return;
    }
    for (const value of schema.enum ?? []) lines.add(`${prefix} = ${JSON.stringify(value)}`);
    if (schema.const !== undefined) lines.add(`${prefix} = ${JSON.stringify(schema.const)}`);
    for (const part of [...(schema.allOf ?? []), ...(schema.oneOf ?? []), ...(schema.anyOf ?? [])]) walk(prefix, part, seen);
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      lines.add(`${prefix}.${name}`);
      walk(`${prefix}.${name}`, property, seen);
    }
    if (typeof schema.additionalProperties === 'object') walk(`${prefix}.*`, schema.additionalProperties, seen);
    if (schema.items) walk(`${prefix}[]`, schema.items, seen);
  };
  const parameter = (candidate: Parameter) => (candidate.$ref ? document.components?.parameters?.[refName(candidate.$ref)] : candidate);
  const bodies = (prefix: string, content: Content | undefined) => {
    for (const [type, media] of Object.entries(content?.content ?? {})) walk(`${prefix} ${type}`, media.schema, []);
  };

  const operations = (kind: string, items: Record<string, PathItem>) => {
    for (const [path, item] of Object.entries(items)) {
      for (const method of METHODS) {
        const operation = item[method] as Operation | undefined;
        if (!operation) continue;
        const name = `${kind} ${method.toUpperCase()} ${path}`;
        lines.add(name);
        for (const candidate of [...(item.parameters ?? []), ...(operation.parameters ?? [])]) {
          const resolved = parameter(candidate);
          if (resolved) lines.add(`${name} parameter ${resolved.in} ${resolved.name}`);
        }
        bodies(`${name} request`, operation.requestBody);
        // Success bodies only: every failure is the one error envelope (its codes are documented, not a contract per operation).
        for (const [status, response] of Object.entries(operation.responses ?? {})) if (status.startsWith('2')) bodies(`${name} response ${status}`, response);
      }
    }
  };
  operations('operation', document.paths ?? {});
  operations('webhook', document.webhooks ?? {});
  return [...lines].sort();
}

export type SurfaceFile = { major: number; lines: string[] };

export function parseSurface(text: string): SurfaceFile {
  const [header = '', ...lines] = text.split('\n').filter((line) => line !== '');
  const major = Number(/^# API (\d+)\.x/.exec(header)?.[1]);
  if (!Number.isInteger(major)) throw new Error(`sdk/api-surface.txt: the first line must be "${surfaceHeader(1)}" (with the major version)`);
  return { major, lines };
}

export const surfaceText = ({ major, lines }: SurfaceFile) => `${[surfaceHeader(major), ...lines].join('\n')}\n`;

/**
 * The surface file the document makes of the committed one: the same major adds the document's
 * new lines to the released ones; a new major starts again from the document.
 */
export function nextSurface(document: SurfaceDocument, committed: SurfaceFile | undefined): SurfaceFile {
  const major = majorOf(document.info.version);
  const current = surfaceOf(document);
  if (!committed || committed.major !== major) return { major, lines: current };
  return { major, lines: [...new Set([...committed.lines, ...current])].sort() };
}

/** The released lines the document no longer has, when its major is the committed one's: each would break a caller. */
export function breakingChanges(document: SurfaceDocument, committed: SurfaceFile): string[] {
  const major = majorOf(document.info.version);
  if (major < committed.major) return [`info.version ${document.info.version} is older than the released major ${committed.major}`];
  if (major > committed.major) return [];
  const current = new Set(surfaceOf(document));
  return committed.lines.filter((line) => !current.has(line));
}
