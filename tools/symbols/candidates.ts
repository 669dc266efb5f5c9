/**
 * The files an index covers: the walk of the root with the toolkit's walker (the same ignore
 * rules as `llm-search`), each file of a language with a grammar, `.llm/` and the index itself
 * left out. Shared by `index` and `verify`, free of the parser so `verify` loads no grammar.
 *
 * @module
 */
import { Walker } from "../../core/walk/walker.ts";
import type { EngineWalkOptions } from "../../core/walk/walker.ts";
import type { RunCache } from "../../core/cache.ts";
import type { Diagnostic } from "../../schema/diagnostic.ts";
import { LLM_SYMBOLS } from "../../schema/tool_names.ts";
import { languageForFile } from "../../grammars/languages.ts";
import { statIfPresent } from "./file_stat.ts";

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
 * (`dbPath`, root-relative); walk problems are appended to `diagnostics`.
 *
 * @example
 * ```ts
 * import { walkCandidates } from "./candidates.ts";
 * const root = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${root}/a.py`, "x = 1\n");
 * walkCandidates({ root }, ".llm/index.db", []).map((file) => file.language); // ["python"]
 * ```
 */
export function walkCandidates(
  options: { root: string; walk?: EngineWalkOptions },
  dbPath: string,
  diagnostics: Diagnostic[],
): Candidate[] {
  const walker = new Walker({
    ...options.walk,
    tool: LLM_SYMBOLS,
    prefix: "MAG",
    cwd: options.root,
  });
  const candidates: Candidate[] = [];
  for (const entry of walker.entries()) {
    if (entry.kind !== "file" || entry.filePath === dbPath) continue;
    if (entry.filePath === ".llm" || entry.filePath.startsWith(".llm/")) continue;
    const language = languageForFile(entry.name);
    if (!language || language.unsupported) continue;
    // Stat'ed here rather than by the walker: only the files of an indexed language.
    const info = statIfPresent(entry.absPath);
    if (!info) continue;
    candidates.push({
      absPath: entry.absPath,
      path: entry.filePath,
      language: language.name,
      size: info.size,
      mtime: Math.trunc(info.mtime?.getTime() ?? 0),
    });
  }
  diagnostics.push(...walker.diagnostics);
  return candidates;
}

/**
 * The walk recorded in the repository index of `root` (`.llm/trigram.idx`), as a walk cache
 * for {@linkcode walkCandidates}: its walker takes the recorded list when the walk settings are
 * the same and no folder or ignore file of that walk changed since (one stat per folder instead
 * of reading every folder), and walks for real otherwise. Undefined when there is no usable
 * repository index: a refused one is not reported here, since the indexing run that asks
 * rebuilds it.
 *
 * @example
 * ```ts
 * import { recordedWalk } from "./candidates.ts";
 * await recordedWalk(Deno.makeTempDirSync()); // undefined
 * ```
 */
export async function recordedWalk(root: string): Promise<RunCache | undefined> {
  const { openCheckedIndex } = await import("../../core/trigram/open.ts");
  const index = await openCheckedIndex(root, LLM_SYMBOLS, "LMS", []);
  if (!index) return undefined;
  const { IndexWalkSource } = await import("../../core/trigram/walk_source.ts");
  return new IndexWalkSource(index, LLM_SYMBOLS, "MAG");
}
