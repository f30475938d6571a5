import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts';
import { allocateNonce } from '../../src/data/relayer-nonces';
import { newId } from '../../src/lib/ids';
import { directory } from '../support/world';

/**
 * One relayer signs for every shard, so its nonces are handed out by the directory
 * (src/data/relayer-nonces.ts, decision 0109): whatever shard an operation lives in, no two get
 * one nonce, and asking again for an operation gives back its nonce rather than a second one.
 */
const now = () => new Date().toISOString();
const relayerRequest = (chainNextNonce: number) => ({
  chainId: 31337,
  relayer: privateKeyToAccount(generatePrivateKey()).address,
  chainNextNonce,
  genesisHash: '0xgenesis',
});

describe('relayer nonces, shared by every shard', () => {
  it('gives 24 operations asked for at once 24 different nonces, in one unbroken run from the chain\'s next', async () => {
    const request = relayerRequest(7);
    const operations = Array.from({ length: 24 }, () => newId('op'));
    const nonces = await Promise.all(operations.map((operationId) => allocateNonce(directory(), operationId, request, now())));
    expect([...nonces].sort((a, b) => a - b)).toEqual(Array.from({ length: 24 }, (_, index) => 7 + index));
  });

  it('gives an operation asked for again (at once, or after) the nonce it was given, and burns none', async () => {
    const request = relayerRequest(0);
    const operationId = newId('op');
    const [first, second, third] = await Promise.all([1, 2, 3].map(() => allocateNonce(directory(), operationId, request, now())));
    expect(new Set([first, second, third])).toEqual(new Set([0]));
    expect(await allocateNonce(directory(), operationId, request, now())).toBe(0);
    expect(await allocateNonce(directory(), newId('op'), request, now())).toBe(1);
  });

  it('follows the chain forward, never back (a nonce used outside the platform is skipped)', async () => {
    const request = relayerRequest(3);
    expect(await allocateNonce(directory(), newId('op'), request, now())).toBe(3);
    expect(await allocateNonce(directory(), newId('op'), { ...request, chainNextNonce: 10 }, now())).toBe(10);
    expect(await allocateNonce(directory(), newId('op'), { ...request, chainNextNonce: 2 }, now())).toBe(11);
    const stored = await env.DB.prepare('SELECT next_nonce AS next FROM relayer_nonces WHERE address = ?').bind(request.relayer).first<{ next: number }>();
    expect(stored?.next).toBe(12);
  });
});
