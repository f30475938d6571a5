/**
 * The security headers of every CMS response (its index.html for any path, its /assets/* files).
 * The policy is the CMS's own: scripts, styles and images only from this origin, and only two
 * places to talk to, this origin (the API) and the environment's OpenID provider (discovery, the
 * code exchange and refresh-token renewals by fetch; silent renewal without a refresh token in a
 * hidden iframe). docs/decisions/0081-cms-content-security-policy.md says why each directive is what it is.
 */

/**
 * The page oidc-client-ts loads, through the provider, in a hidden iframe of the CMS itself to
 * renew a session without a refresh token: the one CMS path that may be framed, by the CMS only.
 */
const SILENT_RENEW_PATH = '/auth/silent';

/** Browser features the CMS never uses (it copies secrets with the clipboard, which stays allowed). */
const UNUSED_FEATURES = [
  'accelerometer', 'autoplay', 'camera', 'display-capture', 'encrypted-media', 'fullscreen', 'geolocation', 'gyroscope',
  'magnetometer', 'microphone', 'midi', 'payment', 'picture-in-picture', 'publickey-credentials-get', 'screen-wake-lock',
  'serial', 'usb', 'xr-spatial-tracking',
];
const PERMISSIONS_POLICY = UNUSED_FEATURES.map((feature) => `${feature}=()`).join(', ');

/**
 * Vite names every file under /assets/ by a hash of its content, so a browser may keep one for good:
 * a deploy that changes a file renames it. Saves a Worker invocation per file and page load.
 */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The origin of the configured issuer, or none (sign-in off, or a configuration the API refuses). */
export function providerOrigin(issuer: string | undefined): string | undefined {
  return issuer !== undefined && URL.canParse(issuer) ? new URL(issuer).origin : undefined;
}

function contentSecurityPolicy(provider: string | undefined, path: string): string {
  const andProvider = provider === undefined ? '' : ` ${provider}`;
  return [
    "default-src 'self'",
    "script-src 'self'",
    // React, recharts and oidc-client-ts set styles through the CSSOM, which the policy leaves alone;
    // index.html and the stylesheet carry no inline style.
    "style-src 'self'",
    // The CMS shows no image (a tier's icon URL is only text): a color or icon pointing elsewhere fetches nothing.
    "img-src 'self'",
    `connect-src 'self'${andProvider}`,
    `frame-src 'self'${andProvider}`,
    `frame-ancestors ${path === SILENT_RENEW_PATH ? "'self'" : "'none'"}`,
    "form-action 'self'",
    "base-uri 'none'",
    "object-src 'none'",
  ].join('; ');
}

/** Every security header a CMS response carries, for the request's path; `provider` from {@link providerOrigin}. */
export function cmsHeaders(provider: string | undefined, path: string): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(provider, path),
    'X-Content-Type-Options': 'nosniff',
    // For browsers without frame-ancestors.
    'X-Frame-Options': path === SILENT_RENEW_PATH ? 'SAMEORIGIN' : 'DENY',
    // CMS paths carry tenant and customer ids; nothing the CMS calls needs a Referer.
    'Referrer-Policy': 'no-referrer',
    'Permissions-Policy': PERMISSIONS_POLICY,
    'Cross-Origin-Opener-Policy': 'same-origin',
  };
}

/**
 * A built file under /assets/ as the asset server found it (200, or 304 to a revalidation); not
 * the index.html it answers a navigation to a missing /assets/ path with, nor a 404.
 */
export function isImmutableAsset(path: string, response: Response): boolean {
  const html = response.headers.get('content-type')?.startsWith('text/html') ?? false;
  return path.startsWith('/assets/') && (response.status === 200 || response.status === 304) && !html;
}
