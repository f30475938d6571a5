/**
 * Files in R2 (binding FILES) written as they are produced, never whole in memory: an upload read
 * from the request, an error file written page by page. R2 stores a stream only of a known length,
 * so bytes are gathered into parts of PART_BYTES; a file that fits in one part is one `put`, a
 * larger one a multipart upload (R2 wants every part but the last of one size).
 */

const PART_BYTES = 8 * 1024 * 1024;

export type FileWriter = {
  write(bytes: Uint8Array): Promise<void>;
  /** Stores the file; nothing is visible under the key before. */
  close(): Promise<void>;
  /** Gives up: no file is stored and the parts already sent are discarded. */
  abort(): Promise<void>;
};

/**
 * @example
 * const file = fileWriter(env.FILES, key, 'text/csv');
 * for (const bytes of pieces) await file.write(bytes);
 * await file.close();
 */
export function fileWriter(bucket: R2Bucket, key: string, contentType: string): FileWriter {
  const httpMetadata = { contentType };
  let part = new Uint8Array(PART_BYTES);
  let filled = 0;
  let upload: R2MultipartUpload | undefined;
  const parts: R2UploadedPart[] = [];
  const sendPart = async (bytes: Uint8Array) => {
    upload ??= await bucket.createMultipartUpload(key, { httpMetadata });
    parts.push(await upload.uploadPart(parts.length + 1, bytes));
  };
  return {
    async write(bytes) {
      let offset = 0;
      while (offset < bytes.byteLength) {
        const taken = Math.min(PART_BYTES - filled, bytes.byteLength - offset);
        part.set(bytes.subarray(offset, offset + taken), filled);
        filled += taken;
        offset += taken;
        if (filled === PART_BYTES) {
          await sendPart(part);
          part = new Uint8Array(PART_BYTES);
          filled = 0;
        }
      }
    },
    async close() {
      const rest = part.subarray(0, filled);
      if (!upload) {
        await bucket.put(key, rest, { httpMetadata });
        return;
      }
      if (filled > 0) await sendPart(rest);
      await upload.complete(parts);
    },
    async abort() {
      await upload?.abort();
    },
  };
}

/** The bytes [start, end) of a stored file as text; undefined when the file is gone. */
export async function fileRangeText(bucket: R2Bucket, key: string, start: number, end: number): Promise<string | undefined> {
  if (end <= start) return '';
  const object = await bucket.get(key, { range: { offset: start, length: end - start } });
  return object ? object.text() : undefined;
}
