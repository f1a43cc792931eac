// Per-tool vectors packed side by side in one byte array per index (a slab), the writer
// and the reader of its numbers, and the per-tool memo that finds a tool's vector again. A small typed array per tool would
// carry about 180 bytes of object overhead (the view and its buffer) besides its data:
// at 10,000 tools, more than the data itself.

/**
 * The vectors of one index's tools, in catalog order: vector `doc` is
 * `bytes[starts[doc]..starts[doc + 1])`.
 *
 * @internal
 */
export interface VectorSlab {
  /** Unique per slab in the process: memo handles name their slab by it. */
  readonly serial: number;
  /** The term dictionary generation the vectors were made with. */
  readonly generation: number;
  readonly bytes: Uint8Array;
  readonly starts: Uint32Array;
}

let nextSerial = 1;

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
      serial: nextSerial++,
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

/** Handles are `serial * DOC_LIMIT + doc`: exact in a double below a serial of 2^27. */
const DOC_LIMIT = 2 ** 26;
const SERIAL_LIMIT = 2 ** 27;

/** Something that may still hold a slab (a `WeakRef` in production). */
export interface SlabRef {
  deref(): VectorSlab | undefined;
}

/**
 * Finds the vector of a tool object again: a `WeakMap` from the object to a handle
 * (the slab and the position in it), and the slabs themselves held weakly. A slab
 * lives as long as an index that reads it; once every index over it is dropped, it is
 * collected and the handles into it find nothing (the tool is analysed again when it
 * comes back). Every build points the handles of its tools at its own slab, so the
 * tools of live indexes stay found.
 *
 * @internal
 */
export class VectorMemo<K extends object> {
  private readonly handles = new WeakMap<K, number>();
  private readonly slabs = new Map<number, SlabRef>();
  private readonly finalizer: FinalizationRegistry<number> | undefined;

  /** The slab of the last successful {@link VectorMemo.find}. */
  found: VectorSlab | undefined;

  /**
   * @param makeRef - how slabs are held @defaultValue a `WeakRef` (tests pass their own)
   * @throws nothing
   */
  constructor(
    private readonly makeRef: (slab: VectorSlab) => SlabRef = (slab) => new WeakRef(slab),
  ) {
    this.finalizer =
      typeof FinalizationRegistry === 'function'
        ? new FinalizationRegistry((serial: number) => this.drop(serial))
        : undefined;
  }

  /** Forgets a slab whose ref is empty (a finalizer's callback, or a lookup that found it gone). */
  private drop(serial: number): void {
    if (this.slabs.get(serial)?.deref() === undefined) this.slabs.delete(serial);
  }

  /**
   * The position of a key's vector in {@link VectorMemo.found}, or -1 when the key was
   * never remembered, its slab is gone, or its slab is of another dictionary generation.
   *
   * @throws nothing
   */
  find(key: K, generation: number): number {
    const handle = this.handles.get(key);
    if (handle === undefined) return -1;
    const serial = Math.floor(handle / DOC_LIMIT);
    const slab = this.slabs.get(serial)?.deref();
    if (slab === undefined) {
      this.drop(serial);
      return -1;
    }
    if (slab.generation !== generation) return -1;
    this.found = slab;
    return handle - serial * DOC_LIMIT;
  }

  /**
   * Points each key at its vector in a slab: `keys[doc]` at vector `doc`.
   *
   * @throws nothing
   */
  remember(keys: readonly K[], slab: VectorSlab): void {
    // Past the limits a handle would not be exact: such slabs are simply not memoized.
    if (keys.length > DOC_LIMIT || slab.serial >= SERIAL_LIMIT) return;
    this.slabs.set(slab.serial, this.makeRef(slab));
    this.finalizer?.register(slab, slab.serial);
    const base = slab.serial * DOC_LIMIT;
    for (let doc = 0; doc < keys.length; doc++) this.handles.set(keys[doc]!, base + doc);
  }

  /**
   * How many slabs the memo holds refs to (live, or collected but not yet forgotten).
   *
   * @throws nothing
   */
  get slabCount(): number {
    return this.slabs.size;
  }
}
