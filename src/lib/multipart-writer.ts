/**
 * Writes a stream of bytes into an R2 multipart upload in parts of exactly `partBytes` (the last
 * one smaller): R2 wants every part but the last of one size, at least 5 MiB, and the last no
 * larger (developers.cloudflare.com/r2/objects/multipart-objects). What it holds at any time is
 * less than one part plus the chunk being written, so the file's size never reaches memory.
 *
 * @example
 * const writer = new PartWriter(await bucket.createMultipartUpload(key), MIN_PART_BYTES);
 * await writer.write(encoder.encode(csvPage));
 * await writer.complete();
 */
export const MIN_PART_BYTES = 5 * 1024 * 1024;

export class PartWriter {
  private chunks: Uint8Array[] = [];
  private buffered = 0;
  private readonly parts: R2UploadedPart[] = [];
  /** Bytes written so far, and the most held at once (one part's copy being sent plus what waits). */
  written = 0;
  peakHeld = 0;

  constructor(
    private readonly upload: Pick<R2MultipartUpload, 'uploadPart' | 'complete' | 'abort'>,
    private readonly partBytes: number,
  ) {
    if (!Number.isInteger(partBytes) || partBytes < MIN_PART_BYTES) throw new Error(`A part is at least ${MIN_PART_BYTES} bytes`);
  }

  async write(bytes: Uint8Array): Promise<void> {
    this.chunks.push(bytes);
    this.buffered += bytes.length;
    this.written += bytes.length;
    this.peakHeld = Math.max(this.peakHeld, this.buffered);
    while (this.buffered >= this.partBytes) await this.send(this.partBytes);
  }

  /** Sends what is left as the last part (an empty file is one empty part) and completes the object. */
  async complete(): Promise<R2Object> {
    if (this.buffered > 0 || this.parts.length === 0) await this.send(this.buffered);
    return this.upload.complete(this.parts);
  }

  get partsSent(): number {
    return this.parts.length;
  }

  abort(): Promise<void> {
    return this.upload.abort();
  }

  /** Sends the first `size` bytes held as the next part, keeping the rest. */
  private async send(size: number): Promise<void> {
    const part = new Uint8Array(size);
    let filled = 0;
    while (filled < size) {
      const chunk = this.chunks[0]!;
      const take = Math.min(chunk.length, size - filled);
      part.set(chunk.subarray(0, take), filled);
      filled += take;
      if (take === chunk.length) this.chunks.shift();
      else this.chunks[0] = chunk.subarray(take);
    }
    this.buffered -= size;
    this.peakHeld = Math.max(this.peakHeld, this.buffered + 2 * size);
    this.parts.push(await this.upload.uploadPart(this.parts.length + 1, part));
  }
}
