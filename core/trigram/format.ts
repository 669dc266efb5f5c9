/**
 * The on-disk layout of the repository index `<root>/.llm/trigram.idx`, shared by its writer
 * and its reader. All integers are little-endian.
 *
 * ```
 * header    HEADER_BYTES: magic, version, counts, section offsets, checksums (below)
 * meta      JSON: root, build time, the walk that listed the entries (options, diagnostics,
 *           directory and ignore-file stamps)
 * paths     UTF-8 file_paths of the walk's entries, in walk order, joined by "\n"
 * flags     u8 per entry (ENTRY_FLAGS), padded to 8 bytes
 * sizes     f64 per entry          mtimes   f64 per entry (ms)
 * hashes    32 bytes per entry (SHA-256 of the content; zero when not read)
 * trigrams  u32 per trigram, ascending (b0 << 16 | b1 << 8 | b2)
 * offsets   u32 per trigram + 1: byte offsets of each posting list in `postings`
 * blocksums u32 per POSTING_BLOCK of `postings`: checksum (`checksum.ts`) of that block
 * postings  per trigram, the ascending unit ids of the units holding it: the first id as a
 *           varint, then the gaps to the previous id as varints; each id is followed by two
 *           mask bytes: bit `p mod 8` for each offset `p` of the trigram in the file, and bit
 *           `nextByteBit(b)` for each byte `b` that follows it (`postings.ts`)
 * ```
 *
 * A unit is a piece of `unitBytes` (the header's) of one indexed file: a trigram belongs to the
 * unit where it starts. Files get units in entry order, {@linkcode unitsOf} each, so the units of
 * entry `i` follow those of the entries before it. Small files are one unit; a large one (the
 * Linux tree's generated register headers run to 30 MB) is many, so that a literal whose
 * trigrams lie in the file, but never near each other, does not make it a candidate.
 *
 * The header's own checksum and the checksum of everything from `meta` to `blocksums` (both
 * `checksum.ts`) are checked on every open; posting blocks are checked as they are read. A tool
 * that needs only the file list (discover) reads the *listing*, `meta` to `flags`, and checks
 * the header and the listing's own checksum. A file failing any check is never trusted.
 *
 * @module
 */

/** Where the index lives, relative to the root. */
export const INDEX_PATH = ".llm/trigram.idx";
/** First 8 bytes of every index file. */
export const MAGIC: Uint8Array = new TextEncoder().encode("LLMTRI\0\n");
/**
 * Format version; a reader refuses any other (3: posting masks; 4: units of large files; 5: the
 * listing's checksum, flags before sizes).
 */
export const FORMAT_VERSION = 5;
/** Bytes of the fixed header. */
export const HEADER_BYTES = 96;
/** Bytes of `postings` covered by one block checksum. */
export const POSTING_BLOCK = 16384;
/**
 * Default bytes of a unit. On the Linux 6.1 tree, 64 KiB units add 13 million postings (about
 * 10 % of the index) to the 2,437 files above it, and take `PM_RESUME`'s candidates among files
 * of 256 KiB and more from 45 files (117 MB) to 18 (14 MB) before the masks.
 */
export const UNIT_BYTES = 65536;

/** Bits of an entry's flags byte. */
export const ENTRY_FLAGS = {
  /** A directory of the walk (no postings). */
  dir: 1,
  /** A binary file (a NUL byte in the first 8 KiB): never searched, no postings. */
  binary: 2,
  /** Not read (too large or unreadable): always searched directly. */
  unindexed: 4,
  /**
   * Modified within the clock's resolution of the build: an edit in the same tick would keep
   * its stamp, so it is always searched directly (git's "racily clean" rule).
   */
  racy: 8,
} as const;

/** Header fields, as numbers. */
export interface IndexHeader {
  /** Walk entries (files and directories). */
  entryCount: number;
  /** Distinct trigrams. */
  trigramCount: number;
  /** Offset and length of the meta JSON. */
  metaOffset: number;
  /** Length of the meta JSON. */
  metaLength: number;
  /** Offset of the path blob. */
  pathsOffset: number;
  /** Length of the path blob. */
  pathsLength: number;
  /** Offset of the per-entry arrays (sizes, mtimes, hashes, flags). */
  arraysOffset: number;
  /** Offset of the trigram table (trigrams, offsets). */
  tableOffset: number;
  /** Offset of the block checksums. */
  blockSumsOffset: number;
  /** Number of posting blocks. */
  blockCount: number;
  /** Offset of the posting lists. */
  postingsOffset: number;
  /** Length of the posting lists. */
  postingsLength: number;
  /** Checksum of `[metaOffset, postingsOffset)`. */
  bodyChecksum: number;
  /** Bytes of a unit (see the module's comment). */
  unitBytes: number;
  /** Checksum of the listing, `[metaOffset, listingEnd(header))`. */
  listingChecksum: number;
}

/** The order of the header's u32 fields after magic and version. */
const FIELDS: (keyof IndexHeader)[] = [
  "entryCount",
  "trigramCount",
  "metaOffset",
  "metaLength",
  "pathsOffset",
  "pathsLength",
  "arraysOffset",
  "tableOffset",
  "blockSumsOffset",
  "blockCount",
  "postingsOffset",
  "postingsLength",
  "bodyChecksum",
  "unitBytes",
  "listingChecksum",
];
/** Offset of the header's own checksum (of the bytes before it). */
export const HEADER_CHECKSUM_AT = HEADER_BYTES - 4;

/** Writes `header` (without its checksum) into the first HEADER_BYTES of `bytes`. */
export function encodeHeader(header: IndexHeader, bytes: Uint8Array): void {
  bytes.set(MAGIC, 0);
  const view = new DataView(bytes.buffer, bytes.byteOffset, HEADER_BYTES);
  view.setUint32(8, FORMAT_VERSION, true);
  FIELDS.forEach((field, i) => view.setUint32(12 + 4 * i, header[field], true));
}

/** Why a header cannot be read, or its fields. */
export function decodeHeader(bytes: Uint8Array): IndexHeader | string {
  if (bytes.length < HEADER_BYTES) return "it is shorter than its header";
  if (MAGIC.some((byte, i) => bytes[i] !== byte)) return "it does not start with the index magic";
  const view = new DataView(bytes.buffer, bytes.byteOffset, HEADER_BYTES);
  const version = view.getUint32(8, true);
  if (version !== FORMAT_VERSION) {
    return `its format version is ${version}, this reader reads ${FORMAT_VERSION}`;
  }
  const header = {} as IndexHeader;
  FIELDS.forEach((field, i) => header[field] = view.getUint32(12 + 4 * i, true));
  if (header.unitBytes === 0) return "its unit size is zero";
  return header;
}

/**
 * The units of an entry with `size` bytes and `flags` (ENTRY_FLAGS): none for a folder and for
 * a file without postings (binary, not read), else one per `unitBytes` begun (one when empty).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { unitsOf } from "./format.ts";
 * assert.equal(unitsOf(100, 0, 64), 2);
 * assert.equal(unitsOf(0, 0, 64), 1);
 * assert.equal(unitsOf(100, 2, 64), 0); // binary
 * ```
 */
export function unitsOf(size: number, flags: number, unitBytes: number): number {
  const unindexed = ENTRY_FLAGS.dir | ENTRY_FLAGS.binary | ENTRY_FLAGS.unindexed;
  return flags & unindexed ? 0 : Math.max(1, Math.ceil(size / unitBytes));
}

/** Bytes of the per-entry arrays for `count` entries (8-byte aligned). */
export function arraysLength(count: number): number {
  return align(count, 8) + count * (8 + 8 + 32);
}

/**
 * Where the listing (meta, paths and flags) of an index with `header` ends: the flags open the
 * per-entry arrays, so the listing is one range of the file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { listingEnd } from "./format.ts";
 * assert.equal(listingEnd({ arraysOffset: 1000, entryCount: 3 }), 1008);
 * ```
 */
export function listingEnd(header: Pick<IndexHeader, "arraysOffset" | "entryCount">): number {
  return header.arraysOffset + align(header.entryCount, 8);
}

/** `value` rounded up to a multiple of `to`. */
export function align(value: number, to: number): number {
  return Math.ceil(value / to) * to;
}

/** Views of the per-entry arrays inside `body` starting at `offset`. */
export interface EntryArrays {
  /** Size in bytes at indexing. */
  sizes: Float64Array;
  /** Modification time in ms at indexing. */
  mtimes: Float64Array;
  /** 32-byte SHA-256 per entry. */
  hashes: Uint8Array;
  /** ENTRY_FLAGS per entry. */
  flags: Uint8Array;
}

/** Views of the per-entry arrays at `offset` of `buffer` (which must be 8-byte aligned). */
export function entryArrays(buffer: ArrayBuffer, offset: number, count: number): EntryArrays {
  const numbers = offset + align(count, 8);
  return {
    flags: new Uint8Array(buffer, offset, count),
    sizes: new Float64Array(buffer, numbers, count),
    mtimes: new Float64Array(buffer, numbers + 8 * count, count),
    hashes: new Uint8Array(buffer, numbers + 16 * count, 32 * count),
  };
}

/** Bytes a varint of `value` takes. */
export function varintLength(value: number): number {
  let length = 1;
  while (value >= 0x80) {
    value = Math.floor(value / 128);
    length++;
  }
  return length;
}

/** Writes `value` as a varint at `at`; returns the offset after it. */
export function writeVarint(bytes: Uint8Array, at: number, value: number): number {
  while (value >= 0x80) {
    bytes[at++] = (value & 0x7f) | 0x80;
    value = Math.floor(value / 128);
  }
  bytes[at++] = value;
  return at;
}
