import { CsvError, parse } from 'csv-parse/stream';
import type { ImportKind } from '../db/schema';
import { fileWriter } from '../data/files';
import { checkImportHeader, IMPORT_CHUNK_ROWS, MAX_IMPORT_BYTES } from '../domain/imports';
import { ApiError } from '../lib/errors';

/** How the file is read everywhere (the upload and each chunk): RFC 4180 quoting, a BOM or none, CRLF or LF. */
export const CSV_OPTIONS = { bom: true, relax_column_count: true, skip_empty_lines: true } as const;

/** What reading an upload learned: enough to split it into chunks without reading it again. */
export type ReadUpload = {
  sha256: string;
  bytes: number;
  columns: string[];
  attributeKeys: string[];
  rows: number;
  /** Byte offsets: chunk k is the bytes [offsets[k], offsets[k + 1]). */
  offsets: number[];
};

type Parsed = { record: string[]; info: { bytes: number } };

/**
 * Streams the request body into R2 under `key` while hashing it (SHA-256) and parsing it as CSV
 * (csv-parse's WHATWG stream), never holding the file: the header is checked as soon as it is read
 * (422 naming the column), rows are only counted and their byte offsets noted every
 * IMPORT_CHUNK_ROWS rows. More than MAX_IMPORT_BYTES is 413 whether or not Content-Length said so;
 * a file that is not CSV (an unclosed quote, ...) is 422. On any refusal nothing is stored.
 */
export async function readUpload(kind: ImportKind, body: ReadableStream<Uint8Array>, files: R2Bucket, key: string): Promise<ReadUpload> {
  const file = fileWriter(files, key, 'text/csv');
  const digest = new crypto.DigestStream('SHA-256');
  const hash = digest.getWriter();
  // Settled either way: a refused upload aborts the digest, and nothing else awaits it then.
  const sha256 = digest.digest.then(hex, () => '');
  // Fatal: a byte sequence that is not UTF-8 refuses the file rather than becoming U+FFFD in a name.
  const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let bytes = 0;
  const meter = new TransformStream<Uint8Array, Uint8Array>({
    async transform(chunk, controller) {
      bytes += chunk.byteLength;
      if (bytes > MAX_IMPORT_BYTES) throw tooLarge();
      utf8.decode(chunk, { stream: true });
      await Promise.all([hash.write(chunk), file.write(chunk)]);
      controller.enqueue(chunk);
    },
  });
  let columns: string[] | undefined;
  let attributeKeys: string[] = [];
  let rows = 0;
  const offsets: number[] = [];
  const records = body.pipeThrough(meter).pipeThrough(parse({ ...CSV_OPTIONS, info: true }) as unknown as TransformStream<Uint8Array, Parsed>);
  const reader = records.getReader();
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      const { record, info } = next.value;
      if (!columns) {
        columns = record.map((name) => name.trim());
        attributeKeys = checkImportHeader(kind, columns);
        offsets.push(info.bytes);
        continue;
      }
      rows += 1;
      if (rows % IMPORT_CHUNK_ROWS === 0) offsets.push(info.bytes);
    }
    utf8.decode();
    if (!columns) throw new ApiError('VALIDATION_FAILED', 'The file is empty: a header row is required', { path: 'header' });
    if (rows % IMPORT_CHUNK_ROWS !== 0) offsets.push(bytes);
    await hash.close();
    await file.close();
  } catch (error) {
    await Promise.allSettled([reader.cancel(error), file.abort(), hash.abort()]);
    throw refusal(error);
  }
  return { sha256: await sha256, bytes, columns, attributeKeys, rows, offsets };
}

const tooLarge = () => new ApiError('PAYLOAD_TOO_LARGE', `The file exceeds ${MAX_IMPORT_BYTES} bytes (50 MiB)`);

/** The caller's fault as an ApiError (a parse error names its line); anything else as it was. */
function refusal(error: unknown): unknown {
  if (error instanceof ApiError) return error;
  if (error instanceof CsvError) return new ApiError('VALIDATION_FAILED', `The file is not valid CSV: ${error.message}`, { path: 'body' });
  if (error instanceof TypeError && /decode|utf-?8|encoded/i.test(error.message)) return new ApiError('VALIDATION_FAILED', 'The file is not UTF-8', { path: 'body' });
  return error;
}

const hex = (buffer: ArrayBuffer) => [...new Uint8Array(buffer)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
