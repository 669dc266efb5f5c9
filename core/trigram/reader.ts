/**
 * Reads the repository index `<root>/.llm/trigram.idx` (layout in `format.ts`) with read
 * permission only. Opening reads everything but the posting lists and checks the header and
 * body checksums; posting lists are read on demand and their blocks checked. Any failed check
 * is an {@linkcode IndexRefusal}: the caller ignores the index and says so.
 *
 * An opened index is kept per path while the file's identity (size, mtime, inode) is unchanged,
 * so a long-lived host (the MCP server) reads it once.
 *
 * @module
 */
import { join } from "../path_syntax.ts";
import { checksum32 } from "./checksum.ts";
import {
  arraysLength,
  decodeHeader,
  ENTRY_FLAGS,
  type EntryArrays,
  entryArrays,
  HEADER_BYTES,
  HEADER_CHECKSUM_AT,
  INDEX_PATH,
  type IndexHeader,
  listingEnd,
  POSTING_BLOCK,
  unitsOf,
} from "./format.ts";
import type { IndexMeta } from "./meta.ts";
import { decodePostings, nextByteBit } from "./postings.ts";
import { decodeText } from "../utf8.ts";

/** Why an index file was not trusted. */
export class IndexRefusal extends Error {}

/**
 * A listed path (in the "\n"-joined list) that is neither the root (".") nor a plain relative
 * path below it: absolute, empty, with an empty, "." or ".." component, or holding a NUL. The
 * stat workers stat listed paths before the walk names them, so a forged list must not reach
 * outside. Each alternative starts at a separator (or the start), which keeps the check of the
 * Linux tree's 3 MB list at 4 ms.
 */
const UNSAFE_PATH =
  /\/(?:\/|\n|$|\.\.?(?:\/|\n|$))|\n(?:\/|\n|$|\.\.?\/|\.\.(?:\n|$))|^(?:\/|\n|$|\.\.?\/|\.\.(?:\n|$))|\0/;

/** Where an entry stands against the file on disk. */
export type EntryState = "fresh" | "changed";

function readExactly(file: Deno.FsFile, at: number, length: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(length);
  file.seekSync(at, Deno.SeekMode.Start);
  for (let done = 0; done < length;) {
    const read = file.readSync(bytes.subarray(done));
    if (read === null || read === 0) throw new IndexRefusal("it ends before its last section");
    done += read;
  }
  return bytes;
}

/**
 * The listing of an index (`format.ts`): what a walk needs, without the sizes, hashes and
 * posting lists that only a search reads.
 */
export interface IndexListing {
  /** Its meta data (root, build time, walk). */
  readonly meta: IndexMeta;
  /** Entry `file_path`s in walk order. */
  readonly paths: string[];
  /** The same joined by "\n" (cheap to send to a worker). */
  readonly pathText: string;
  /** ENTRY_FLAGS per entry. */
  readonly flags: Uint8Array;
}

/** Lines of `text` ("\n"-separated; none when empty). */
function lineCount(text: string): number {
  if (text.length === 0) return 0;
  let lines = 1;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) lines++;
  return lines;
}

/**
 * A checked listing. Its paths are split from the text only when asked for: a walk that reads
 * the listing once takes each path from the text as it goes, and 83,354 strings kept alive
 * cost the Linux tree's discover a third of its collection time.
 */
class ParsedListing implements IndexListing {
  readonly meta: IndexMeta;
  readonly pathText: string;
  readonly flags: Uint8Array;
  #paths: string[] | undefined;

  constructor(meta: IndexMeta, pathText: string, flags: Uint8Array) {
    this.meta = meta;
    this.pathText = pathText;
    this.flags = flags;
  }

  get paths(): string[] {
    return this.#paths ??= this.flags.length === 0 ? [] : this.pathText.split("\n");
  }
}

/** The listing in `body`, the file's bytes from `metaOffset` on (at least to `listingEnd`). */
function parseListing(header: IndexHeader, body: Uint8Array<ArrayBuffer>): IndexListing {
  const { metaOffset, pathsOffset, arraysOffset, entryCount } = header;
  let meta: IndexMeta;
  try {
    meta = JSON.parse(decodeText(body.subarray(0, header.metaLength)));
  } catch {
    throw new IndexRefusal("its meta data is not JSON");
  }
  const pathsAt = pathsOffset - metaOffset;
  // Decoded as files are: a first path that starts with U+FEFF keeps it.
  const pathText = decodeText(body.subarray(pathsAt, pathsAt + header.pathsLength));
  if (entryCount !== 0 && lineCount(pathText) !== entryCount) {
    throw new IndexRefusal("its path list is short");
  }
  const unsafe = entryCount === 0 ? null : UNSAFE_PATH.exec(pathText);
  if (unsafe) {
    throw new IndexRefusal(`it lists a path that may leave the root (at ${unsafe.index})`);
  }
  const at = body.byteOffset + arraysOffset - metaOffset;
  return new ParsedListing(meta, pathText, new Uint8Array(body.buffer, at, entryCount));
}

/** The checked header of the index file `file` (its length included). */
function readHeader(file: Deno.FsFile): IndexHeader {
  const head = readExactly(file, 0, HEADER_BYTES);
  const header = decodeHeader(head);
  if (typeof header === "string") throw new IndexRefusal(header);
  const sum = new DataView(head.buffer).getUint32(HEADER_CHECKSUM_AT, true);
  if (checksum32(head.subarray(0, HEADER_CHECKSUM_AT)) !== sum) {
    throw new IndexRefusal("its header checksum does not match");
  }
  const end = header.postingsOffset + header.postingsLength;
  if (file.statSync().size !== end || header.metaOffset !== HEADER_BYTES) {
    throw new IndexRefusal("its length does not match its header");
  }
  const sections = [
    header.metaOffset + header.metaLength,
    header.pathsOffset,
    header.pathsOffset + header.pathsLength,
    header.arraysOffset,
    listingEnd(header),
    header.arraysOffset + arraysLength(header.entryCount),
    header.tableOffset,
    header.blockSumsOffset,
    header.postingsOffset,
  ];
  if (sections.some((at, i) => at < (sections[i - 1] ?? header.metaOffset))) {
    throw new IndexRefusal("its sections overlap");
  }
  return header;
}

/**
 * Reads and checks the listing of the index file at `path` (the header and the listing's own
 * checksum); throws {@linkcode IndexRefusal} or an I/O error.
 */
function readListing(path: string): IndexListing {
  const file = Deno.openSync(path, { read: true });
  try {
    const header = readHeader(file);
    const body = readExactly(file, header.metaOffset, listingEnd(header) - header.metaOffset);
    if (checksum32(body) !== header.listingChecksum) {
      throw new IndexRefusal("its listing checksum does not match");
    }
    return parseListing(header, body);
  } finally {
    file.close();
  }
}

/** An opened, checked index. */
export class TrigramIndex implements IndexListing {
  /** Its meta data (root, build time, walk). */
  readonly meta: IndexMeta;
  /** Entry `file_path`s in walk order. */
  readonly paths: string[];
  /** The same joined by "\n" (cheap to send to a worker). */
  readonly pathText: string;
  /** ENTRY_FLAGS per entry. */
  readonly flags: Uint8Array;
  /** Per-entry arrays. */
  readonly arrays: EntryArrays;
  readonly #header: IndexHeader;
  readonly #trigrams: Uint32Array;
  readonly #offsets: Uint32Array;
  readonly #blockSums: Uint32Array;
  /** Per entry, its first unit; the unit count at the end (`format.ts`). */
  readonly #unitStarts: Uint32Array;
  readonly #file: Deno.FsFile;
  #ids: Map<string, number> | undefined;
  /** The id after the last one looked up: walks ask in the index's own order. */
  #nextId = 0;
  /**
   * The unit masks of the literal trigrams (with their case variants) read last, most recent
   * last. A long-lived host's searches repeat trigrams, and decoding their lists is most of a
   * warm search: `copy_process` decodes 12 lists, about 3 ms of its 9. The file cannot change
   * under an opened index (a changed file is opened anew), so they stay true.
   */
  readonly #decoded = new Map<string, UnitMasks>();

  private constructor(file: Deno.FsFile, header: IndexHeader, body: Uint8Array<ArrayBuffer>) {
    this.#file = file;
    this.#header = header;
    const { metaOffset, arraysOffset, tableOffset, blockSumsOffset } = header;
    ({ meta: this.meta, paths: this.paths, pathText: this.pathText, flags: this.flags } =
      parseListing(header, body));
    const at = (offset: number) => offset - metaOffset;
    this.arrays = entryArrays(body.buffer, at(arraysOffset), header.entryCount);
    const count = header.trigramCount;
    this.#trigrams = new Uint32Array(body.buffer, at(tableOffset), count);
    this.#offsets = new Uint32Array(body.buffer, at(tableOffset) + 4 * count, count + 1);
    this.#blockSums = new Uint32Array(body.buffer, at(blockSumsOffset), header.blockCount);
    this.#unitStarts = new Uint32Array(header.entryCount + 1);
    let units = 0;
    for (let id = 0; id < header.entryCount; id++) {
      units += unitsOf(this.arrays.sizes[id], this.arrays.flags[id], header.unitBytes);
      this.#unitStarts[id + 1] = units;
    }
    // Every unit but the last two of a file holds a trigram, whose posting takes three bytes or
    // more: forged sizes must not make the candidate search allocate gigabytes.
    if (!(units <= header.postingsLength / 3 + 3 * header.entryCount)) {
      throw new IndexRefusal("its file sizes make more units than its postings can hold");
    }
  }

  /** Opens and checks the index file at `path`; throws {@linkcode IndexRefusal} or an I/O error. */
  static open(path: string): TrigramIndex {
    const file = Deno.openSync(path, { read: true });
    try {
      const header = readHeader(file);
      const body = readExactly(file, header.metaOffset, header.postingsOffset - header.metaOffset);
      if (checksum32(body) !== header.bodyChecksum) {
        throw new IndexRefusal("its body checksum does not match");
      }
      return new TrigramIndex(file, header, body);
    } catch (error) {
      file.close();
      throw error;
    }
  }

  /** The entry id of `filePath`, or undefined when it was not listed. */
  idOf(filePath: string): number | undefined {
    let id: number | undefined = this.#nextId;
    // A walk without directories skips the index's directory entries.
    while (id < this.paths.length && this.arrays.flags[id] & ENTRY_FLAGS.dir) id++;
    if (this.paths[id] !== filePath) {
      this.#ids ??= new Map(this.paths.map((path, id) => [path, id]));
      id = this.#ids.get(filePath);
      if (id === undefined) return undefined;
    }
    this.#nextId = id + 1;
    return id;
  }

  /** Whether entry `id` has the stamp `size`/`mtimeMs` and its postings can be trusted. */
  trusted(id: number, size: number, mtimeMs: number): boolean {
    const flags = this.arrays.flags[id];
    if (flags & (ENTRY_FLAGS.unindexed | ENTRY_FLAGS.racy | ENTRY_FLAGS.dir)) return false;
    return this.arrays.sizes[id] === size && this.arrays.mtimes[id] === mtimeMs;
  }

  /** Whether entry `id` was binary when indexed. */
  binary(id: number): boolean {
    return (this.arrays.flags[id] & ENTRY_FLAGS.binary) !== 0;
  }

  /** The posting list bytes of `trigram` (empty when no file holds it), blocks checked. */
  #postings(trigram: number): Uint8Array {
    const trigrams = this.#trigrams;
    let low = 0;
    let high = trigrams.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      if (trigrams[middle] < trigram) low = middle + 1;
      else if (trigrams[middle] > trigram) high = middle - 1;
      else return this.#readList(this.#offsets[middle], this.#offsets[middle + 1]);
    }
    return new Uint8Array(0);
  }

  #readList(start: number, end: number): Uint8Array {
    if (end < start || end > this.#header.postingsLength) {
      throw new IndexRefusal("a posting list lies outside the postings");
    }
    const firstBlock = Math.floor(start / POSTING_BLOCK);
    const blockEnd = Math.min(
      Math.ceil(end / POSTING_BLOCK) * POSTING_BLOCK,
      this.#header.postingsLength,
    );
    const blocks = readExactly(
      this.#file,
      this.#header.postingsOffset + firstBlock * POSTING_BLOCK,
      blockEnd - firstBlock * POSTING_BLOCK,
    );
    for (let at = 0, block = firstBlock; at < blocks.length; at += POSTING_BLOCK, block++) {
      if (checksum32(blocks.subarray(at, at + POSTING_BLOCK)) !== this.#blockSums[block]) {
        throw new IndexRefusal("a posting block checksum does not match");
      }
    }
    const from = start - firstBlock * POSTING_BLOCK;
    return blocks.subarray(from, from + end - start);
  }

  /**
   * The masks per unit of a literal's trigram, given as its case `variants`: the offsets mod 8
   * and the next bytes of every variant, merged. Kept for the next searches (see `#decoded`).
   */
  #unitMasks(variants: readonly number[]): UnitMasks {
    const key = variants.join(",");
    let masks = this.#decoded.get(key);
    if (masks) {
      this.#decoded.delete(key);
    } else {
      const units = this.#unitStarts[this.#header.entryCount];
      const offsets = new Uint8Array(units);
      const nexts = new Uint8Array(units);
      for (const trigram of variants) {
        decodePostings(this.#postings(trigram), (unit, offset, next) => {
          if (unit >= units) throw new IndexRefusal("a posting names a unit that does not exist");
          offsets[unit] |= offset;
          nexts[unit] |= next;
        });
      }
      masks = { offsets, nexts };
      if (this.#decoded.size >= DECODED_KEPT) {
        this.#decoded.delete(this.#decoded.keys().next().value!);
      }
    }
    this.#decoded.set(key, masks);
    return masks;
  }

  /**
   * The entries that may hold at least one of `literals` (a bitmap by entry id), compared
   * ignoring ASCII case when `ignoreCase`. Undefined when some literal is shorter than three
   * bytes (then every file is a candidate).
   *
   * An entry is a candidate for a literal when some run of its units that an occurrence could
   * span (two for a literal up to a unit long) holds every trigram of it, each followed
   * somewhere in the run by the literal's next byte (by the next-byte masks), and all of them at
   * offsets that agree modulo 8 with their places in the literal (by the offset masks). All of
   * this is implied by an occurrence of the literal, so no file holding one is ruled out.
   */
  candidates(literals: readonly string[], ignoreCase: boolean): Uint8Array | undefined {
    const plans = literals.map((literal) => literalPlan(literal, ignoreCase));
    if (plans.length === 0 || plans.some((plan) => plan === undefined)) return undefined;
    const result = new Uint8Array(this.#header.entryCount);
    for (const plan of plans as LiteralPlan[]) this.#markCandidates(plan, result);
    return result;
  }

  /** Sets `result[id]` for every entry that may hold the literal of `plan`. */
  #markCandidates(plan: LiteralPlan, result: Uint8Array): void {
    const starts = this.#unitStarts;
    const masks = plan.trigrams.map((variants) => this.#unitMasks(variants));
    const offsetMasks = masks.map((mask) => mask.offsets);
    const nextMasks = masks.map((mask) => mask.nexts);
    // An occurrence's trigrams start within `keys.length - 1` bytes of the first one.
    const span = Math.floor((plan.keys.length - 1) / this.#header.unitBytes) + 2;
    const run = new RunMasks(plan, offsetMasks, nextMasks);
    const firstKey = offsetMasks[0];
    for (let id = 0; id < result.length; id++) {
      const first = starts[id];
      const end = starts[id + 1];
      // Most files are one unit, and most lack the literal's first trigram.
      if (result[id] || first === end || (end - first === 1 && firstKey[first] === 0)) continue;
      const lastRun = Math.max(first, end - span);
      for (let from = first; from <= lastRun; from++) {
        if (run.holds(from, Math.min(end, from + span))) {
          result[id] = 1;
          break;
        }
      }
    }
  }

  /** Closes the file. */
  close(): void {
    this.#file.close();
  }
}

/** The offset and next-byte masks of one literal trigram, per unit. */
interface UnitMasks {
  offsets: Uint8Array;
  nexts: Uint8Array;
}

/**
 * Literal trigrams whose masks an opened index keeps: two arrays of a byte per unit each, 170 KB
 * a trigram on Linux 6.1, 11 MB in all.
 */
const DECODED_KEPT = 64;

/** A literal's trigram masks per unit, merged over runs of units. */
class RunMasks {
  readonly #plan: LiteralPlan;
  readonly #offsetMasks: Uint8Array[];
  readonly #nextMasks: Uint8Array[];
  /** Per key, the merged masks of the run last asked about. */
  readonly #offsets: Uint8Array;
  readonly #nexts: Uint8Array;

  constructor(plan: LiteralPlan, offsetMasks: Uint8Array[], nextMasks: Uint8Array[]) {
    this.#plan = plan;
    this.#offsetMasks = offsetMasks;
    this.#nextMasks = nextMasks;
    this.#offsets = new Uint8Array(plan.trigrams.length);
    this.#nexts = new Uint8Array(plan.trigrams.length);
  }

  /** Whether units `[from, to)` together hold the literal's trigrams as an occurrence would. */
  holds(from: number, to: number): boolean {
    const offsets = this.#offsets;
    const nexts = this.#nexts;
    for (let key = 0; key < offsets.length; key++) {
      let offset = 0;
      let next = 0;
      for (let unit = from; unit < to; unit++) {
        offset |= this.#offsetMasks[key][unit];
        next |= this.#nextMasks[key][unit];
      }
      if (offset === 0) return false;
      offsets[key] = offset;
      nexts[key] = next;
    }
    const { keys, nextBits } = this.#plan;
    let alignments = 0xff;
    for (let at = 0; at < keys.length; at++) {
      if ((nexts[keys[at]] & nextBits[at]) !== nextBits[at]) return false;
      alignments &= rotateRight(offsets[keys[at]], at & 7);
    }
    return alignments !== 0;
  }
}

/** An 8-bit mask rotated right by `by` (0-7): bit `s` of the result is bit `(s + by) mod 8`. */
function rotateRight(mask: number, by: number): number {
  return ((mask >>> by) | (mask << (8 - by))) & 0xff;
}

/** What a literal asks of the postings. */
export interface LiteralPlan {
  /** Its distinct trigrams, each with its ASCII case variants when ignoring case. */
  trigrams: number[][];
  /** For each offset of the literal where a trigram starts, the index of it in `trigrams`. */
  keys: number[];
  /** For each such offset, the next-byte mask bit of the byte after the trigram (0 at the end). */
  nextBits: number[];
}

/**
 * The trigrams of `literal`'s UTF-8 bytes (with their ASCII case variants when `ignoreCase`),
 * where each starts and which byte follows it; undefined when it has fewer than three bytes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { literalPlan } from "./reader.ts";
 * assert.deepEqual(literalPlan("abcd", false)?.trigrams, [[0x616263], [0x626364]]);
 * assert.equal(literalPlan("ab", false), undefined);
 * ```
 */
export function literalPlan(literal: string, ignoreCase: boolean): LiteralPlan | undefined {
  const bytes = new TextEncoder().encode(literal);
  if (bytes.length < 3) return undefined;
  const variantsOf = (byte: number) => {
    const lower = byte | 0x20;
    return ignoreCase && lower >= 0x61 && lower <= 0x7a ? [lower, lower & ~0x20] : [byte];
  };
  const keyOf = new Map<number, number>();
  const plan: LiteralPlan = { trigrams: [], keys: [], nextBits: [] };
  for (let i = 0; i + 3 <= bytes.length; i++) {
    const trigram = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    const canonical = ignoreCase ? foldKey(trigram) : trigram;
    let key = keyOf.get(canonical);
    if (key === undefined) {
      key = plan.trigrams.length;
      keyOf.set(canonical, key);
      const variants: number[] = [];
      for (const a of variantsOf(bytes[i])) {
        for (const b of variantsOf(bytes[i + 1])) {
          for (const c of variantsOf(bytes[i + 2])) variants.push((a << 16) | (b << 8) | c);
        }
      }
      plan.trigrams.push(variants);
    }
    plan.keys.push(key);
    plan.nextBits.push(i + 3 < bytes.length ? 1 << nextByteBit(bytes[i + 3]) : 0);
  }
  return plan;
}

/** A trigram with its ASCII letters lower-cased. */
function foldKey(key: number): number {
  let folded = 0;
  for (const shift of [16, 8, 0]) {
    const byte = (key >> shift) & 0xff;
    const lower = byte | 0x20;
    folded |= (lower >= 0x61 && lower <= 0x7a ? lower : byte) << shift;
  }
  return folded;
}

/** An opened index or listing and the identity of its file when it was opened. */
interface Kept<T> {
  identity: string;
  opened: T;
}

const keptIndexes = new Map<string, Kept<TrigramIndex>>();
const keptListings = new Map<string, Kept<IndexListing>>();

/** The absolute path of the index of `root`. */
export function indexPathOf(root: string): string {
  return join(root, INDEX_PATH);
}

/**
 * The identity (size, mtime, inode) of the index file at `path` when `.llm` is a real folder and
 * the index a regular file; undefined when there is none. Throws {@linkcode IndexRefusal} for
 * an index that is not a regular file.
 */
function indexIdentity(path: string): string | undefined {
  let info: Deno.FileInfo;
  try {
    const folder = Deno.lstatSync(join(path, ".."));
    if (!folder.isDirectory) return undefined;
    info = Deno.lstatSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return undefined;
    }
    throw error;
  }
  if (!info.isFile) throw new IndexRefusal("it is not a regular file");
  return `${info.size}:${info.mtime?.getTime()}:${info.ino}`;
}

/**
 * The index at `path` when `.llm` is a real folder and the index a regular file, opened (or
 * kept from a previous call while its file is unchanged); undefined when there is none. Throws
 * {@linkcode IndexRefusal} for a file that fails a check.
 */
export function openIndex(path: string): TrigramIndex | undefined {
  const identity = indexIdentity(path);
  if (identity === undefined) return undefined;
  const previous = keptIndexes.get(path);
  if (previous?.identity === identity) return previous.opened;
  previous?.opened.close();
  keptIndexes.delete(path);
  const index = TrigramIndex.open(path);
  keptIndexes.set(path, { identity, opened: index });
  return index;
}

/**
 * The listing of the index at `path` (the opened index itself when one is kept for the same
 * file), read and checked without the sections only a search needs; undefined when there is
 * no index. Throws {@linkcode IndexRefusal} for a file that fails a check.
 */
export function openIndexListing(path: string): IndexListing | undefined {
  const identity = indexIdentity(path);
  if (identity === undefined) return undefined;
  const index = keptIndexes.get(path);
  if (index?.identity === identity) return index.opened;
  const previous = keptListings.get(path);
  if (previous?.identity === identity) return previous.opened;
  keptListings.delete(path);
  const listing = readListing(path);
  keptListings.set(path, { identity, opened: listing });
  return listing;
}
