/** Portal routes take the identity provider's bearer token (OpenAPI security requirement). */
export const portalSecurity = [{ portalBearer: [] }];
