/**
 * Gathers per-file results in walk order into the search data: counts, the listing cut at
 * `--limit`, and the diagnostics of files that could not be searched. With a stream sink the
 * listed items go out as soon as their turn comes instead of being kept.
 *
 * @module
 */
import { Listing } from "../../core/listing.ts";
import { type Diagnostic, makeDiagnostic } from "../../schema/diagnostic.ts";
import type { FileCount, SearchData, SearchMatch } from "../../schema/search.ts";
import type { BatchOutcome } from "./batch.ts";
import { LLM_SEARCH } from "../../schema/tool_names.ts";

/** One listed result: a match, a file name (`files` mode) or a file's counts (`counts` mode). */
type Listed = SearchMatch | string | FileCount;

/** A listed result as a stream item: a match as it is, a file or counts with their `type`. */
function streamed(item: Listed): unknown {
  if (typeof item === "string") return { type: "file", file_path: item };
  return "match_id" in item ? item : { type: "count", ...item };
}

/** What the collector lists. */
export type SearchMode = SearchData["mode"];

/** Accumulates ordered results. */
export class ResultCollector {
  readonly data: SearchData;
  readonly diagnostics: Diagnostic[] = [];
  readonly #listing: Listing<Listed>;

  /** A collector listing at most `limit` results (0: all), streaming them to `emit` when given. */
  constructor(patterns: string[], mode: SearchMode, limit: number, emit?: (item: unknown) => void) {
    this.data = {
      count: 0,
      patterns,
      mode,
      match_count: 0,
      files_searched: 0,
      files_matched: 0,
      matches: [],
    };
    if (mode === "files") this.data.files = [];
    if (mode === "counts") this.data.counts = [];
    this.#listing = new Listing<Listed>(limit, (item) => {
      this.data.count++;
      if (emit) emit(streamed(item));
      else this.#keep(item);
    });
  }

  /**
   * Whether the files of later batches need only be counted: matches are listed and the listing
   * is full, so none of theirs would be listed (a batch dispatched now comes after every batch
   * added so far in walk order).
   */
  get countsSuffice(): boolean {
    return this.data.mode === "matches" && !this.#listing.hasRoom;
  }

  /** Whether the listing was cut by the limit. */
  get partial(): boolean {
    return this.#listing.cut;
  }

  #keep(item: Listed): void {
    if (typeof item === "string") this.data.files?.push(item);
    else if ("match_id" in item) this.data.matches.push(item);
    else this.data.counts?.push(item);
  }

  /** Adds the outcome of the next batch in walk order. */
  add(outcome: BatchOutcome): void {
    this.data.files_searched += outcome.unmatched;
    for (const file of outcome.notable) {
      if (file.status === "error") {
        this.diagnostics.push(
          makeDiagnostic(
            LLM_SEARCH,
            "LMS-IO-002",
            `cannot read ${file.filePath}: ${file.error}`,
            {
              level: "warning",
              file: file.filePath,
            },
          ),
        );
        continue;
      }
      if (file.status === "binary") {
        if (file.explicit) {
          this.diagnostics.push(
            makeDiagnostic(LLM_SEARCH, "LMS-IO-002", `skipped binary file ${file.filePath}`, {
              level: "note",
              file: file.filePath,
              remediation: "Binary files (a NUL byte in the first 8 KiB) are not searched.",
            }),
          );
        }
        continue;
      }
      this.data.files_searched++;
      const result = file.result;
      if (!result) continue;
      this.data.files_matched++;
      this.data.match_count += result.matchCount;
      if (this.data.mode === "files") this.#listing.offer(file.filePath);
      else if (this.data.mode === "counts") {
        this.#listing.offer({
          file_path: file.filePath,
          lines: result.lineCount,
          matches: result.matchCount,
        });
      } else {
        for (const match of result.matches) this.#listing.offer(match);
        // A file searched for counts only: its matches would not have been listed.
        this.#listing.countUnlisted(result.matchCount - result.matches.length);
      }
    }
  }

  /** The final data: `total` is set when the limit cut the listing. */
  finish(): SearchData {
    const total = this.#listing.cutTotal;
    if (total !== undefined) this.data.total = total;
    return this.data;
  }
}
