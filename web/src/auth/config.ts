/**
 * The CMS's runtime configuration, `GET /api/v1/system/cms-config` (getCmsConfig, no token), so one
 * build serves every environment. Read before any session exists, hence a client without a token.
 */
import { createPortalClient } from '../../../sdk/src';
import { ApiFailure, failureMessage } from '../api/errors';
import type { Schemas } from '../api/types';

export type CmsConfig = Schemas['CmsConfig'];
export type OidcConfig = Schemas['CmsOidc'];

export async function loadCmsConfig(baseUrl: string): Promise<CmsConfig> {
  const portal = createPortalClient({ baseUrl, token: '' });
  try {
    const result = await portal.getCmsConfig();
    if (result.error !== undefined || !result.data) throw new ApiFailure(result.response, result.error);
    return result.data.data;
  } catch (error) {
    throw new Error(`The CMS configuration could not be read: ${failureMessage(error)}`);
  }
}
