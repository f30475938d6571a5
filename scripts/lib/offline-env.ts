/**
 * The environment for wrangler processes run by `npm run dev` and `npm run bench`: keeps wrangler
 * and miniflare off the network (no metrics, no error reports, no Request.cf download, no update
 * check: the banner is where wrangler asks the npm registry for a newer version).
 */
export function offlineWranglerEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    WRANGLER_SEND_METRICS: 'false',
    WRANGLER_SEND_ERROR_REPORTS: 'false',
    CLOUDFLARE_CF_FETCH_ENABLED: 'false',
    WRANGLER_HIDE_BANNER: 'true',
    ...extra,
  };
}
