// Per-tool vectors packed side by side in one byte array (a slab), and the writer and
// the reader of its numbers. A small typed array per tool would carry about 180 bytes of
// object overhead (the view and its buffer) besides its data: at 10,000 tools, more than
// the data itself. An index build reads the arrivals' vectors from a slab, and keeps the
// first sentences of their descriptions in one of its own.

/**
 * The vectors of one index's tools, in catalog order: vector `doc` is
 * `bytes[starts[doc]..starts[doc + 1])`.
 *
 * @internal
 */
export interface VectorSlab {
  /** The term dictionary generation the vectors were made with. */
  readonly generation: number;
  readonly bytes: Uint8Array;
  readonly starts: Uint32Array;
}

/**
 * Writes the vectors of one slab in order: each vector is written (or copied from
 * another slab), then closed with {@link SlabWriter.end}.
 *
 * @internal
 */
export class SlabWriter {
  /** The bytes written so far (grown on demand; `length` of them are used). */
  bytes: Uint8Array;
  length = 0;
  private readonly starts: Uint32Array;
  private doc = 0;

  /**
   * @param count - the number of vectors the slab will hold
   * @param capacity - the bytes to start with (grown on demand)
   * @throws the `RangeError` of `Uint32Array` for a count beyond the array size limit
   */
  constructor(
    readonly count: number,
    capacity: number,
  ) {
    this.bytes = new Uint8Array(Math.max(64, capacity));
    this.starts = new Uint32Array(count + 1);
  }

  /**
   * Makes room for `extra` more bytes.
   *
   * @throws the `RangeError` of `Uint8Array` when the slab would pass the array size limit
   */
  ensure(extra: number): void {
    const needed = this.length + extra;
    if (needed <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(needed, this.bytes.length * 2));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }

  /**
   * Appends an unsigned integer below 2^32 in 7-bit groups, low first (1 to 5 bytes);
   * the caller has made room ({@link SlabWriter.ensure}).
   *
   * @throws nothing
   */
  varint(value: number): void {
    const bytes = this.bytes;
    let at = this.length;
    let rest = value >>> 0;
    while (rest >= 0x80) {
      bytes[at++] = (rest & 0x7f) | 0x80;
      rest >>>= 7;
    }
    bytes[at++] = rest;
    this.length = at;
  }

  /**
   * Appends one byte; the caller has made room.
   *
   * @throws nothing
   */
  byte(value: number): void {
    this.bytes[this.length++] = value;
  }

  /**
   * Appends an unsigned 32-bit integer, 4 bytes little-endian; the caller has made room.
   *
   * @throws nothing
   */
  uint32(value: number): void {
    const bytes = this.bytes;
    const at = this.length;
    bytes[at] = value;
    bytes[at + 1] = value >>> 8;
    bytes[at + 2] = value >>> 16;
    bytes[at + 3] = value >>> 24;
    this.length = at + 4;
  }

  /**
   * Closes the current vector.
   *
   * @throws {@link RangeError} when more vectors are closed than the slab holds
   */
  end(): void {
    if (this.doc >= this.count) throw new RangeError('SlabWriter: more vectors than its count');
    this.starts[++this.doc] = this.length;
  }

  /**
   * Copies the vectors `from..to` (exclusive) of another slab as the next vectors.
   *
   * @throws {@link RangeError} when more vectors are copied than the slab holds
   */
  copy(slab: VectorSlab, from: number, to: number): void {
    if (this.doc + (to - from) > this.count) {
      throw new RangeError('SlabWriter: more vectors than its count');
    }
    const begin = slab.starts[from]!;
    const size = slab.starts[to]! - begin;
    this.ensure(size);
    this.bytes.set(slab.bytes.subarray(begin, begin + size), this.length);
    const shift = this.length - begin;
    for (let doc = from + 1; doc <= to; doc++) this.starts[++this.doc] = slab.starts[doc]! + shift;
    this.length += size;
  }

  /**
   * The slab: the bytes written, trimmed to their length.
   *
   * @param generation - the term dictionary generation of the vectors
   * @throws {@link RangeError} when fewer vectors were written than the slab's count
   */
  finish(generation: number): VectorSlab {
    if (this.doc !== this.count) {
      throw new RangeError(`SlabWriter: ${this.doc} of ${this.count} vectors written`);
    }
    return {
      generation,
      bytes: this.bytes.slice(0, this.length),
      starts: this.starts,
    };
  }
}

/**
 * Reads the numbers {@link SlabWriter} writes, from a position that moves past what it
 * reads. One reader serves a whole index build, or every search of an index (searches
 * are synchronous), so reading allocates nothing per vector or per number.
 *
 * @internal
 */
export class SlabReader {
  /** The position of the next byte to read. */
  position = 0;

  /**
   * @param bytes - the bytes of a slab
   * @throws nothing
   */
  constructor(readonly bytes: Uint8Array) {}

  /**
   * The varint at {@link SlabReader.position}, which moves past it.
   *
   * @throws nothing
   */
  varint(): number {
    const bytes = this.bytes;
    let at = this.position;
    let byte = bytes[at++]!;
    if (byte < 0x80) {
      this.position = at;
      return byte;
    }
    let value = byte & 0x7f;
    let shift = 7;
    do {
      byte = bytes[at++]!;
      value |= (byte & 0x7f) << shift;
      shift += 7;
    } while (byte >= 0x80);
    this.position = at;
    return value >>> 0;
  }

  /**
   * The 4-byte little-endian integer at {@link SlabReader.position}, which moves past it.
   *
   * @throws nothing
   */
  uint32(): number {
    const bytes = this.bytes;
    const at = this.position;
    this.position = at + 4;
    return (
      (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0
    );
  }
}
