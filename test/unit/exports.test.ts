import { describe, expect, it } from 'vitest';
import { signDownloadLink, verifyDownloadLink } from '../../src/auth/download-links';
import { exportRequestOf } from '../../src/domain/exports';
import { ApiError } from '../../src/lib/errors';
import { MIN_PART_BYTES, PartWriter } from '../../src/lib/multipart-writer';

/** The pure parts of exports: download link signatures, the request's rules, the part writer's sizes. */

const KEY = btoa(String.fromCharCode(...new Uint8Array(32).fill(7)));
const OTHER_KEY = btoa(String.fromCharCode(...new Uint8Array(32).fill(8)));
const NOW = new Date('2026-11-27T10:00:00.000Z');
const IN_AN_HOUR = new Date('2026-11-27T11:00:00.000Z');

describe('download links', () => {
  it('verify what was signed until it expires, and nothing altered or signed under another key', async () => {
    const link = await signDownloadLink(KEY, 'exp_a', IN_AN_HOUR);
    expect(link).toMatchObject({ exportId: 'exp_a', expires: IN_AN_HOUR.getTime() / 1000 });
    expect(await verifyDownloadLink(KEY, link, NOW)).toEqual({ ok: true });
    expect(await verifyDownloadLink(KEY, link, IN_AN_HOUR)).toEqual({ ok: false, reason: 'expired' });
    expect(await verifyDownloadLink(KEY, { ...link, exportId: 'exp_b' }, NOW)).toEqual({ ok: false, reason: 'invalid' });
    expect(await verifyDownloadLink(KEY, { ...link, expires: link.expires + 1 }, NOW)).toEqual({ ok: false, reason: 'invalid' });
    expect(await verifyDownloadLink(OTHER_KEY, link, NOW)).toEqual({ ok: false, reason: 'invalid' });
    expect(await verifyDownloadLink(KEY, { ...link, signature: 'short' }, NOW)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('says an altered link is invalid, never expired, even when its time has passed', async () => {
    const link = await signDownloadLink(KEY, 'exp_a', NOW);
    expect(await verifyDownloadLink(KEY, { ...link, exportId: 'exp_b' }, IN_AN_HOUR)).toEqual({ ok: false, reason: 'invalid' });
  });
});

describe('export requests', () => {
  const fieldOf = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      return error instanceof ApiError ? error.errors[0]!.path : 'not an ApiError';
    }
    return 'no error';
  };

  it('store the period as created_at is stored (UTC, milliseconds), so it compares as text', () => {
    expect(exportRequestOf({ kind: 'customers', from: '2026-01-01T01:00:00+01:00', to: '2026-01-01T00:00:00Z' })).toEqual({
      kind: 'customers',
      cohortId: null,
      from: '2026-01-01T00:00:00.000Z',
      to: '2026-01-01T00:00:00.000Z',
    });
  });

  it('refuse what the kind does not take, naming the field', () => {
    expect(fieldOf(() => exportRequestOf({ kind: 'cohort_members' }))).toBe('cohort_id');
    expect(fieldOf(() => exportRequestOf({ kind: 'internal_transactions', cohort_id: 'coh_a' }))).toBe('cohort_id');
    expect(fieldOf(() => exportRequestOf({ kind: 'cohort_members', cohort_id: 'coh_a', to: '2026-01-01T00:00:00Z' }))).toBe('to');
    expect(fieldOf(() => exportRequestOf({ kind: 'customers', from: '2026-01-02T00:00:00Z', to: '2026-01-01T00:00:00Z' }))).toBe('from');
  });
});

describe('PartWriter', () => {
  function fakeUpload() {
    const sizes: number[] = [];
    const bytes: number[] = [];
    return {
      sizes,
      bytes,
      upload: {
        uploadPart: async (partNumber: number, value: Uint8Array) => {
          sizes.push(value.length);
          bytes.push(...value.subarray(0, 2));
          return { partNumber, etag: `e${partNumber}` };
        },
        complete: async (parts: R2UploadedPart[]) => ({ parts }) as unknown as R2Object,
        abort: async () => undefined,
      } as unknown as Pick<R2MultipartUpload, 'uploadPart' | 'complete' | 'abort'>,
    };
  }

  it('sends parts of exactly the part size in order, the rest as a smaller last part, holding about two parts at most', async () => {
    const fake = fakeUpload();
    const writer = new PartWriter(fake.upload, MIN_PART_BYTES);
    const CHUNK = 3 * 1024 * 1024;
    for (let i = 0; i < 4; i += 1) await writer.write(new Uint8Array(CHUNK).fill(i + 1));
    await writer.complete();
    expect(fake.sizes).toEqual([MIN_PART_BYTES, MIN_PART_BYTES, 2 * 1024 * 1024]);
    // Each part starts where the one before ended: part 2 opens in the second chunk, part 3 in the fourth.
    expect(fake.bytes).toEqual([1, 1, 2, 2, 4, 4]);
    expect(writer.written).toBe(12 * 1024 * 1024);
    // One part being sent, plus what waits: never the file.
    expect(writer.peakHeld).toBeLessThanOrEqual(2 * MIN_PART_BYTES + CHUNK);
  });

  it('sends a file smaller than a part as its one (last) part, and an empty one as an empty part', async () => {
    const small = fakeUpload();
    const writer = new PartWriter(small.upload, MIN_PART_BYTES);
    await writer.write(new Uint8Array(10));
    await writer.complete();
    expect(small.sizes).toEqual([10]);
    const empty = fakeUpload();
    await new PartWriter(empty.upload, MIN_PART_BYTES).complete();
    expect(empty.sizes).toEqual([0]);
  });

  it('refuses a part size below R2 minimum', () => {
    expect(() => new PartWriter(fakeUpload().upload, MIN_PART_BYTES - 1)).toThrow(/at least/);
  });
});
