import { z } from '@hono/zod-openapi';

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;
/** Past a hundred million rows offset paging is no use case; a bound keeps the offset a small number. */
export const MAX_PAGE = 1_000_000;

/**
 * A whole-number query parameter within [min, max]: only plain digits count (`1e3`, `0x10`, ` 5`,
 * `1.0` are a 422, as the document's `type: integer` says).
 */
export function queryInteger(min: number, max: number) {
  const digitsToNumber = (value: unknown) => (typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : value);
  return z.preprocess(digitsToNumber, z.int({ error: 'Must be a whole number' }).min(min).max(max));
}

/** `page` (1-based) and `limit` query parameters shared by every list. */
export const pageQuery = z.object({
  page: queryInteger(1, MAX_PAGE).default(1).openapi({ example: 1 }),
  limit: queryInteger(1, MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE).openapi({ example: 20 }),
});

export type PageParams = z.infer<typeof pageQuery>;

export type Page<T> = {
  items: T[];
  total_count: number;
  page: number;
  limit: number;
  total_pages: number;
  has_next_page: boolean;
};

export function offsetOf(params: PageParams): number {
  return (params.page - 1) * params.limit;
}

/** The spec's page object; `total_pages` is 0 for an empty list. */
export function pageOf<T>(items: T[], totalCount: number, params: PageParams): Page<T> {
  const totalPages = Math.ceil(totalCount / params.limit);
  return {
    items,
    total_count: totalCount,
    page: params.page,
    limit: params.limit,
    total_pages: totalPages,
    has_next_page: params.page < totalPages,
  };
}

export function pageSchema<T extends z.ZodType>(item: T) {
  return z.strictObject({
    items: z.array(item),
    total_count: z.number().int(),
    page: z.number().int(),
    limit: z.number().int(),
    total_pages: z.number().int(),
    has_next_page: z.boolean(),
  });
}

/** Rows to read for a page, from the newest end or, reversed, from the oldest end. */
export type PageWindow = { fromOldest: boolean; offset: number; limit: number };

/**
 * How to read page `params` of a newest-first list of `total` rows so that no page walks more than
 * half the list: a page past the middle is read from the oldest end (and reversed by the caller),
 * so the last page costs what the first does.
 *
 * @example pageWindow({ page: 5, limit: 20 }, 90) // { fromOldest: true, offset: 0, limit: 10 }
 */
export function pageWindow(params: PageParams, total: number): PageWindow {
  const offset = offsetOf(params);
  const end = Math.min(offset + params.limit, total);
  if (offset >= total) return { fromOldest: false, offset, limit: 0 };
  const offsetFromOldest = total - end;
  return offsetFromOldest < offset ? { fromOldest: true, offset: offsetFromOldest, limit: end - offset } : { fromOldest: false, offset, limit: params.limit };
}
