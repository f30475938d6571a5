/** URL search params of list screens: the page and filters live in the URL, so a list can be linked and goes back where it was. */
export type ListSearch = { page: number };

export function pageOf(search: Record<string, unknown>): number {
  const page = Number(search.page);
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

export function textOf(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

export const PAGE_SIZE = 20;
