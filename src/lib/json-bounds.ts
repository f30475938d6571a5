/**
 * Bounds of free-form JSON (`metadata`): how deeply it may nest and how large it may be. A value
 * nested thousands of levels deep passes any `unknown` schema, then overflows the stack of the first
 * recursive walk over it (JSON.stringify of the earn's response was a 500); a large one is stored
 * and answered on every read. Every check here loops over an explicit stack or the text: none recurses.
 */

/** Levels of objects and arrays a free-form value may nest (`{}` is 1, `{"a":[1]}` is 2). */
export const MAX_JSON_DEPTH = 16;
/** Bytes a free-form value may take as compact JSON (`JSON.stringify`, UTF-8). */
export const MAX_JSON_BYTES = 16 * 1024;

export const TOO_DEEP = `Must not nest objects and arrays more than ${MAX_JSON_DEPTH} levels deep`;
export const TOO_LARGE = `Must be at most ${MAX_JSON_BYTES} bytes as compact JSON`;

/**
 * How many levels of objects and arrays `value` nests (a scalar 0, `{}` 1, `[[1]]` 2), walked with
 * an explicit stack; counting stops once it passes `limit`.
 * @example jsonDepth({ a: [1, { b: null }] }) // 3
 */
export function jsonDepth(value: unknown, limit = Number.POSITIVE_INFINITY): number {
  let deepest = 0;
  const stack: Array<{ node: unknown; depth: number }> = [{ node: value, depth: 0 }];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { node, depth } = next;
    if (node === null || typeof node !== 'object') continue;
    deepest = Math.max(deepest, depth + 1);
    if (deepest > limit) break;
    for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push({ node: child, depth: depth + 1 });
  }
  return deepest;
}

/** Why a free-form JSON value is out of bounds, or undefined. Depth first: only a bounded value is serialized. */
export function freeFormJsonProblem(value: unknown): string | undefined {
  if (jsonDepth(value, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) return TOO_DEEP;
  if (new TextEncoder().encode(JSON.stringify(value)).byteLength > MAX_JSON_BYTES) return TOO_LARGE;
  return undefined;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const OPEN = new Set([0x7b, 0x5b]);
const CLOSE = new Set([0x7d, 0x5d]);

/**
 * The top-level field of a JSON text under which objects and arrays nest more than `limit` levels
 * ('' when the text is not an object), or undefined. One pass over the text, without parsing it:
 * brackets inside strings do not count. A text that is not JSON is only counted, so it goes on to
 * be refused as malformed where it would have been.
 * @example tooDeepField('{"a":1,"metadata":[[[]]]}', 2) // "metadata"
 */
export function tooDeepField(text: string, limit: number): string | undefined {
  let depth = 0;
  let isObject = false;
  let inString = false;
  /** Where the last string closed at depth 1 starts and ends, and the field that string named before a colon. */
  let lastString = { start: 0, end: 0 };
  let field = lastString;
  for (let i = 0; i < text.length; i += 1) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === BACKSLASH) i += 1;
      else if (char === QUOTE) {
        inString = false;
        if (depth === 1) lastString = { start: lastString.start, end: i + 1 };
      }
    } else if (char === QUOTE) {
      inString = true;
      if (depth === 1) lastString = { start: i, end: i };
    } else if (char === COLON && depth === 1) {
      field = lastString;
    } else if (OPEN.has(char)) {
      if (depth === 0) isObject = char === 0x7b;
      depth += 1;
      // The body itself is the first level: a field's value nests `depth - 1` levels.
      if (depth - 1 > limit) return isObject ? fieldName(text.slice(field.start, field.end)) : '';
    } else if (CLOSE.has(char)) {
      depth -= 1;
    }
  }
  return undefined;
}

/** A field name as written in JSON (escapes decoded); as written when it does not decode. */
function fieldName(quoted: string): string {
  try {
    const name: unknown = JSON.parse(quoted);
    return typeof name === 'string' ? name : quoted;
  } catch {
    return quoted;
  }
}
