/**
 * Searching a batch of files: the unit of work a worker (or the main thread, for small
 * searches) takes. Plain data in and out, so it crosses `postMessage` unchanged.
 *
 * @module
 */
import type { MatcherSpec } from "./matcher.ts";
import { ReusableReader } from "./reader.ts";
import {
  type CompiledMatcher,
  compileMatcher,
  type FileResult,
  PAUSE,
  type SearchFileOptions,
  searchSteps,
} from "./searcher.ts";

/** A file to search. */
export interface BatchFile {
  /** Absolute path. */
  absPath: string;
  /** Contract path. */
  filePath: string;
  /** Named on the command line. */
  explicit: boolean;
}

/** What happened to one file of a batch. */
export interface BatchFileResult {
  /** Contract path. */
  filePath: string;
  /** Named on the command line. */
  explicit: boolean;
  /** `searched` (with a result when it matched), `binary` (skipped), or `error`. */
  status: "searched" | "binary" | "error";
  /** Matches, when any. */
  result?: FileResult;
  /** The read error, for status `error`. */
  error?: string;
}

/**
 * What a batch gave: most files of a search match nothing and only add to a count, so they
 * travel back as that count, not as one result each (a search of Linux sent 78,000 results back,
 * 13 of them matches; the count saves about 30 ms of CPU).
 */
export interface BatchOutcome {
  /** Files searched that matched nothing. */
  unmatched: number;
  /** The other files, in batch order: matched, binary or unreadable. */
  notable: BatchFileResult[];
}

/** A reusable batch searcher: one compiled matcher, one read buffer. */
export class BatchSearcher {
  readonly #matcher: CompiledMatcher;
  readonly #options: SearchFileOptions;
  /** The options of a file whose matches are only counted. */
  readonly #countOptions: SearchFileOptions;
  readonly #reader: ReusableReader;

  /**
   * Compiles `spec` once for all batches; `stop`, for a run under a time budget or a cancel,
   * is called as a pattern that may backtrack is matched, and ends the match by throwing.
   */
  constructor(spec: MatcherSpec, options: SearchFileOptions, stop?: () => void) {
    this.#matcher = compileMatcher(spec, stop);
    this.#options = options;
    this.#countOptions = options.mode === "matches" ? { ...options, mode: "counts" } : options;
    // Read straight into the prefilter's memory so the scan needs no copy.
    const prefilter = this.#matcher.prefilter;
    this.#reader = new ReusableReader(
      prefilter.active ? (length) => prefilter.buffer(length) : undefined,
    );
  }

  /**
   * Searches each file in order, telling `onFile` the index of each before it starts (so a
   * watcher knows which file a stuck search is on). With `countOnly`, matches are counted but
   * not made (their ids, spans, text): for files past a full listing, which none would reach.
   * Sandbox refusals are rethrown: they are the caller's to report.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { BatchSearcher } from "./batch.ts";
   * import { buildMatcher } from "./matcher.ts";
   * const dir = Deno.makeTempDirSync();
   * Deno.writeTextFileSync(`${dir}/a.txt`, "name\nnone\nname = name\n");
   * const searcher = new BatchSearcher(buildMatcher({ patterns: ["name"] }), {
   *   mode: "counts", before: 0, after: 0, maxColumns: 500, withChecksums: false,
   * });
   * const outcome = searcher.search([{ absPath: `${dir}/a.txt`, filePath: "a.txt", explicit: true }]);
   * const found = outcome.notable[0];
   * assert.ok(found.status === "searched" && found.result);
   * assert.equal(found.result.matchCount, 3);
   * assert.equal(found.result.lineCount, 2);
   * Deno.removeSync(dir, { recursive: true });
   * ```
   */
  search(
    files: readonly BatchFile[],
    onFile?: (index: number) => void,
    countOnly = false,
  ): BatchOutcome {
    const outcome: BatchOutcome = { unmatched: 0, notable: [] };
    const options = countOnly ? this.#countOptions : this.#options;
    for (const [index, file] of files.entries()) {
      onFile?.(index);
      const result = this.#searchFile(file, options);
      if (result) outcome.notable.push(result);
      else outcome.unmatched++;
    }
    return outcome;
  }

  /**
   * Searches one file as {@linkcode BatchSearcher.search} does, awaiting `pause` between pieces
   * of it: a search on a host's only thread lets the event loop run there, inside a large file.
   */
  async searchPausing(
    file: BatchFile,
    pause: () => Promise<void>,
    countOnly = false,
  ): Promise<BatchOutcome> {
    const steps = this.#fileSteps(file, countOnly ? this.#countOptions : this.#options);
    for (;;) {
      const step = steps.next();
      if (step.done) {
        return step.value ? { unmatched: 0, notable: [step.value] } : { unmatched: 1, notable: [] };
      }
      await pause();
    }
  }

  /** The result of one file, or undefined when it was searched and matched nothing. */
  #searchFile(file: BatchFile, options: SearchFileOptions): BatchFileResult | undefined {
    const steps = this.#fileSteps(file, options);
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
    }
  }

  /** One file's search, pausing between its pieces (see `searchSteps`). */
  *#fileSteps(
    file: BatchFile,
    options: SearchFileOptions,
  ): Generator<typeof PAUSE, BatchFileResult | undefined> {
    const { filePath, explicit } = file;
    let bytes: Uint8Array;
    try {
      bytes = this.#reader.read(file.absPath);
    } catch (error) {
      if (error instanceof Deno.errors.NotCapable) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      return { filePath, explicit, status: "error", error: reason };
    }
    if (this.#matcher.prefilter.isBinary(bytes)) return { filePath, explicit, status: "binary" };
    const result = yield* searchSteps(bytes, filePath, this.#matcher, options);
    return result && result.matchCount > 0
      ? { filePath, explicit, status: "searched", result }
      : undefined;
  }
}
