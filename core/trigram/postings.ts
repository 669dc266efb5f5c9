/**
 * Builds trigram posting lists in memory within a bounded budget. Each posting (a trigram in a
 * unit of a file) carries two masks beside the unit id, after Russ Cox's "trigram +
 * next-character masks" notes: bit `p mod 8` for every offset `p` where the trigram starts in the
 * file, and bit {@linkcode nextByteBit} of every byte that follows it. A literal then needs its
 * trigrams at a common alignment and followed by its own next bytes, not merely present
 * (`reader.ts`). The ids are those of units (`format.ts`): a file of many units lists each
 * trigram once per unit where it starts, with that unit's masks (offsets still counted from the
 * file's start). Files are added in unit order; every CHUNK_PAIRS (trigram, unit) pairs are
 * sorted by trigram (a counting sort, so the ids stay ascending) into an encoded segment, and the
 * segments are merged into one sorted table at the end. Peak memory is the encoded postings
 * (twice, while merging) plus up to three 64 MiB tables indexed by trigram, of which only the
 * pages of trigrams that occur are touched.
 *
 * @module
 */
import { UNIT_BYTES, varintLength, writeVarint } from "./format.ts";

/** Every trigram value (24 bits). */
const TRIGRAM_SPACE = 1 << 24;
/** (trigram, unit) pairs gathered before they are sorted into a segment. */
const CHUNK_PAIRS = 1 << 23;
/** Bytes of masks after each id of a posting list: the offset mask, then the next-byte mask. */
export const MASK_BYTES = 2;

/**
 * The bit (0-7) a byte sets in a next-byte mask. ASCII letters share their case's bit, so a
 * case-insensitive literal checks one bit per position.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { nextByteBit } from "./postings.ts";
 * assert.equal(nextByteBit(0x41), nextByteBit(0x61)); // "A" and "a"
 * ```
 */
export function nextByteBit(byte: number): number {
  const folded = byte >= 0x41 && byte <= 0x5a ? byte | 0x20 : byte;
  return ((folded * 0x9e) >>> 5) & 7;
}

/** One sorted run of posting lists, for the files added since the previous segment. */
interface Segment {
  /** Trigrams, ascending. */
  trigrams: Uint32Array;
  /** End offset of each trigram's list in `bytes`. */
  ends: Uint32Array;
  /** The last id of each list. */
  lastIds: Uint32Array;
  /** Lists: the first id as a varint, then the gaps, each id followed by its masks. */
  bytes: Uint8Array;
}

/** The merged table's layout, in the index file's terms. */
export interface PostingLayout {
  /** Trigrams, ascending. */
  trigrams: Uint32Array;
  /** Byte offset of each list in the lists, plus their end. */
  offsets: Uint32Array;
}

/** Reads the varint at `at`: its value and its length. */
function readVarint(bytes: Uint8Array, at: number): [number, number] {
  let value = 0;
  let scale = 1;
  let length = 0;
  for (;;) {
    const byte = bytes[at + length++];
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) return [value, length];
    scale *= 128;
  }
}

/** How a {@linkcode PostingBuilder} cuts files and its work. */
export interface PostingBuilderOptions {
  /** Bytes of a unit (`format.ts`); UNIT_BYTES when absent. */
  unitBytes?: number;
  /** (trigram, unit) pairs gathered before they are sorted into a segment. */
  chunkPairs?: number;
}

/**
 * Gathers the trigrams of files and produces the posting table.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { PostingBuilder } from "./postings.ts";
 * const builder = new PostingBuilder();
 * builder.add(0, new TextEncoder().encode("abcd"));
 * assert.equal(builder.finish().trigrams.length, 2); // "abc", "bcd"
 * ```
 */
export class PostingBuilder {
  /**
   * Per trigram, one plus the index of its last pair: that pair is the current file's own when
   * it lies among the file's pairs and names the trigram (each file lists a trigram once).
   * Zero means none: the table is never filled, so only the pages of trigrams that occur are
   * ever touched (a small tree costs little memory).
   */
  #lastPair: Int32Array | undefined = new Int32Array(TRIGRAM_SPACE);
  /** Per trigram: a count, then a cursor, while a segment is sorted; zero between. */
  readonly #counts = new Uint32Array(TRIGRAM_SPACE);
  #pairTrigrams: Uint32Array;
  #pairIds: Uint32Array;
  /** Per pair: the offset mask (low byte) and the next-byte mask (high byte). */
  #pairMasks: Uint16Array;
  #pairs = 0;
  readonly #segments: Segment[] = [];
  readonly #unitBytes: number;

  /** A builder cutting files into units of `unitBytes`, sorting every `chunkPairs` pairs. */
  constructor({ unitBytes = UNIT_BYTES, chunkPairs = CHUNK_PAIRS }: PostingBuilderOptions = {}) {
    this.#unitBytes = unitBytes;
    this.#pairTrigrams = new Uint32Array(chunkPairs);
    this.#pairIds = new Uint32Array(chunkPairs);
    this.#pairMasks = new Uint16Array(chunkPairs);
  }

  /**
   * Adds the distinct trigrams of each unit of a file, with their masks; its first unit is
   * `firstUnit` (units must ascend across calls: `format.ts`'s `unitsOf` says how many a file
   * takes).
   */
  add(firstUnit: number, bytes: Uint8Array): void {
    if (bytes.length < 3) return;
    if (this.#pairs + bytes.length > this.#pairTrigrams.length) this.#flush();
    if (bytes.length > this.#pairTrigrams.length) {
      this.#pairTrigrams = new Uint32Array(bytes.length);
      this.#pairIds = new Uint32Array(bytes.length);
      this.#pairMasks = new Uint16Array(bytes.length);
    }
    const lastPair = this.#lastPair!;
    const trigrams = this.#pairTrigrams;
    const ids = this.#pairIds;
    const masks = this.#pairMasks;
    const unitBytes = this.#unitBytes;
    let unit = firstUnit;
    let unitEnd = unitBytes;
    /** The unit's first pair: a trigram's last pair before it is another unit's. */
    let first = this.#pairs;
    let pairs = first;
    let trigram = (bytes[0] << 8) | bytes[1];
    for (let i = 2; i < bytes.length; i++) {
      trigram = ((trigram << 8) | bytes[i]) & 0xffffff;
      if (i - 2 === unitEnd) {
        unit++;
        unitEnd += unitBytes;
        first = pairs;
      }
      let pair = lastPair[trigram] - 1;
      if (pair < first || pair >= pairs || trigrams[pair] !== trigram) {
        pair = pairs++;
        lastPair[trigram] = pair + 1;
        trigrams[pair] = trigram;
        ids[pair] = unit;
        masks[pair] = 0;
      }
      const next = i + 1 < bytes.length ? 0x100 << nextByteBit(bytes[i + 1]) : 0;
      masks[pair] |= (1 << ((i - 2) & 7)) | next;
    }
    this.#pairs = pairs;
  }

  /** Sorts the pending pairs into a segment. */
  #flush(): void {
    const pairs = this.#pairs;
    if (pairs === 0) return;
    const counts = this.#counts;
    const trigrams = this.#pairTrigrams;
    const distinct: number[] = [];
    for (let p = 0; p < pairs; p++) {
      if (counts[trigrams[p]]++ === 0) distinct.push(trigrams[p]);
    }
    const sorted = Uint32Array.from(distinct).sort();
    let start = 0;
    for (const trigram of sorted) {
      const count = counts[trigram];
      counts[trigram] = start;
      start += count;
    }
    const ordered = new Uint32Array(pairs);
    const orderedMasks = new Uint16Array(pairs);
    for (let p = 0; p < pairs; p++) {
      const at = counts[trigrams[p]]++;
      ordered[at] = this.#pairIds[p];
      orderedMasks[at] = this.#pairMasks[p];
    }
    this.#segments.push(encodeSegment(sorted, counts, ordered, orderedMasks));
    for (const trigram of sorted) counts[trigram] = 0;
    this.#pairs = 0;
  }

  /**
   * Sorts the last pairs and lays out the merged table: its trigrams and the offset of each list
   * (the builder then only writes the lists, with {@linkcode PostingBuilder.writeLists}).
   */
  finish(): PostingLayout {
    this.#flush();
    this.#lastPair = undefined;
    const sizes = this.#counts;
    this.#visitParts(new Int32Array(TRIGRAM_SPACE), (trigram, length) => sizes[trigram] += length);
    let trigramCount = 0;
    for (let t = 0; t < TRIGRAM_SPACE; t++) if (sizes[t] > 0) trigramCount++;
    const trigrams = new Uint32Array(trigramCount);
    const offsets = new Uint32Array(trigramCount + 1);
    let total = 0;
    for (let t = 0, i = 0; t < TRIGRAM_SPACE; t++) {
      if (sizes[t] === 0) continue;
      if (total + sizes[t] > 0xffffffff) throw new RangeError("posting lists exceed 4 GiB");
      trigrams[i] = t;
      offsets[i++] = total;
      total += sizes[t];
      sizes[t] = 0;
    }
    offsets[trigramCount] = total;
    return { trigrams, offsets };
  }

  /**
   * Writes the merged lists of `layout` in order, through `write`, in chunks of `chunkBytes`
   * (the last one shorter), each reused once `write` returns: no list of the whole table is
   * ever held at once (on the Linux tree that would be 400 MB beside the segments).
   */
  writeLists(
    layout: PostingLayout,
    write: (chunk: Uint8Array) => void,
    chunkBytes = 1 << 20,
  ): void {
    const segments = this.#segments;
    const next = segments.map(() => 0);
    const starts = segments.map(() => 0);
    const chunk = new Uint8Array(chunkBytes);
    let used = 0;
    const put = (bytes: Uint8Array) => {
      for (let at = 0; at < bytes.length;) {
        const taken = Math.min(bytes.length - at, chunkBytes - used);
        chunk.set(bytes.subarray(at, at + taken), used);
        used += taken;
        at += taken;
        if (used === chunkBytes) {
          write(chunk);
          used = 0;
        }
      }
    };
    const head = new Uint8Array(5);
    for (const trigram of layout.trigrams) {
      let previous = -1;
      segments.forEach((segment, s) => {
        const i = next[s];
        if (i >= segment.trigrams.length || segment.trigrams[i] !== trigram) return;
        const [firstId, firstLength] = readVarint(segment.bytes, starts[s]);
        const headLength = writeVarint(head, 0, previous < 0 ? firstId : firstId - previous);
        put(head.subarray(0, headLength));
        put(segment.bytes.subarray(starts[s] + firstLength, segment.ends[i]));
        previous = segment.lastIds[i];
        starts[s] = segment.ends[i];
        next[s] = i + 1;
      });
    }
    if (used > 0) write(chunk.subarray(0, used));
  }

  /**
   * Calls `visit` for each segment's part of each trigram, in segment order, with the length
   * the part takes once its first id is written as the gap to the previous segment's last id.
   */
  #visitParts(lastIds: Int32Array, visit: (trigram: number, length: number) => void): void {
    for (const segment of this.#segments) {
      let start = 0;
      for (let i = 0; i < segment.trigrams.length; i++) {
        const trigram = segment.trigrams[i];
        const end = segment.ends[i];
        const [firstId, firstLength] = readVarint(segment.bytes, start);
        // Stored plus one: zero means no earlier segment held the trigram.
        const previous = lastIds[trigram] - 1;
        const head = previous < 0 ? firstLength : varintLength(firstId - previous);
        visit(trigram, head + end - start - firstLength);
        lastIds[trigram] = segment.lastIds[i] + 1;
        start = end;
      }
    }
  }
}

/** Encodes sorted lists: `cursors[t]` is where trigram t's ids (and masks) end. */
function encodeSegment(
  sorted: Uint32Array,
  cursors: Uint32Array,
  ids: Uint32Array,
  masks: Uint16Array,
): Segment {
  const buffer = new Uint8Array(ids.length * (5 + MASK_BYTES));
  const ends = new Uint32Array(sorted.length);
  const lastIds = new Uint32Array(sorted.length);
  let at = 0;
  let from = 0;
  for (let i = 0; i < sorted.length; i++) {
    const to = cursors[sorted[i]];
    for (let j = from; j < to; j++) {
      at = writeVarint(buffer, at, j === from ? ids[j] : ids[j] - ids[j - 1]);
      buffer[at++] = masks[j] & 0xff;
      buffer[at++] = masks[j] >>> 8;
    }
    ends[i] = at;
    lastIds[i] = ids[to - 1];
    from = to;
  }
  return { trigrams: sorted, ends, lastIds, bytes: buffer.slice(0, at) };
}

/**
 * Decodes a posting list (first id, then gaps, each followed by its masks) and calls `each`
 * with every id, its offset mask and its next-byte mask.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decodePostings } from "./postings.ts";
 * const ids: number[] = [];
 * decodePostings(new Uint8Array([3, 1, 0, 2, 4, 0]), (id) => ids.push(id));
 * assert.deepEqual(ids, [3, 5]);
 * ```
 */
export function decodePostings(
  bytes: Uint8Array,
  each: (id: number, offsets: number, nextBytes: number) => void,
): void {
  let id = 0;
  let first = true;
  for (let at = 0; at < bytes.length;) {
    let value = 0;
    let scale = 1;
    for (;;) {
      const byte = bytes[at++];
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) break;
      scale *= 128;
    }
    id = first ? value : id + value;
    first = false;
    each(id, bytes[at], bytes[at + 1]);
    at += MASK_BYTES;
  }
}
