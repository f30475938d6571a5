import { z } from '@hono/zod-openapi';
import { nullableRef } from './common';

/** How the CMS signs people in: the OpenID provider it sends them to (authorization code + PKCE). */
export const cmsOidcSchema = z
  .strictObject({
    issuer: z.string().openapi({ description: 'The OpenID provider (its discovery document is at <issuer>/.well-known/openid-configuration)', example: 'https://auth.example.com' }),
    client_id: z.string().openapi({ example: 'loyalty-cms' }),
    scope: z.string().openapi({ example: 'openid profile email' }),
  })
  .openapi('CmsOidc');

/** The CMS's runtime configuration: one build of it serves every environment. */
export const cmsConfigSchema = z
  .strictObject({
    oidc: nullableRef(cmsOidcSchema).openapi({ description: 'null: sign-in is not configured (CMS_OIDC_ISSUER and CMS_OIDC_CLIENT_ID unset)' }),
  })
  .openapi('CmsConfig');

export type CmsConfigView = z.infer<typeof cmsConfigSchema>;
