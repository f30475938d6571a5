import { and, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { onchainContracts } from '../db/schema/directory';

type Claim = { chainId: number; address: string; tenantId: string };

/**
 * Claims a registered contract for the tenant in the directory, across every shard, unless another
 * tenant holds it: the owner after the claim (the tenant itself, or the one that was first). The
 * shard's own triggers (src/db/sql/onchain-ownership.sql) then claim it again there, where
 * settlement reads it; this claim comes first, so no two shards ever hold one contract.
 */
export async function claimRegisteredContract(directory: Database, claim: Claim): Promise<string> {
  const [, [owner]] = await directory.batch([
    directory.insert(onchainContracts).values({ ...claim, origin: 'registered' }).onConflictDoNothing(),
    directory
      .select({ tenantId: onchainContracts.tenantId })
      .from(onchainContracts)
      .where(and(eq(onchainContracts.chainId, claim.chainId), eq(onchainContracts.address, claim.address))),
  ]);
  if (!owner) throw new Error('contract claim read back nothing');
  return owner.tenantId;
}

/**
 * A deploy's claim, in the directory when its transaction is signed (before the shard's): the
 * address follows from the relayer's nonce, which the directory handed out once, so a claim already
 * there is left from a chain that was reset (a local node) and is taken over.
 */
export async function claimDeployedContractEverywhere(directory: Database, claim: Claim): Promise<void> {
  await directory
    .insert(onchainContracts)
    .values({ ...claim, origin: 'deployed' })
    .onConflictDoUpdate({ target: [onchainContracts.chainId, onchainContracts.address], set: { tenantId: claim.tenantId, origin: 'deployed' } });
}
