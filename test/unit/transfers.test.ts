import { encodeAbiParameters, encodeEventTopics, getAddress, numberToHex, pad, parseAbi, type Hex, type RpcLog } from 'viem';
import { describe, expect, it } from 'vitest';
import { decodeTransferLog, TRANSFER_BATCH_TOPIC, TRANSFER_SINGLE_TOPIC, TRANSFER_TOPIC } from '../../src/chain/logs';
import { applyDelta, confirmedHead, foldTransfers, holdingKey, planChunk, type TransferLog } from '../../src/domain/transfers';

const ZERO = '0x0000000000000000000000000000000000000000';
const ALICE = '0x1111111111111111111111111111111111111111';
const BOB = '0x2222222222222222222222222222222222222222';
const CAROL = '0x3333333333333333333333333333333333333333';
const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3';

const erc1155 = parseAbi([
  'event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)',
  'event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)',
]);

function rawLog(topics: Hex[], data: Hex, extra: Partial<RpcLog> = {}): RpcLog {
  return {
    address: TOKEN.toLowerCase() as Hex,
    blockHash: pad('0x1'),
    blockNumber: numberToHex(7),
    data,
    logIndex: numberToHex(3),
    transactionHash: pad('0x2'),
    transactionIndex: numberToHex(0),
    removed: false,
    topics: topics as [Hex, ...Hex[]],
    ...extra,
  };
}

const word = (address: string) => pad(address.toLowerCase() as Hex);

describe('decodeTransferLog', () => {
  it('reads a 3-topic Transfer as ERC-20 (amount in data, empty token id)', () => {
    const log = decodeTransferLog(rawLog([TRANSFER_TOPIC, word(ZERO), word(ALICE)], encodeAbiParameters([{ type: 'uint256' }], [10n ** 30n])));
    expect(log).toEqual({ address: TOKEN, blockNumber: 7, logIndex: 3, movements: [{ from: ZERO, to: getAddress(ALICE), tokenId: '', amount: 10n ** 30n }] });
  });

  it('reads a 4-topic Transfer as ERC-721 (token id in topic 3, amount 1)', () => {
    const log = decodeTransferLog(rawLog([TRANSFER_TOPIC, word(ALICE), word(BOB), pad(numberToHex(42))], '0x'));
    expect(log?.movements).toEqual([{ from: getAddress(ALICE), to: getAddress(BOB), tokenId: '42', amount: 1n }]);
  });

  it('reads TransferSingle and TransferBatch (one movement per id)', () => {
    const single = encodeEventTopics({ abi: erc1155, eventName: 'TransferSingle', args: { operator: CAROL, from: ZERO, to: ALICE } }) as Hex[];
    expect(single[0]).toBe(TRANSFER_SINGLE_TOPIC);
    const one = decodeTransferLog(rawLog(single, encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], [5n, 9n])));
    expect(one?.movements).toEqual([{ from: ZERO, to: getAddress(ALICE), tokenId: '5', amount: 9n }]);

    const batch = encodeEventTopics({ abi: erc1155, eventName: 'TransferBatch', args: { operator: CAROL, from: ALICE, to: BOB } }) as Hex[];
    expect(batch[0]).toBe(TRANSFER_BATCH_TOPIC);
    const many = decodeTransferLog(rawLog(batch, encodeAbiParameters([{ type: 'uint256[]' }, { type: 'uint256[]' }], [[1n, 2n, 3n], [10n, 20n, 30n]])));
    expect(many?.movements).toEqual([
      { from: getAddress(ALICE), to: getAddress(BOB), tokenId: '1', amount: 10n },
      { from: getAddress(ALICE), to: getAddress(BOB), tokenId: '2', amount: 20n },
      { from: getAddress(ALICE), to: getAddress(BOB), tokenId: '3', amount: 30n },
    ]);
  });

  it('skips removed (reorged) and pending logs, other events, and layouts that do not decode', () => {
    const transfer = [TRANSFER_TOPIC, word(ZERO), word(ALICE)];
    const amount = encodeAbiParameters([{ type: 'uint256' }], [1n]);
    expect(decodeTransferLog(rawLog(transfer, amount, { removed: true }))).toBeNull();
    expect(decodeTransferLog(rawLog(transfer, amount, { blockNumber: null }))).toBeNull();
    expect(decodeTransferLog(rawLog([pad('0xabc'), word(ZERO), word(ALICE)], amount))).toBeNull();
    expect(decodeTransferLog(rawLog([TRANSFER_TOPIC, word(ZERO)], amount))).toBeNull(); // 2 topics: neither standard
    expect(decodeTransferLog(rawLog(transfer, '0x'))).toBeNull(); // ERC-20 shape without its amount
    const mismatched = encodeEventTopics({ abi: erc1155, eventName: 'TransferBatch', args: { operator: CAROL, from: ALICE, to: BOB } }) as Hex[];
    expect(decodeTransferLog(rawLog(mismatched, encodeAbiParameters([{ type: 'uint256[]' }, { type: 'uint256[]' }], [[1n, 2n], [10n]])))).toBeNull();
  });
});

const log = (blockNumber: number, ...movements: TransferLog['movements']): TransferLog => ({ address: TOKEN, blockNumber, logIndex: 0, movements });

describe('foldTransfers', () => {
  const ours = new Set([ALICE, BOB].map((address) => address.toLowerCase()));
  const tracked = (holder: string) => ours.has(holder.toLowerCase());

  it('nets mints, transfers and burns per (holder, token id), only for tracked holders', () => {
    const deltas = foldTransfers(
      [
        log(1, { from: ZERO, to: getAddress(ALICE), tokenId: '', amount: 100n }),
        log(2, { from: getAddress(ALICE), to: CAROL, tokenId: '', amount: 30n }),
        log(3, { from: ZERO, to: BOB, tokenId: '7', amount: 1n }),
        log(4, { from: BOB, to: ALICE, tokenId: '7', amount: 1n }),
        log(5, { from: ALICE, to: ZERO, tokenId: '', amount: 20n }),
      ],
      tracked,
    );
    expect([...deltas.values()]).toEqual([
      { holder: getAddress(ALICE), tokenId: '', delta: 50n, lastBlock: 5 },
      { holder: BOB, tokenId: '7', delta: 0n, lastBlock: 4 },
      { holder: ALICE, tokenId: '7', delta: 1n, lastBlock: 4 },
    ]);
    expect(deltas.has(holdingKey(CAROL, ''))).toBe(false);
  });

  it('folds every id of a batch and leaves a self-transfer at zero', () => {
    const deltas = foldTransfers(
      [log(9, { from: ZERO, to: ALICE, tokenId: '1', amount: 2n }, { from: ZERO, to: ALICE, tokenId: '2', amount: 3n }), log(10, { from: ALICE, to: ALICE, tokenId: '1', amount: 2n })],
      tracked,
    );
    expect(deltas.get(holdingKey(ALICE, '1'))).toEqual({ holder: ALICE, tokenId: '1', delta: 2n, lastBlock: 10 });
    expect(deltas.get(holdingKey(ALICE, '2'))?.delta).toBe(3n);
  });
});

describe('applyDelta', () => {
  it('adds with BigInt past 2^53 and reports (and floors) an underflow', () => {
    expect(applyDelta(undefined, 5n)).toEqual({ balance: '5', underflow: false });
    expect(applyDelta('9007199254740993', 10n ** 18n)).toEqual({ balance: '1009007199254740993', underflow: false });
    expect(applyDelta('3', -3n)).toEqual({ balance: '0', underflow: false });
    expect(applyDelta('3', -4n)).toEqual({ balance: '0', underflow: true });
  });
});

describe('planChunk and confirmedHead', () => {
  it('starts at the earliest next block and never passes the chunk size or the confirmed head', () => {
    expect(planChunk([10, 4, 7], 100, 5)).toEqual({ from: 4, to: 8 });
    expect(planChunk([98], 100, 2000)).toEqual({ from: 98, to: 100 });
    expect(planChunk([101, 150], 100, 10)).toBeNull();
    expect(planChunk([], 100, 10)).toBeNull();
    expect(() => planChunk([0], 100, 0)).toThrow(RangeError);
  });

  it('keeps CONFIRMATIONS - 1 blocks out of reach', () => {
    expect(confirmedHead(100, 1)).toBe(100);
    expect(confirmedHead(100, 3)).toBe(98);
    expect(confirmedHead(100, 0)).toBe(100);
  });
});
