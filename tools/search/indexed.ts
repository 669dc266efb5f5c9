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
import { type Diagnostic, makeDiagnostic } from "../../schema/diagnostic.ts";
import { ignoredIndex, openCheckedIndex } from "../../core/trigram/open.ts";
import type { SearchIndexUse } from "../../schema/search.ts";
import { LLM_SEARCH } from "../../schema/tool_names.ts";
import { workersAvailable } from "../../core/workers.ts";
import type { EntryStat } from "../../core/trigram/entry_stats.ts";
import type { EntryFreshness } from "../../core/trigram/live.ts";
import type { MatcherSpec } from "./matcher.ts";

/** The index as a search uses it: a walk source and a per-file filter. */
export interface SearchIndex {
  /**
   * The walk cache for the walker given the host's cache (if any): the host's, the index's
   * walk when there is no host, or the host's kept fresh by the live index's watcher.
   */
  walkCache(host: RunCache | undefined): RunCache | undefined;
  /**
   * Keeps the files to read; counts the files ruled out. A recorded walk (an array) is read in
   * one pass at once; a walk being made is filtered as it goes.
   */
  filter(entries: readonly WalkEntry[] | Iterable<WalkEntry>): Iterator<WalkEntry>;
  /** Text files ruled out by the index (searched, no match). */
  readonly ruledOut: number;
  /** What the output says about the index. */
  use(): SearchIndexUse;
}

/**
 * The index of `cwd` prepared for `spec`, or undefined when there is none; a corrupt or stale
 * index adds an `LMS-IO-010` warning to `diagnostics` and is not used. A long-lived host's
 * cache (`host`) keeps the index live: a file watcher tells which files changed, so no file is
 * stat'ed unless it did (`core/trigram/live.ts`); where no watcher can run, every indexed file
 * is stat'ed, with an `LMS-IO-011` note.
 */
export async function openSearchIndex(
  cwd: string,
  spec: MatcherSpec,
  diagnostics: Diagnostic[],
  host?: RunCache,
): Promise<SearchIndex | undefined> {
  const index = await openCheckedIndex(cwd, LLM_SEARCH, "LMS", diagnostics);
  if (!index) return undefined;
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
  if (host) {
    const { liveTrigramIndex } = await import("../../core/trigram/live.ts");
    const view = await liveTrigramIndex(host, index.meta.root).view(index);
    if (typeof view !== "string") {
      const walkCache = view.walkCache(host, LLM_SEARCH, "LMS");
      const freshness = { of: (id: number) => view.freshness(id), close() {} };
      return new IndexFilter(index, candidates, walkCache, freshness, true);
    }
    diagnostics.push(unwatchedNote(view));
  }
  const { IndexWalkSource } = await import("../../core/trigram/walk_source.ts");
  const { EntryStats } = await import("../../core/trigram/entry_stats.ts");
  const walkSource = new IndexWalkSource(index, LLM_SEARCH, "LMS");
  // Only a search that rules files out needs their stats.
  const stats = new EntryStats(index, cwd, candidates !== undefined && workersAvailable());
  return new IndexFilter(index, candidates, walkSource, statFreshness(index, stats), false);
}

/** The `LMS-IO-011` note of a host whose index is not watched. */
function unwatchedNote(reason: string): Diagnostic {
  return makeDiagnostic(
    LLM_SEARCH,
    "LMS-IO-011",
    `the repository index is kept fresh by a stat of every indexed file at each search: ${reason}`,
    { level: "note" },
  );
}

/** Tells whether indexed files are unchanged. */
interface FreshnessSource {
  /** The state of entry `id`, the file at `absPath`. */
  of(id: number, absPath: string): EntryFreshness;
  /** Releases what it holds. */
  close(): void;
}

/** Freshness from a stat of each file, taken when the filter reaches it. */
function statFreshness(index: IndexView, stats: StatSource): FreshnessSource {
  return {
    of(id, absPath) {
      const stat = stats.of(id, absPath);
      if (stat === undefined) return "unknown";
      return index.trusted(id, stat[0], stat[1]) ? "fresh" : "changed";
    },
    close: () => stats.close(),
  };
}

/** Where the filter takes the files' stats from. */
interface StatSource {
  of(id: number, absPath: string): EntryStat;
  close(): void;
}

/** What the filter needs of the index. */
interface IndexView {
  idOf(filePath: string): number | undefined;
  trusted(id: number, size: number, mtimeMs: number): boolean;
  binary(id: number): boolean;
}

/** Per opened index, the index ids of the entries of each recorded walk filtered with it. */
const idsByIndex = new WeakMap<IndexView, WeakMap<readonly WalkEntry[], Int32Array>>();

class IndexFilter implements SearchIndex {
  readonly #walkSource: RunCache & { served: boolean };
  readonly #index: IndexView;
  readonly #candidates: Uint8Array | undefined;
  readonly #freshness: FreshnessSource;
  readonly #live: boolean;
  ruledOut = 0;
  #verified = 0;
  #changed = 0;

  constructor(
    index: IndexView,
    candidates: Uint8Array | undefined,
    walkSource: RunCache & { served: boolean },
    freshness: FreshnessSource,
    live: boolean,
  ) {
    this.#index = index;
    this.#freshness = freshness;
    this.#candidates = candidates;
    this.#walkSource = walkSource;
    this.#live = live;
  }

  walkCache(host: RunCache | undefined): RunCache | undefined {
    // A host's own cache keeps walks fresher than the index file can; the live index wraps it.
    return this.#live ? this.#walkSource : host ?? this.#walkSource;
  }

  filter(entries: readonly WalkEntry[] | Iterable<WalkEntry>): Iterator<WalkEntry> {
    if (!Array.isArray(entries)) return this.#filtered(entries[Symbol.iterator]());
    try {
      return this.#keptOf(entries).values();
    } finally {
      this.#freshness.close();
    }
  }

  *#filtered(entries: Iterator<WalkEntry>): Generator<WalkEntry> {
    try {
      yield* this.#kept(entries);
    } finally {
      this.#freshness.close();
    }
  }

  /** What `#kept` keeps of a recorded walk, in one loop. */
  #keptOf(entries: readonly WalkEntry[]): WalkEntry[] {
    const candidates = this.#candidates;
    const ids = candidates ? this.#idsOf(entries) : undefined;
    const kept: WalkEntry[] = [];
    for (let at = 0; at < entries.length; at++) {
      const entry = entries[at];
      if (entry.kind !== "file") {
        kept.push(entry);
        continue;
      }
      const id = ids && !entry.explicit ? ids[at] : -1;
      if (id < 0 || !this.#freshAt(id, entry)) {
        this.#verified++;
        kept.push(entry);
      } else if (this.#index.binary(id)) continue;
      else if (candidates![id]) {
        this.#verified++;
        kept.push(entry);
      } else this.ruledOut++;
    }
    return kept;
  }

  /** Whether indexed entry `id` is unchanged since (counting it when changed). */
  #freshAt(id: number, entry: WalkEntry): boolean {
    const freshness = this.#freshness.of(id, entry.absPath);
    if (freshness === "changed") this.#changed++;
    return freshness === "fresh";
  }

  /** The index id of each entry of a recorded walk (-1 when not indexed), kept per walk. */
  #idsOf(entries: readonly WalkEntry[]): Int32Array {
    let byWalk = idsByIndex.get(this.#index);
    if (!byWalk) idsByIndex.set(this.#index, byWalk = new WeakMap());
    let ids = byWalk.get(entries);
    if (ids) return ids;
    ids = new Int32Array(entries.length);
    for (let at = 0; at < entries.length; at++) {
      const entry = entries[at];
      ids[at] = entry.kind === "file" ? this.#index.idOf(entry.filePath) ?? -1 : -1;
    }
    byWalk.set(entries, ids);
    return ids;
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
    const freshness = this.#freshness.of(id, entry.absPath);
    if (freshness === "fresh") return id;
    if (freshness === "changed") this.#changed++;
    return undefined;
  }

  use(): SearchIndexUse {
    return {
      used: this.#candidates !== undefined || this.#walkSource.served,
      walk: this.#walkSource.served,
      postings: this.#candidates !== undefined,
      files_verified: this.#verified,
      files_ruled_out: this.ruledOut,
      files_changed: this.#changed,
      freshness: this.#live ? "watcher" : "stamps",
    };
  }
}
