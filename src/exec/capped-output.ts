/** Above this, even the "full" output kept for log files is cut (a runaway test must not exhaust memory). */
const FULL_OUTPUT_LIMIT = 64 * 1024 * 1024;

/**
 * Collects a byte stream keeping only its head and tail within `capBytes`, because the end of a test run
 * (the summary) matters as much as its start. Optionally also keeps everything for the log file.
 */
export class CappedOutput {
  private readonly headLimit: number;
  private readonly tailLimit: number;
  private head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private full: Buffer[] | null;
  private fullBytes = 0;
  private totalBytes = 0;

  constructor(capBytes: number, keepFull = false) {
    const cap = Math.max(2, Math.floor(capBytes));
    this.headLimit = Math.floor(cap / 2);
    this.tailLimit = cap - this.headLimit;
    this.full = keepFull ? [] : null;
  }

  /** Accepts one chunk of output, as Buffer or string. */
  push(data: Uint8Array | string): void {
    const chunk = typeof data === "string" ? Buffer.from(data) : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    this.totalBytes += chunk.length;
    this.keepFull(chunk);
    let rest = chunk;
    if (this.headBytes < this.headLimit) {
      const take = Math.min(this.headLimit - this.headBytes, rest.length);
      this.head.push(rest.subarray(0, take));
      this.headBytes += take;
      rest = rest.subarray(take);
    }
    if (rest.length > 0) this.pushTail(rest);
  }

  /** Total bytes seen, including those dropped. */
  get size(): number {
    return this.totalBytes;
  }

  /** Head and tail joined by a `[… N bytes omitted …]` marker when anything was dropped. */
  text(): string {
    const head = Buffer.concat(this.head);
    const tail = Buffer.concat(this.tail);
    if (head.length + tail.length === this.totalBytes) return Buffer.concat([head, tail]).toString("utf8");
    const headEnd = wholeCharsEnd(head);
    const tailStart = charBoundaryAfter(tail, 0);
    const omitted = this.totalBytes - headEnd - (tail.length - tailStart);
    return `${head.subarray(0, headEnd).toString("utf8")}\n[… ${omitted} bytes omitted …]\n${tail.subarray(tailStart).toString("utf8")}`;
  }

  /** Everything seen (up to a 64 MB safety limit), or undefined when not asked to keep it. */
  fullText(): string | undefined {
    if (!this.full) return undefined;
    const text = Buffer.concat(this.full).toString("utf8");
    const dropped = this.totalBytes - this.fullBytes;
    return dropped > 0 ? `${text}\n[… ${dropped} more bytes not kept …]\n` : text;
  }

  private keepFull(chunk: Buffer): void {
    if (!this.full || this.fullBytes >= FULL_OUTPUT_LIMIT) return;
    const take = Math.min(chunk.length, FULL_OUTPUT_LIMIT - this.fullBytes);
    this.full.push(chunk.subarray(0, take));
    this.fullBytes += take;
  }

  // Appends to the tail and drops from its front so it never holds more than tailLimit bytes.
  private pushTail(chunk: Buffer): void {
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    while (this.tailBytes > this.tailLimit) {
      const first = this.tail[0];
      const excess = this.tailBytes - this.tailLimit;
      if (first.length <= excess) {
        this.tail.shift();
        this.tailBytes -= first.length;
      } else {
        this.tail[0] = first.subarray(excess);
        this.tailBytes -= excess;
      }
    }
  }
}

/** The last `maxBytes` of a string, cut on a UTF-8 character boundary. */
export function lastBytes(text: string, maxBytes: number): string {
  const buf = Buffer.from(text);
  if (buf.length <= maxBytes) return text;
  const start = charBoundaryAfter(buf, buf.length - maxBytes);
  return buf.subarray(start).toString("utf8");
}

/** Decodes a buffer that was cut off at an arbitrary byte, dropping a trailing partial character. */
export function decodeCutEnd(buf: Buffer): string {
  return buf.subarray(0, wholeCharsEnd(buf)).toString("utf8");
}

// Length of the buffer without a trailing, incomplete multi-byte UTF-8 sequence.
function wholeCharsEnd(buf: Buffer): number {
  let i = buf.length - 1;
  while (i >= 0 && i >= buf.length - 4 && isContinuation(buf[i])) i--;
  if (i < 0) return buf.length;
  const lead = buf[i];
  const width = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return buf.length - i >= width ? buf.length : i;
}

// Moves a start offset forward past continuation bytes so decoding starts on a whole character.
function charBoundaryAfter(buf: Buffer, start: number): number {
  let i = start;
  while (i < buf.length && i < start + 4 && isContinuation(buf[i])) i++;
  return i;
}

function isContinuation(byte: number | undefined): boolean {
  return byte !== undefined && (byte & 0xc0) === 0x80;
}
