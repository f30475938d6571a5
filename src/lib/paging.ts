import { z } from '@hono/zod-openapi';

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;

/** `page` (1-based) and `limit` query parameters shared by every list. */
export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1).openapi({ example: 1 }),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE).openapi({ example: 20 }),
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
