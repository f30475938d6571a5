import { describe, expect, it } from 'vitest';
import { call, expectError, expectOk } from './support/http';
import { infoSchema } from '../src/routes/platform/info';

describe('service shell', () => {
  it('answers /info without a token', async () => {
    const res = await call('GET', '/api/v1/info');
    const data = expectOk(res, 200, infoSchema);
    expect(data.name).toBe('loyalty-platform');
  });

  it('answers an unknown route with the 404 envelope', async () => {
    expectError(await call('GET', '/api/v1/nope'), 404, 'NOT_FOUND');
  });
});
