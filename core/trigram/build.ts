/**
 * Builds the repository index `<root>/.llm/trigram.idx` (layout in `format.ts`): the walk's
 * entries with size, mtime and content hash, and the trigram posting lists of every text file.
 * The file is written to a temporary name beside it and renamed over the old one, so a reader
 * sees the old index or the new one, never a part.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { join, resolve } from "../path_syntax.ts";
import { checksum32 } from "./checksum.ts";
import type { FileVersion, RunCache } from "../cache.ts";
import type { EngineWalkOptions } from "../walk/walker.ts";
import { Walker } from "../walk/walker.ts";
import type { WalkRecord } from "../walk/walk_cache.ts";
import { isBinary } from "../walk/binary.ts";
import { LLM_SEARCH } from "../../schema/tool_names.ts";
import {
  align,
  arraysLength,
  encodeHeader,
  ENTRY_FLAGS,
  entryArrays,
  HEADER_BYTES,
  HEADER_CHECKSUM_AT,
  INDEX_PATH,
  listingEnd,
  POSTING_BLOCK,
  UNIT_BYTES,
  unitsOf,
} from "./format.ts";
import { type IndexedWalk, type IndexMeta, walkShape } from "./meta.ts";
import { PostingBuilder, type PostingLayout } from "./postings.ts";
import { racyStamp } from "../racy_stamp.ts";

/** What a build needs. */
export interface TrigramBuildOptions {
  /** The root; the index goes to `<root>/.llm/trigram.idx`. */
  root: string;
  /** Walk settings (the search's defaults when absent). */
  walk?: EngineWalkOptions;
  /** Files larger than this are listed but not read (always searched directly). */
  maxFileBytes?: number;
  /** Bytes of a posting unit (`format.ts`); UNIT_BYTES when absent (tests cut small ones). */
  unitBytes?: number;
  /** Stops the build between files (nothing is written then). */
  signal?: AbortSignal;
}

/** What a build did. */
export interface TrigramBuildOutcome {
  /** The index path, relative to the root. */
  path: string;
  /** Files listed. */
  files: number;
  /** Text files whose trigrams were indexed. */
  indexedFiles: number;
  /** Their bytes. */
  indexedBytes: number;
  /** Distinct trigrams. */
  trigrams: number;
  /** Size of the index file. */
  indexBytes: number;
  /** Wall time. */
  durationMs: number;
}

/** Default for {@linkcode TrigramBuildOptions.maxFileBytes}. */
const MAX_FILE_BYTES = 32 << 20;

/** A cache that only records the walk the walker stores, so its stamps can be kept. */
class WalkRecorder implements RunCache {
  record: WalkRecord | undefined;
  get<T>(): T | undefined {
    return undefined;
  }
  set<T>(_namespace: string, _key: string, _version: FileVersion, value: T): void {
    this.record = value as WalkRecord;
  }
  invalidate(): void {}
  resource<T extends Disposable>(_key: string, open: () => T): T {
    return open();
  }
  close(): void {}
}

/** The listed entries and what was learnt of each. */
interface EntryTable {
  paths: string[];
  sizes: number[];
  mtimes: number[];
  hashes: Uint8Array[];
  flags: number[];
}

const NO_HASH = new Uint8Array(32);

/** Reads `path` whole into `buffer` (grown as needed); undefined when it cannot be read. */
function readInto(
  path: string,
  size: number,
  holder: { buffer: Uint8Array },
): Uint8Array | undefined {
  if (holder.buffer.length < size + 1) {
    holder.buffer = new Uint8Array(Math.max(size + 1, holder.buffer.length * 2));
  }
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(path, { read: true });
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable) throw error;
    return undefined;
  }
  try {
    let length = 0;
    for (;;) {
      const read = file.readSync(holder.buffer.subarray(length));
      if (read === null || read === 0) break;
      length += read;
      if (length === holder.buffer.length) return undefined;
    }
    return holder.buffer.subarray(0, length);
  } finally {
    file.close();
  }
}

/** Walks the root and reads every listed text file into `postings`. */
function collectEntries(
  options: TrigramBuildOptions,
  root: string,
  builtAtMs: number,
  postings: PostingBuilder,
  unitBytes: number,
): { table: EntryTable; walk: IndexedWalk; indexedFiles: number; indexedBytes: number } {
  const { cache: _cache, maxFilesize: _size, ...walkOptions } = options.walk ?? {};
  const recorder = new WalkRecorder();
  const walker = new Walker({
    ...walkOptions,
    tool: LLM_SEARCH,
    prefix: "LMS",
    cwd: root,
    includeDirs: true,
    stat: true,
    cache: recorder,
  });
  const maxBytes = options.maxFileBytes ?? MAX_FILE_BYTES;
  const table: EntryTable = { paths: [], sizes: [], mtimes: [], hashes: [], flags: [] };
  const holder = { buffer: new Uint8Array(1 << 20) };
  let indexedFiles = 0;
  let indexedBytes = 0;
  let nextUnit = 0;
  for (const entry of walker.entries()) {
    options.signal?.throwIfAborted();
    const size = entry.size ?? 0;
    const mtime = entry.mtimeMs ?? 0;
    let flags = racyStamp(mtime, builtAtMs) ? ENTRY_FLAGS.racy : 0;
    let hash = NO_HASH;
    if (entry.kind === "dir") flags = ENTRY_FLAGS.dir;
    else {
      const bytes = size > maxBytes ? undefined : readInto(entry.absPath, size, holder);
      if (!bytes || bytes.length !== size) flags |= ENTRY_FLAGS.unindexed;
      else {
        hash = new Uint8Array(createHash("sha256").update(bytes).digest());
        if (isBinary(bytes)) flags |= ENTRY_FLAGS.binary;
        else {
          postings.add(nextUnit, bytes);
          indexedFiles++;
          indexedBytes += size;
        }
      }
      nextUnit += unitsOf(size, flags, unitBytes);
    }
    table.paths.push(entry.filePath);
    table.sizes.push(size);
    table.mtimes.push(mtime);
    table.hashes.push(hash);
    table.flags.push(flags);
  }
  const record = recorder.record;
  const walk: IndexedWalk = {
    shape: walkShape({ ...walkOptions, cwd: root, named: [root] }),
    trusted: record !== undefined,
    diagnostics: walker.diagnostics,
    stamps: record ? [...record.stamps] : [],
    ancestorStamps: record ? [...record.ancestorStamps] : [],
  };
  return { table, walk, indexedFiles, indexedBytes };
}

/** The sections before the posting lists: filled but for the block checksums, then sealed. */
interface Body {
  bytes: Uint8Array<ArrayBuffer>;
  /** Where the posting lists start in the file. */
  postingsOffset: number;
  /** One checksum per POSTING_BLOCK of the lists, to fill as they are written. */
  blockSums: Uint32Array;
  /** Writes the header and its checksums (once every block checksum is in). */
  seal(): void;
}

/** The sections of the file before the postings, laid out after the header. */
function layoutBody(
  meta: IndexMeta,
  table: EntryTable,
  layout: PostingLayout,
  unitBytes: number,
): Body {
  const encoder = new TextEncoder();
  const metaBytes = encoder.encode(JSON.stringify(meta));
  const pathBytes = encoder.encode(table.paths.join("\n"));
  const count = table.paths.length;
  const trigramCount = layout.trigrams.length;
  const postingsLength = layout.offsets[trigramCount];
  const metaOffset = HEADER_BYTES;
  const pathsOffset = metaOffset + metaBytes.length;
  const arraysOffset = align(pathsOffset + pathBytes.length, 8);
  const tableOffset = arraysOffset + arraysLength(count);
  const blockSumsOffset = tableOffset + 4 * (2 * trigramCount + 1);
  const blockCount = Math.ceil(postingsLength / POSTING_BLOCK);
  const postingsOffset = blockSumsOffset + 4 * blockCount;
  const bytes = new Uint8Array(postingsOffset);
  bytes.set(metaBytes, metaOffset);
  bytes.set(pathBytes, pathsOffset);
  const arrays = entryArrays(bytes.buffer, arraysOffset, count);
  arrays.sizes.set(table.sizes);
  arrays.mtimes.set(table.mtimes);
  table.hashes.forEach((hash, i) => arrays.hashes.set(hash, 32 * i));
  arrays.flags.set(table.flags);
  const words = new Uint32Array(bytes.buffer, tableOffset, 2 * trigramCount + 1 + blockCount);
  words.set(layout.trigrams, 0);
  words.set(layout.offsets, trigramCount);
  const seal = () => {
    encodeHeader({
      entryCount: count,
      trigramCount,
      metaOffset,
      metaLength: metaBytes.length,
      pathsOffset,
      pathsLength: pathBytes.length,
      arraysOffset,
      tableOffset,
      blockSumsOffset,
      blockCount,
      postingsOffset,
      postingsLength,
      bodyChecksum: checksum32(bytes.subarray(metaOffset)),
      unitBytes,
      listingChecksum: checksum32(
        bytes.subarray(metaOffset, listingEnd({ arraysOffset, entryCount: count })),
      ),
    }, bytes);
    const view = new DataView(bytes.buffer);
    view.setUint32(HEADER_CHECKSUM_AT, checksum32(bytes.subarray(0, HEADER_CHECKSUM_AT)), true);
  };
  return { bytes, postingsOffset, blockSums: words.subarray(2 * trigramCount + 1), seal };
}

function writeAll(file: Deno.FsFile, bytes: Uint8Array): void {
  for (let at = 0; at < bytes.length;) at += file.writeSync(bytes.subarray(at));
}

/** Bytes of posting lists written at a time: a whole number of checksum blocks. */
const LIST_CHUNK = 64 * POSTING_BLOCK;

/**
 * Writes the index to a temporary file beside `path` and renames it over `path`: the posting
 * lists first (at their offset, checksumming each block on the way), then the sealed body.
 */
function writeIndexFile(path: string, body: Body, postings: PostingBuilder, layout: PostingLayout) {
  const temporary = `${path}.${crypto.randomUUID()}.tmp`;
  const file = Deno.openSync(temporary, { write: true, createNew: true });
  try {
    file.seekSync(body.postingsOffset, Deno.SeekMode.Start);
    let block = 0;
    postings.writeLists(layout, (chunk) => {
      for (let at = 0; at < chunk.length; at += POSTING_BLOCK) {
        body.blockSums[block++] = checksum32(chunk.subarray(at, at + POSTING_BLOCK));
      }
      writeAll(file, chunk);
    }, LIST_CHUNK);
    body.seal();
    file.seekSync(0, Deno.SeekMode.Start);
    writeAll(file, body.bytes);
    file.syncSync();
  } catch (error) {
    file.close();
    Deno.removeSync(temporary);
    throw error;
  }
  file.close();
  Deno.renameSync(temporary, path);
}

/**
 * `<root>/.llm`, created when absent; refuses a link or a file in its place, also one that won a
 * race to create it (another index run).
 */
function stateFolder(root: string): string {
  const folder = join(root, ".llm");
  try {
    Deno.mkdirSync(folder);
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
  }
  const info = Deno.lstatSync(folder);
  if (!info.isDirectory || info.isSymlink) {
    throw new Deno.errors.AlreadyExists(`${folder} is not a real folder`);
  }
  return folder;
}

/**
 * Builds the index of `options.root` from scratch and writes it atomically. Throws what the
 * file system throws (the caller turns it into a coded diagnostic).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { buildTrigramIndex } from "./build.ts";
 * const root = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${root}/a.txt`, "hello\n");
 * assert.equal(buildTrigramIndex({ root }).indexedFiles, 1);
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export function buildTrigramIndex(options: TrigramBuildOptions): TrigramBuildOutcome {
  const unitBytes = options.unitBytes ?? UNIT_BYTES;
  if (!Number.isInteger(unitBytes) || unitBytes < 1 || unitBytes > 0xffffffff) {
    throw new RangeError(`a posting unit must be a whole number of bytes, not ${unitBytes}`);
  }
  const started = Date.now();
  const root = resolve(options.root);
  const realRoot = Deno.realPathSync(root);
  const folder = stateFolder(realRoot);
  const postings = new PostingBuilder({ unitBytes });
  const { table, walk, indexedFiles, indexedBytes } = collectEntries(
    options,
    root,
    started,
    postings,
    unitBytes,
  );
  const layout = postings.finish();
  const meta: IndexMeta = { root: realRoot, builtAtMs: started, walk };
  const body = layoutBody(meta, table, layout, unitBytes);
  const path = join(folder, "trigram.idx");
  writeIndexFile(path, body, postings, layout);
  return {
    path: INDEX_PATH,
    files: table.flags.filter((flags) => (flags & ENTRY_FLAGS.dir) === 0).length,
    indexedFiles,
    indexedBytes,
    trigrams: layout.trigrams.length,
    indexBytes: body.bytes.length + layout.offsets[layout.trigrams.length],
    durationMs: Date.now() - started,
  };
}
