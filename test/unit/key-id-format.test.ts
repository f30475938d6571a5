import { describe, expect, it } from 'vitest';
import { generateCredential, KEY_ID_FORMAT } from '../../src/domain/api-keys';

describe('KEY_ID_FORMAT (the gateway refuses any other X-Tenant-Key before a lookup)', () => {
  it('accepts every key id generateCredential issues', () => {
    for (let i = 0; i < 1000; i += 1) expect(generateCredential().keyId).toMatch(KEY_ID_FORMAT);
  });

  it.each(['key_', `key_${'a'.repeat(19)}`, `key_${'a'.repeat(21)}`, `key_${'a'.repeat(19)}1`, `KEY_${'a'.repeat(20)}`, ` key_${'a'.repeat(20)}`])('refuses %j', (value) => {
    expect(value).not.toMatch(KEY_ID_FORMAT);
  });
});
