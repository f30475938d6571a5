/**
 * Reading your own writes (docs/INTEGRATION.md): the API answers every request on a tenant's data
 * with `X-D1-Bookmark`, where the request left the tenant's database. The client sends back the
 * last one it received, so its next read sees at least what it wrote, even when a nearer copy of
 * the database answers it. Kept per tenant: a bookmark belongs to the database of its tenant.
 */
export const BOOKMARK_HEADER = 'X-D1-Bookmark';

/** The tenant a portal URL is about (`/tenant/{tenantId}/...`); undefined for platform paths. */
export function tenantOfPortalUrl(url: string): string | undefined {
  return /\/tenant\/([^/?#]+)/.exec(new URL(url).pathname)?.[1];
}

/** The client's last bookmark per tenant scope (`scopeOf` names it from the URL; undefined: none). */
export function bookmarkKeeper(scopeOf: (url: string) => string | undefined) {
  const last = new Map<string, string>();
  return {
    /** The headers with the scope's last bookmark, unless the caller set one. */
    stamp(url: string, headers: Headers): void {
      const scope = scopeOf(url);
      const bookmark = scope === undefined ? undefined : last.get(scope);
      if (bookmark !== undefined && !headers.has(BOOKMARK_HEADER)) headers.set(BOOKMARK_HEADER, bookmark);
    },
    /** Keeps the answer's bookmark for its scope. */
    keep(url: string, response: Response): Response {
      const scope = scopeOf(url);
      const bookmark = response.headers.get(BOOKMARK_HEADER);
      if (scope !== undefined && bookmark) last.set(scope, bookmark);
      return response;
    },
  };
}
