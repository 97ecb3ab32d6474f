import { Transform } from "node:stream";
import type { TransformCallback } from "node:stream";

/**
 * What React's renderToPipeableStream writes into, passing its chunks on together. React writes
 * its HTML in 2 KB pieces as they fill, then calls `flush()` once it has written all it has for now
 * (the convention of compression streams); each piece passed on alone costs a trip through the
 * web stream Remix answers with and a write to the socket. So pieces wait for the flush, and go on
 * as one: a page with nothing suspended is one chunk, each streamed boundary one more.
 */
export class CoalescingStream extends Transform {
  #pieces: Buffer[] = [];

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    this.#pieces.push(chunk);
    callback();
  }

  /** Passes on what React has written since the last flush, as one chunk. */
  flush() {
    if (this.#pieces.length === 0) return;
    const pieces = this.#pieces;
    this.#pieces = [];
    this.push(pieces.length === 1 ? pieces[0] : Buffer.concat(pieces));
  }

  override _flush(callback: TransformCallback) {
    this.flush();
    callback();
  }
}
