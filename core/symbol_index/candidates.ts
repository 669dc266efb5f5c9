/**
 * The files an index covers: the walk of the root with the toolkit's walker (the same ignore
 * rules as `llm-search`), each file of a language with a grammar, `.llm/` and the index itself
 * left out. Shared by `index` and `verify`, free of the parser so `verify` loads no grammar.
 *
 * @module
 */
import { Walker } from "../walk/walker.ts";
import type { EngineWalkOptions } from "../walk/walker.ts";
import type { RunCache } from "../cache.ts";
import type { Diagnostic } from "../../schema/diagnostic.ts";
import { LLM_SYMBOLS } from "../../schema/tool_names.ts";
import { languageForFile } from "../../grammars/languages.ts";
import { statIfPresent } from "./file_stat.ts";
import { type Stamp, stampOf } from "../racy_stamp.ts";
import { workersAvailable } from "../workers.ts";

/** The size and whole-millisecond mtime of a file now, or undefined when it is gone. */
export type FileStat = (filePath: string, absPath: string) => Stamp | undefined;

/** A stat of `absPath` on this thread (any failure but a missing file is thrown). */
const statHere: FileStat = (_filePath, absPath) => {
  const info = statIfPresent(absPath);
  return info && stampOf(info);
};

/** Whether a file of this name is of a language the index covers. */
function indexedLanguage(name: string): string | undefined {
  const language = languageForFile(name);
  return language && !language.unsupported ? language.name : undefined;
}

/** A walked file of an indexed language. */
export interface Candidate {
  absPath: string;
  path: string;
  language: string;
  size: number;
  mtime: number;
}

/**
 * The walked files of an indexed language, outside `.llm/` and other than the index itself
 * (`dbPath`, root-relative), each stat'ed by `options.stat` (by default on this thread); walk
 * problems are appended to `diagnostics`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { walkCandidates } from "./candidates.ts";
 * const root = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${root}/a.py`, "x = 1\n");
 * Deno.writeTextFileSync(`${root}/notes.txt`, "not a language the index reads\n");
 * const files = walkCandidates({ root }, ".llm/index.db", []);
 * assert.deepEqual(files.map((file) => file.language), ["python"]);
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export function walkCandidates(
  options: { root: string; walk?: EngineWalkOptions; stat?: FileStat },
  dbPath: string,
  diagnostics: Diagnostic[],
): Candidate[] {
  const walker = new Walker({
    ...options.walk,
    tool: LLM_SYMBOLS,
    prefix: "MAG",
    cwd: options.root,
  });
  const stat = options.stat ?? statHere;
  const candidates: Candidate[] = [];
  for (const entry of walker.entries()) {
    if (entry.kind !== "file" || entry.filePath === dbPath) continue;
    if (entry.filePath === ".llm" || entry.filePath.startsWith(".llm/")) continue;
    const language = indexedLanguage(entry.name);
    if (!language) continue;
    // Stat'ed here rather than by the walker: only the files of an indexed language.
    const info = stat(entry.filePath, entry.absPath);
    if (!info) continue;
    candidates.push({ absPath: entry.absPath, path: entry.filePath, language, ...info });
  }
  diagnostics.push(...walker.diagnostics);
  return candidates;
}

/** The walk the repository index recorded, and stamps of its files taken on two threads. */
export interface RecordedWalk {
  /** Serves the recorded walk to a walker with the same settings (see `IndexWalkSource`). */
  cache: RunCache;
  /**
   * Stats a file: an indexed file of a covered language is stat'ed by a worker (from the end of
   * the list) or here (from the start), whichever reaches it first; any other here.
   */
  stat: FileStat;
  /** Stops the worker if it still runs. */
  close(): void;
}

/**
 * The walk recorded in the repository index of `root` (`.llm/trigram.idx`), for
 * {@linkcode walkCandidates}: its walker takes the recorded list when the walk settings are the
 * same and no folder or ignore file of that walk changed since (one stat per folder instead of
 * reading every folder), and walks for real otherwise; its files are stat'ed on two threads.
 * Undefined when there is no usable repository index: a refused one is not reported here, since
 * the indexing run that asks rebuilds it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { recordedWalk } from "./candidates.ts";
 * const root = Deno.makeTempDirSync();
 * assert.equal(await recordedWalk(root), undefined); // no repository index there
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export async function recordedWalk(root: string): Promise<RecordedWalk | undefined> {
  const { openCheckedIndex } = await import("../trigram/open.ts");
  const index = await openCheckedIndex(root, LLM_SYMBOLS, "LMS", []);
  if (!index) return undefined;
  const { IndexWalkSource } = await import("../trigram/walk_source.ts");
  const { EntryStats } = await import("../trigram/entry_stats.ts");
  const wanted = (filePath: string) =>
    indexedLanguage(filePath.slice(filePath.lastIndexOf("/") + 1)) !== undefined;
  const stats = new EntryStats(index, root, workersAvailable(), undefined, wanted);
  return {
    cache: new IndexWalkSource(index, LLM_SYMBOLS, "MAG"),
    stat(filePath, absPath) {
      const id = index.idOf(filePath);
      const stat = id === undefined ? undefined : stats.of(id, absPath);
      // No stat (the file is gone, or its stat failed): this thread's stat says which.
      if (!stat || Number.isNaN(stat[1])) return statHere(filePath, absPath);
      return { size: stat[0], mtime: Math.trunc(stat[1]) };
    },
    close: () => stats.close(),
  };
}
