import { and, eq, notExists, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { relayerNonceAssignments, relayerNonces } from '../db/schema/directory';
import { namedBatch } from './named-batch';

export type NonceRequest = { chainId: number; relayer: string; chainNextNonce: number; genesisHash: string };

/**
 * Gives an operation its nonce, once, in the directory (one relayer signs for every shard): in one
 * D1 transaction the relayer's counter is synced with the chain (never moved back, except onto a
 * new chain), advanced only if the operation has no nonce yet, and the nonce recorded against the
 * operation, so asking again returns the same nonce and never burns a second.
 */
export async function allocateNonce(directory: Database, operationId: string, request: NonceRequest, now: string): Promise<number> {
  const { chainId, relayer, chainNextNonce, genesisHash } = request;
  const counter = and(eq(relayerNonces.chainId, chainId), eq(relayerNonces.address, relayer));
  const given = eq(relayerNonceAssignments.operationId, operationId);
  const { assigned } = await namedBatch(directory, {
    counter: directory.insert(relayerNonces).values({ chainId, address: relayer, nextNonce: chainNextNonce, genesisHash, updatedAt: now }).onConflictDoNothing(),
    synced: directory.update(relayerNonces).set({
      nextNonce: sql`case when ${relayerNonces.genesisHash} = ${genesisHash} then max(${relayerNonces.nextNonce}, ${chainNextNonce}) else ${chainNextNonce} end`,
      genesisHash,
    }).where(counter),
    advanced: directory.update(relayerNonces).set({ nextNonce: sql`${relayerNonces.nextNonce} + 1`, updatedAt: now })
      .where(and(counter, notExists(directory.select({ one: sql`1` }).from(relayerNonceAssignments).where(given)))),
    recorded: directory.insert(relayerNonceAssignments).values({
      operationId,
      chainId,
      address: relayer,
      nonce: sql`(${directory.select({ next: sql`${relayerNonces.nextNonce} - 1` }).from(relayerNonces).where(counter)})`,
      createdAt: now,
    }).onConflictDoNothing(),
    assigned: directory.select({ nonce: relayerNonceAssignments.nonce }).from(relayerNonceAssignments).where(given),
  });
  const [row] = assigned;
  if (row === undefined) throw new Error(`operation ${operationId} got no nonce`);
  return row.nonce;
}
