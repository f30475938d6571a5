import { BaseError } from 'viem';
import { describe, expect, it } from 'vitest';
import { reasonOf } from '../../src/lib/error-reason';

describe('reasonOf (src/lib/error-reason.ts)', () => {
  it('never repeats an RPC URL', () => {
    const text = reasonOf(new Error('request to https://base-sepolia.example/v2/SECRETKEY failed'));
    expect(text).not.toContain('SECRETKEY');
    expect(text).toContain('<rpc url>');
  });

  it("keeps a viem error's short message and details, not its full message with the URL", () => {
    const error = new BaseError('execution reverted', { details: 'nonce too low' });
    expect(error.message).toContain('nonce too low');
    expect(reasonOf(error)).toBe('execution reverted: nonce too low');
  });

  it('is cut short', () => {
    expect(reasonOf(new Error('x'.repeat(1000)))).toHaveLength(300);
  });
});
