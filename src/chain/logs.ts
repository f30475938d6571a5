import {
  decodeEventLog,
  getAddress,
  numberToHex,
  parseAbi,
  toEventSelector,
  TransactionReceiptNotFoundError,
  type Address,
  type Hash,
  type PublicClient,
  type RpcLog,
} from 'viem';
import { FUNGIBLE_TOKEN_ID, type TokenMovement, type TransferLog } from '../domain/transfers';

/**
 * Raw token logs: ERC-20 and ERC-721 `Transfer` share one signature (and so topic0); only the
 * number of indexed arguments tells them apart (3 topics vs 4). viem's typed getLogs decodes an
 * ERC-721 Transfer against the ERC-20 event and loses the token id, hence raw `eth_getLogs` here.
 */
const erc20Transfer = parseAbi(['event Transfer(address indexed from, address indexed to, uint256 value)']);
const erc721Transfer = parseAbi(['event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)']);
const erc1155Transfers = parseAbi([
  'event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)',
  'event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)',
]);

export const TRANSFER_TOPIC = toEventSelector('Transfer(address,address,uint256)');
export const TRANSFER_SINGLE_TOPIC = toEventSelector('TransferSingle(address,address,address,uint256,uint256)');
export const TRANSFER_BATCH_TOPIC = toEventSelector('TransferBatch(address,address,address,uint256[],uint256[])');

/** The movements of one raw log, or null when it is none of the three events or does not decode. */
function movementsOf(log: Pick<RpcLog, 'topics' | 'data'>): TokenMovement[] | null {
  const [topic0] = log.topics;
  try {
    if (topic0 === TRANSFER_TOPIC && log.topics.length === 3) {
      const { args } = decodeEventLog({ abi: erc20Transfer, topics: log.topics, data: log.data });
      return [{ from: args.from, to: args.to, tokenId: FUNGIBLE_TOKEN_ID, amount: args.value }];
    }
    if (topic0 === TRANSFER_TOPIC && log.topics.length === 4) {
      const { args } = decodeEventLog({ abi: erc721Transfer, topics: log.topics, data: log.data });
      return [{ from: args.from, to: args.to, tokenId: args.tokenId.toString(), amount: 1n }];
    }
    if (topic0 === TRANSFER_SINGLE_TOPIC || topic0 === TRANSFER_BATCH_TOPIC) {
      const decoded = decodeEventLog({ abi: erc1155Transfers, topics: log.topics, data: log.data });
      if (decoded.eventName === 'TransferSingle') {
        const { from, to, id, value } = decoded.args;
        return [{ from, to, tokenId: id.toString(), amount: value }];
      }
      const { from, to, ids, values } = decoded.args;
      if (ids.length !== values.length) return null; // not a well-formed ERC-1155 batch
      return ids.map((id, index) => ({ from, to, tokenId: id.toString(), amount: values[index] ?? 0n }));
    }
  } catch {
    // A contract may emit an event with the same topic0 but another layout (e.g. anonymous or
    // non-indexed arguments): it is not a token movement the indexer can account for.
  }
  return null;
}

/**
 * Decodes one `eth_getLogs` entry; null for pending or removed (reorged) logs and for logs that
 * are no token transfer. Addresses come back checksummed.
 */
export function decodeTransferLog(log: RpcLog): TransferLog | null {
  if (log.removed || log.blockNumber === null || log.logIndex === null) return null;
  const movements = movementsOf(log);
  if (!movements) return null;
  return {
    address: getAddress(log.address),
    blockNumber: Number(BigInt(log.blockNumber)),
    logIndex: Number(BigInt(log.logIndex)),
    movements: movements.map((movement) => ({ ...movement, from: getAddress(movement.from), to: getAddress(movement.to) })),
  };
}

/** Transfer, TransferSingle and TransferBatch logs of `addresses` in [fromBlock, toBlock], in chain order. */
export async function fetchTransferLogs(
  client: PublicClient,
  range: { addresses: readonly Address[]; fromBlock: number; toBlock: number },
): Promise<TransferLog[]> {
  if (range.addresses.length === 0) return [];
  const raw = await client.request({
    method: 'eth_getLogs',
    params: [
      {
        address: [...range.addresses],
        fromBlock: numberToHex(range.fromBlock),
        toBlock: numberToHex(range.toBlock),
        topics: [[TRANSFER_TOPIC, TRANSFER_SINGLE_TOPIC, TRANSFER_BATCH_TOPIC]],
      },
    ],
  });
  const logs = raw.map(decodeTransferLog).filter((log): log is TransferLog => log !== null);
  return logs.sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex);
}

/** The hash of block 0: it identifies the chain's history (a restarted local node gets a new one). */
export async function genesisHash(client: PublicClient): Promise<Hash> {
  const block = await client.getBlock({ blockNumber: 0n });
  if (!block.hash) throw new Error('the chain returned block 0 without a hash');
  return block.hash;
}

/** The block a transaction was mined in, or null when this chain does not know it (e.g. a reset local node). */
export async function minedBlockOf(client: PublicClient, hash: Hash): Promise<number | null> {
  try {
    const receipt = await client.getTransactionReceipt({ hash });
    return Number(receipt.blockNumber);
  } catch (error) {
    if (error instanceof TransactionReceiptNotFoundError) return null;
    throw error;
  }
}
