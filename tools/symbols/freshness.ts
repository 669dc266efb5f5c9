/**
 * `llm-symbols status` and `verify`: the index against the disk. `status` is cheap (counts, and
 * each indexed file's size and modification time against the disk); `verify` walks the root as
 * `index` does and compares content hashes, listing every drift.
 *
 * @module
 */
import { join } from "../../core/path_syntax.ts";
import { isInside, realPathOf } from "../../core/paths.ts";
import { sha256 } from "../../schema/checksum.ts";
import { type Diagnostic, makeDiagnostic } from "../../schema/diagnostic.ts";
import { LLM_SYMBOLS } from "../../schema/tool_names.ts";
import type { Drift, IndexStatusData, VerifyData } from "../../schema/symbols.ts";
import type { EngineWalkOptions } from "../../core/walk/walker.ts";
import { listingCut } from "../../core/listing.ts";
import { importPackageModule } from "../../core/workers.ts";
import {
  type FailureRow,
  type FileRow,
  INDEXED_AT_KEY,
  IndexStore,
  locateDb,
} from "../../core/symbol_index/store.ts";
import { statIfPresent } from "../../core/symbol_index/file_stat.ts";
import { stampAgainst } from "../../core/racy_stamp.ts";
import { SYMBOLS_DEFAULTS } from "./defaults.ts";
import { MAX_FILE_BYTES_META } from "../../core/symbol_index/defaults.ts";
import type { QueryOutcome } from "./queries.ts";

/** What `status` and `verify` take. */
export interface FreshnessOptions {
  /** The root the index belongs to. */
  root: string;
  /** Database path relative to the root. */
  db?: string;
  /** Walker settings (`verify`): the same as the `index` run's, or files count as new/missing. */
  walk?: EngineWalkOptions;
  /** Drifts to list (0: all). */
  limit?: number;
  /**
   * Files larger than this are not indexed (`verify`), so an unindexed one is no drift (default:
   * the last `index` run's).
   */
  maxFileBytes?: number;
}

function openIndex(options: FreshnessOptions): IndexStore {
  return IndexStore.open(locateDb(options.root, options.db, false), "read");
}

/** Failed files listed one by one by `status`; the rest are counted in one note. */
const LISTED_FAILURES = 20;

/** The diagnostics of `status` for the recorded extraction failures. */
function failureNotes(failures: readonly FailureRow[]): Diagnostic[] {
  const notes = failures.slice(0, LISTED_FAILURES).map((failure) =>
    makeDiagnostic(
      LLM_SYMBOLS,
      "MAG-IO-020",
      `${failure.path} is not indexed: its extraction failed (${failure.reason}); it is parsed again once its content changes`,
      { level: "warning", file: failure.path },
    )
  );
  if (failures.length > LISTED_FAILURES) {
    notes.push(makeDiagnostic(
      LLM_SYMBOLS,
      "MAG-IO-020",
      `${failures.length - LISTED_FAILURES} more file(s) failed extraction`,
      { level: "note" },
    ));
  }
  return notes;
}

/**
 * Whether the disk's `info` of `file` at `absPath` matches its row: the stamp, or for a smudged
 * (racy) stamp of the same time, the content's hash.
 */
function stampVouches(file: FileRow, info: Deno.FileInfo, absPath: string): boolean {
  const verdict = stampAgainst(file, info);
  if (verdict !== "unsure") return verdict === "same";
  return sha256(Deno.readFileSync(absPath)) === file.hash;
}

/**
 * The stat of the indexed file at `absPath` inside `root`, or undefined when it is gone or now
 * leads out of the root (a symbolic link put in its place since it was indexed: what it points
 * to is not the indexed file, and is neither stat'ed nor read). Its folders were checked when
 * its row was read (the store checks every path a row names).
 */
function indexedFileStat(root: string, absPath: string): Deno.FileInfo | undefined {
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(absPath);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return undefined;
    }
    throw error;
  }
  if (!info.isSymlink) return info;
  return isInside(root, realPathOf(absPath)) ? statIfPresent(absPath) : undefined;
}

/**
 * Counts of the index and how many indexed files are fresh, stale or missing on disk.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { indexStatus } from "./freshness.ts";
 * const root = Deno.makeTempDirSync();
 * assert.throws(() => indexStatus({ root }), { code: "MAG-IO-013" }); // no index there
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export function indexStatus(options: FreshnessOptions): QueryOutcome<IndexStatusData> {
  const store = openIndex(options);
  try {
    const root = Deno.realPathSync(options.root);
    let fresh = 0, stale = 0, missing = 0;
    for (const file of store.files()) {
      const absPath = join(root, file.path);
      const info = indexedFileStat(root, absPath);
      if (!info) missing++;
      else if (stampVouches(file, info, absPath)) fresh++;
      else stale++;
    }
    const counts = store.counts();
    const failures = store.failures();
    const data: IndexStatusData = {
      count: 1,
      db_path: store.location.displayPath,
      index_version: Number(store.meta("index_version")),
      ...counts,
      failed_files: failures.length,
      fresh,
      stale,
      missing,
    };
    const indexedAt = store.meta(INDEXED_AT_KEY);
    if (indexedAt) data.indexed_at = indexedAt;
    return { data, diagnostics: failureNotes(failures), partial: false };
  } finally {
    store.close();
  }
}

/**
 * The walker's module, named by a computed specifier: a literal `import("…")` would make every
 * command-line query (`status`, `find`, …) read and parse the walker's graph at start. The
 * definitions (`tool.ts`) load it, so a `verify` run finds it loaded.
 */
const CANDIDATES = new URL("../../core/symbol_index/candidates.ts", import.meta.url).href;

/**
 * Every file whose index entry differs from the disk: content changed, gone, or new.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { verifyIndex } from "./freshness.ts";
 * const root = Deno.makeTempDirSync();
 * await assert.rejects(verifyIndex({ root }), { code: "MAG-IO-013" }); // no index there
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export async function verifyIndex(options: FreshnessOptions): Promise<QueryOutcome<VerifyData>> {
  // The walker is loaded here only: `status` does without it.
  const { walkCandidates } = await importPackageModule<
    typeof import("../../core/symbol_index/candidates.ts")
  >(CANDIDATES, "MAG");
  const store = openIndex(options);
  try {
    const diagnostics: Diagnostic[] = [];
    const known = new Map(store.files().map((row) => [row.path, row]));
    const candidates = walkCandidates(
      { root: options.root, walk: options.walk },
      store.location.displayPath,
      diagnostics,
    );
    const failed = new Map(store.failures().map((row) => [row.path, row.hash]));
    const maxBytes = options.maxFileBytes ??
      Number(store.meta(MAX_FILE_BYTES_META) ?? SYMBOLS_DEFAULTS.maxFileBytes);
    const drifts: Drift[] = [];
    let tooLarge = 0;
    for (const candidate of candidates) {
      const hash = known.get(candidate.path)?.hash ?? failed.get(candidate.path);
      known.delete(candidate.path);
      // A file too large to index, which `index` leaves out (an indexed one is still compared:
      // `index` keeps the facts of its smaller past).
      if (hash === undefined && candidate.size > maxBytes) tooLarge++;
      // A recorded failure on the same content is what `index` would leave as it is.
      else if (hash === undefined) drifts.push({ file_path: candidate.path, drift: "new" });
      else if (sha256(Deno.readFileSync(candidate.absPath)) !== hash) {
        drifts.push({ file_path: candidate.path, drift: "changed" });
      }
    }
    for (const path of known.keys()) drifts.push({ file_path: path, drift: "missing" });
    if (tooLarge > 0) {
      diagnostics.push(makeDiagnostic(
        LLM_SYMBOLS,
        "MAG-IO-015",
        `${tooLarge} file(s) larger than max_file_bytes ${maxBytes} are not indexed, as ` +
          "`index` leaves them: not counted as drift",
        { level: "note" },
      ));
    }
    drifts.sort((a, b) => a.file_path < b.file_path ? -1 : a.file_path > b.file_path ? 1 : 0);
    const limit = options.limit ?? 0;
    const results = limit > 0 ? drifts.slice(0, limit) : drifts;
    return {
      data: {
        count: results.length,
        db_path: store.location.displayPath,
        checked: candidates.length + known.size,
        total: drifts.length,
        in_sync: drifts.length === 0,
        results,
      },
      diagnostics,
      partial: listingCut(results.length, drifts.length),
    };
  } finally {
    store.close();
  }
}
