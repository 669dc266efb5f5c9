/**
 * Search over the repository index (`<root>/.llm/trigram.idx`, built by `llm-symbols index`):
 * the index's walk replaces the directory walk while its directory stamps hold, and its
 * trigram postings rule out files that cannot hold a required literal (the prefilter's
 * literals, so the same soundness). A file is ruled out only when its size and mtime are those
 * it was indexed with; a changed, new or racily indexed file is searched directly, so the
 * results are those of a search without the index. The index reader is loaded only when an
 * index file exists.
 *
 * @module
 */
import type { RunCache } from "../../core/cache.ts";
import type { WalkEntry } from "../../core/walk/walk_entry.ts";
import type { Diagnostic } from "../../schema/diagnostic.ts";
import { ignoredIndex, openCheckedIndex } from "../../core/trigram/open.ts";
import type { SearchIndexUse } from "../../schema/search.ts";
import { LLM_SEARCH } from "../../schema/tool_names.ts";
import { workersAvailable } from "../../core/workers.ts";
import type { Stamp } from "../../core/trigram/stamps.ts";
import type { MatcherSpec } from "./matcher.ts";

/** The index as a search uses it: a walk source and a per-file filter. */
export interface SearchIndex {
  /** A walk cache serving the indexed walk (when the walker has no host cache). */
  walkSource?: RunCache;
  /** Keeps the files to read; counts the files ruled out. */
  filter(entries: Iterator<WalkEntry>): Generator<WalkEntry>;
  /** Text files ruled out by the index (searched, no match). */
  readonly ruledOut: number;
  /** What the output says about the index. */
  use(): SearchIndexUse;
}

/**
 * The index of `cwd` prepared for `spec`, or undefined when there is none; a corrupt or stale
 * index adds an `LMS-IO-010` warning to `diagnostics` and is not used.
 */
export async function openSearchIndex(
  cwd: string,
  spec: MatcherSpec,
  diagnostics: Diagnostic[],
): Promise<SearchIndex | undefined> {
  const index = await openCheckedIndex(cwd, LLM_SEARCH, "LMS", diagnostics);
  if (!index) return undefined;
  const { IndexWalkSource } = await import("../../core/trigram/walk_source.ts");
  const { FileStamps } = await import("../../core/trigram/stamps.ts");
  let candidates: Uint8Array | undefined;
  try {
    candidates = spec.literals.length > 0
      ? index.candidates(spec.literals, spec.literalsIgnoreCase)
      : undefined;
  } catch (error) {
    // A posting block that fails its checksum (or cannot be read) refuses the whole index.
    if (error instanceof Deno.errors.NotCapable) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    diagnostics.push(ignoredIndex(LLM_SEARCH, "LMS", reason));
    return undefined;
  }
  const walkSource = new IndexWalkSource(index, LLM_SEARCH, "LMS");
  // Only a search that rules files out needs their stamps.
  const stamps = new FileStamps(index, cwd, candidates !== undefined && workersAvailable());
  return new IndexFilter(index, candidates, walkSource, stamps);
}

/** Where the filter takes file stamps from. */
interface StampSource {
  of(id: number, absPath: string): Stamp;
  close(): void;
}

/** What the filter needs of the index. */
interface IndexView {
  idOf(filePath: string): number | undefined;
  trusted(id: number, size: number, mtimeMs: number): boolean;
  binary(id: number): boolean;
}

class IndexFilter implements SearchIndex {
  readonly walkSource: RunCache & { served: boolean };
  readonly #index: IndexView;
  readonly #candidates: Uint8Array | undefined;
  readonly #stamps: StampSource;
  ruledOut = 0;
  #verified = 0;
  #changed = 0;

  constructor(
    index: IndexView,
    candidates: Uint8Array | undefined,
    walkSource: RunCache & { served: boolean },
    stamps: StampSource,
  ) {
    this.#index = index;
    this.#stamps = stamps;
    this.#candidates = candidates;
    this.walkSource = walkSource;
  }

  *filter(entries: Iterator<WalkEntry>): Generator<WalkEntry> {
    try {
      yield* this.#kept(entries);
    } finally {
      this.#stamps.close();
    }
  }

  *#kept(entries: Iterator<WalkEntry>): Generator<WalkEntry> {
    const candidates = this.#candidates;
    for (let next = entries.next(); !next.done; next = entries.next()) {
      const entry = next.value;
      if (entry.kind !== "file") {
        yield entry;
        continue;
      }
      const id = candidates && !entry.explicit ? this.#fresh(entry) : undefined;
      if (!candidates || id === undefined) {
        this.#verified++;
        yield entry;
        continue;
      }
      if (this.#index.binary(id)) continue;
      if (candidates[id]) {
        this.#verified++;
        yield entry;
      } else this.ruledOut++;
    }
  }

  /** The entry id when the file is indexed and unchanged since; else undefined. */
  #fresh(entry: WalkEntry): number | undefined {
    const id = this.#index.idOf(entry.filePath);
    if (id === undefined) return undefined;
    const stamp = this.#stamps.of(id, entry.absPath);
    if (stamp === undefined) return undefined;
    if (this.#index.trusted(id, stamp[0], stamp[1])) return id;
    this.#changed++;
    return undefined;
  }

  use(): SearchIndexUse {
    return {
      used: this.#candidates !== undefined || this.walkSource.served,
      walk: this.walkSource.served,
      postings: this.#candidates !== undefined,
      files_verified: this.#verified,
      files_ruled_out: this.ruledOut,
      files_changed: this.#changed,
    };
  }
}
