import type { JsonResponse } from '../../support/http';
import type { Operation } from './document';
import { bodyText, urlOf, type FuzzRequest } from './requests';

const MAX_SHOWN = 1500;

function clip(text: string): string {
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}… (${text.length} characters)` : text;
}

/** The failing request as it was sent (method, url, documented headers, body) and what came back, if anything. */
export function describeExchange(op: Operation, request: FuzzRequest, response: JsonResponse | undefined): string {
  const { text, contentType } = bodyText(request.body);
  const lines = [
    `${op.id} — ${request.kind}${request.breaks ? ` (breaks: ${request.breaks})` : ''}`,
    `  request:  ${op.method} ${urlOf(op.path, request.params, request.query)}`,
    ...(Object.keys(request.headers).length ? [`  headers:  ${JSON.stringify(request.headers)}`] : []),
    ...(text === undefined ? [] : [`  body:     ${clip(text)}${contentType === 'application/json' ? '' : `  [content-type: ${contentType ?? 'none'}]`}`]),
    `  response: ${response ? `${response.status} ${clip(response.text)}` : 'none'}`,
  ];
  return lines.join('\n');
}

export function failureMessage(seed: number, exchange: string, problems: string[]): string {
  return [
    `Fuzz: the API disagrees with its OpenAPI document. Reproduce: FUZZ_SEED=${seed} npx vitest run test/fuzz`,
    exchange,
    '  problems:',
    ...problems.map((problem) => `    - ${problem}`),
  ].join('\n');
}

/** FUZZ_SURVEY=1: every distinct problem per operation, counted, with its first exchange. */
export class Survey {
  private readonly seen = new Map<string, { count: number; example: string }>();

  record(op: Operation, problems: string[], exchange: string) {
    for (const problem of problems) {
      // Numbers and ids vary between runs of the same disagreement.
      const key = `${op.id} | ${problem.replace(/\d+/g, 'N').replace(/"[^"]*"/g, '"…"')}`;
      const entry = this.seen.get(key);
      if (entry) entry.count += 1;
      else this.seen.set(key, { count: 1, example: `${problem}\n${exchange}` });
    }
  }

  get size() {
    return this.seen.size;
  }

  toString(): string {
    return [...this.seen.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, { count, example }]) => `### ${key.split(' | ')[0]} (${count}×)\n${example}`)
      .join('\n\n');
  }
}
