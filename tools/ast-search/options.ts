/**
 * The options of an ast-search run (the library's input; the CLI's flags map onto them).
 *
 * @module
 */
import type { RunCache } from "../../core/cache.ts";
import type { EngineWalkOptions } from "../../core/walk/walker.ts";

/** Walk settings passed through to the walker. */
export type AstSearchWalkOptions = EngineWalkOptions;

/** Everything an ast-search needs. */
export interface AstSearchOptions {
  /** Tool root: relative paths resolve against it, file paths are reported relative to it. */
  cwd: string;
  /** Files or directories to search; default the root. */
  paths?: readonly string[];
  /** A tree-sitter query (S-expression patterns). */
  query?: string;
  /** A file holding the query, relative to `cwd`. */
  queryFile?: string;
  /** Registry name or alias: search only that language (named files are parsed as it). */
  language?: string;
  /** Symbol kinds to report (definition queries); with a query, keeps matches of these kinds. */
  kinds?: readonly string[];
  /** Regular expression a symbol's name must match. */
  name?: string;
  /** Add `semantics`. */
  semantics?: boolean;
  /** Context lines before and after each match (0: none). */
  contextLines?: number;
  /** Add `checksums`. */
  checksums?: boolean;
  /** Longest text in bytes (0: no limit); default 500. */
  maxColumns?: number;
  /** Matches to list (0: all); default 200. */
  limit?: number;
  /** Walker settings. */
  walk?: AstSearchWalkOptions;
  /** Threads to parse on, the calling one included; default the number of CPUs. */
  threads?: number;
  /** A long-lived host's cache: per-file results of unchanged files are reused. */
  cache?: RunCache;
  /** Parse on workers only from this many bytes to parse; default `INLINE_BYTES` (1.5 MB). */
  parallelBytes?: number;
  /**
   * Keep the worker pool alive after the run, for the next; default: when a cache is given.
   * `closeSharedPool` ends it.
   */
  keepWorkers?: boolean;
  /** Files larger than this many bytes are not parsed; default 16 MiB. */
  maxParseBytes?: number;
  /** A parse is stopped once its thread's parser heap passes this many bytes; default 1 GiB. */
  maxParseMemory?: number;
  /** The parse and query of one file stop after this many milliseconds; default 60 s. */
  fileTimeoutMs?: number;
  /**
   * Test hook: the parser heap of every thread of the run may not grow past this many bytes
   * (default: the runtime's 2 GiB), so that a small input causes a real out-of-memory abort.
   */
  parserHeapCeiling?: number;
  /** Stops the run: workers are terminated and the run throws the signal's reason. */
  signal?: AbortSignal;
  /** Stream listed matches here instead of keeping them in `data`. */
  emit?: (item: unknown) => void;
}
