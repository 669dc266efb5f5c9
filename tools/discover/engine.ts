/**
 * The discover engine as a library function: walk with the shared walker, score every path of
 * the requested kind against the query, keep the best `limit`, then explain and stat only those.
 *
 * @module
 */
import { resolve } from "../../core/path_syntax.ts";
import { Breather } from "../../core/breather.ts";
import { listingCut } from "../../core/listing.ts";
import { type EngineWalkOptions, Walker } from "../../core/walk/walker.ts";
import { type Diagnostic, makeDiagnostic } from "../../schema/diagnostic.ts";
import type { DiscoverData, DiscoverResult } from "../../schema/discover.ts";
import { type CaseMode, checkQuery, parseQuery } from "../../core/fuzzy/query.ts";
import { PathScorer } from "../../core/fuzzy/scorer.ts";
import { TopN } from "../../core/fuzzy/top.ts";
import { LLM_DISCOVER } from "../../schema/tool_names.ts";
import { DISCOVER_DEFAULTS } from "./defaults.ts";
import { indexWalkCache } from "../../core/trigram/open.ts";

/** Walk settings discover passes through to the walker. */
export type DiscoverWalkOptions = EngineWalkOptions;

/** Everything a discovery needs. */
export interface DiscoverOptions {
  /** fzf extended-syntax query; empty lists paths in path order. */
  query: string;
  /** Tool root: relative paths resolve against it, paths are reported relative to it. */
  cwd: string;
  /** Files or directories to walk; default the root. */
  paths?: readonly string[];
  /** Find files (default) or directories. */
  kind?: "file" | "dir";
  /** Keep only names with one of these extensions (fd's `-e`, case-insensitive). */
  extensions?: readonly string[];
  /** Results to list (0: all); default 20. */
  limit?: number;
  /** Case rule; default fzf's smart case. */
  caseMode?: CaseMode;
  /** Walker settings. */
  walk?: DiscoverWalkOptions;
  /** Stops the run: it throws the signal's reason within a few milliseconds. */
  signal?: AbortSignal;
  /**
   * Take the file list from the repository index `<cwd>/.llm/trigram.idx` while its directory
   * stamps hold (default `true`); the results are the same either way.
   */
  useIndex?: boolean;
}

/** With a signal, the walk lets the event loop run (so an abort gets through) this often. */
const YIELD_MS = 50;

/** The result of a discovery. */
export interface DiscoverOutcome {
  /** The envelope's data. */
  data: DiscoverData;
  /** Walk diagnostics. */
  diagnostics: Diagnostic[];
  /** Whether the listing was cut by the limit. */
  partial: boolean;
}

interface Candidate {
  absPath: string;
  kind: "file" | "dir";
  /** Where the part of the path below the walked root starts. */
  start: number;
}

/**
 * Index in `filePath` where the part below the walked root begins: the last `depth` segments
 * (the basename of a file named on the command line). The query is matched against that part
 * only, since the rest is the same for every result of the root and would only let weak matches
 * borrow its characters (and it makes `^prefix` mean "at the top of the named directory").
 */
function relativeStart(filePath: string, depth: number): number {
  let start = filePath.length;
  for (let level = Math.max(depth, 1); level > 0; level--) {
    start = filePath.lastIndexOf("/", start - 1);
    if (start < 0) return 0;
  }
  return start + 1;
}

const encoder = new TextEncoder();

/**
 * fd's `--extension` test: whether a name ends with `.EXT` for one of `extensions` (compared
 * without case, given with or without the dot); `undefined` when no extension is asked for.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { extensionFilter } from "./engine.ts";
 * const keep = extensionFilter(["ts", ".MD"])!;
 * const names = ["Walker.TS", "README.md", "walker.ts.bak", ".ts"];
 * assert.deepEqual(names.map(keep), [true, true, false, false]);
 * ```
 */
export function extensionFilter(
  extensions: readonly string[],
): ((name: string) => boolean) | undefined {
  if (extensions.length === 0) return undefined;
  const suffixes = extensions.map((extension) => "." + extension.replace(/^\./, "").toLowerCase());
  return (name) => {
    const lower = name.toLowerCase();
    return suffixes.some((suffix) => lower.length > suffix.length && lower.endsWith(suffix));
  };
}

const TOOL = LLM_DISCOVER;

function sizeOf(candidate: Candidate, path: string, diagnostics: Diagnostic[]): number | null {
  if (candidate.kind === "dir") return null;
  try {
    return Deno.statSync(candidate.absPath).size;
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable) throw error;
    // A name that is not valid UTF-8 reaches JavaScript with U+FFFD in it and names no file.
    const reason = path.includes("\ufffd") && error instanceof Deno.errors.NotFound
      ? "its name is not valid UTF-8, so it cannot be named exactly"
      : error instanceof Error
      ? error.message
      : String(error);
    diagnostics.push(
      makeDiagnostic(TOOL, "LMD-IO-002", `cannot stat ${path}: ${reason}`, {
        level: "warning",
        file: path,
      }),
    );
    return null;
  }
}

/** What the walk found: the best candidates, and how many paths matched and were scanned. */
interface Scan {
  top: TopN<Candidate>;
  total: number;
  scanned: number;
}

/**
 * Walks and scores every path of the requested kind, keeping the best `limit`; lets the event
 * loop run now and then, so that an abort of `signal` gets through.
 */
async function scan(
  options: DiscoverOptions,
  walker: Walker,
  scorer: PathScorer,
  limit: number,
): Promise<Scan> {
  const kind = options.kind ?? "file";
  const keepName = extensionFilter(options.extensions ?? []);
  // Paths under the default root are already relative to it: no prefix to skip.
  const named = (options.paths ?? []).some((path) =>
    resolve(options.cwd, path) !== resolve(options.cwd)
  );
  const found: Scan = { top: new TopN<Candidate>(limit), total: 0, scanned: 0 };
  const breather = new Breather(options.signal, YIELD_MS);
  let entries = 0;
  for (const entry of walker.listOrWalk()) {
    if ((++entries & 255) === 0) await breather.breathe();
    if (entry.kind !== kind) continue;
    // A directory named on the command line is where the search happens, not a finding.
    if (entry.explicit && entry.kind === "dir") continue;
    if (keepName && !keepName(entry.name)) continue;
    found.scanned++;
    const path = entry.filePath;
    const start = named ? relativeStart(path, entry.depth) : 0;
    // The part scored has the entry's depth in segments (its slashes plus one), which the
    // scorer counts itself, and only for a path that passes its prefilter.
    const score = scorer.score(start === 0 ? path : path.slice(start));
    if (score < 0) continue;
    found.total++;
    if (found.top.admits(score, path)) {
      found.top.offer(score, path, {
        absPath: entry.absPath,
        kind: entry.kind,
        start,
      });
    }
  }
  return found;
}

/**
 * The walk's diagnostics by the file they name (stable): a walk in any order meets them in the
 * order its directories list their entries, which the answer must not depend on.
 */
function byFile(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return diagnostics.toSorted((a, b) => {
    const [x, y] = [a.file ?? "", b.file ?? ""];
    return x < y ? -1 : x > y ? 1 : 0;
  });
}

/** The warning of a query holding U+FFFD (an argument that was not valid UTF-8). */
function replacementCharWarning(): Diagnostic {
  return makeDiagnostic(
    TOOL,
    "LMD-QRY-003",
    "the query holds U+FFFD, the mark of invalid UTF-8",
    {
      level: "warning",
      note: "An argument that is not valid UTF-8 reaches the tool with U+FFFD in place of " +
        "each bad byte; it matches only names that are not valid UTF-8 either.",
      remediation: "Give the query as UTF-8 text.",
    },
  );
}

/** The results of the best candidates, best first: why each matched, where, and its size. */
function explain(
  top: TopN<Candidate>,
  scorer: PathScorer,
  diagnostics: Diagnostic[],
): DiscoverResult[] {
  const results: DiscoverResult[] = [];
  for (const { path, value } of top.sorted()) {
    const match = scorer.explain(path.slice(value.start));
    if (!match) continue;
    const shift = value.start === 0 ? 0 : encoder.encode(path.slice(0, value.start)).length;
    results.push({
      path,
      kind: value.kind,
      size: sizeOf(value, path, diagnostics),
      score: match.score,
      raw_score: match.rawScore,
      reason: match.reason,
      positions: shift === 0 ? match.positions : match.positions.map((offset) => offset + shift),
    });
  }
  return results;
}

/**
 * Finds the paths under `paths` that best match `query`. Throws `LMD-QRY-001` for a query over
 * `MAX_QUERY_BYTES` or `MAX_QUERY_TERMS`, `LMD-QRY-002` for one that is not text.
 *
 * @example Find the files named like "walker"
 * ```ts
 * import assert from "node:assert/strict";
 * import { discover } from "@llm/search/discover";
 * const cwd = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${cwd}/core/walk`, { recursive: true });
 * Deno.writeTextFileSync(`${cwd}/core/walk/walker.ts`, "");
 * Deno.writeTextFileSync(`${cwd}/core/walk/other_walker.ts`, "");
 * const { data } = await discover({ query: "walker", cwd, limit: 5 });
 * assert.deepEqual(data.results.map((r) => r.path), ["core/walk/walker.ts", "core/walk/other_walker.ts"]);
 * assert.equal(data.results[0].reason, "exact basename");
 * Deno.removeSync(cwd, { recursive: true });
 * ```
 */
export async function discover(options: DiscoverOptions): Promise<DiscoverOutcome> {
  checkQuery(options.query);
  options.signal?.throwIfAborted();
  const limit = options.limit ?? DISCOVER_DEFAULTS.limit;
  const scorer = new PathScorer(parseQuery(options.query, options.caseMode));
  const indexDiagnostics: Diagnostic[] = [];
  // The repository index's walk (while its directory stamps hold), or a host's cache kept
  // fresh by the index's file watcher.
  const cache = options.useIndex === false
    ? options.walk?.cache
    : await indexWalkCache(options.cwd, TOOL, "LMD", indexDiagnostics, options.walk?.cache);
  const walker = new Walker({
    ...options.walk,
    cache,
    tool: TOOL,
    prefix: "LMD",
    cwd: options.cwd,
    paths: options.paths,
    includeDirs: options.kind === "dir",
    // The ranking (score, then path) does not depend on the walk's order.
    anyOrder: true,
  });
  const { top, total, scanned } = await scan(options, walker, scorer, limit);
  options.signal?.throwIfAborted();
  const diagnostics = [...indexDiagnostics, ...byFile(walker.diagnostics)];
  if (options.query.includes("\ufffd")) diagnostics.push(replacementCharWarning());
  const results = explain(top, scorer, diagnostics);
  return {
    data: { count: results.length, query: options.query, total, scanned, results },
    diagnostics,
    partial: listingCut(results.length, total),
  };
}
