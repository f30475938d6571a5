/** All three gateway headers are required together (OpenAPI: one requirement object). */
export const gatewaySecurity = [{ gatewayKey: [], gatewayTimestamp: [], gatewaySignature: [] }];
