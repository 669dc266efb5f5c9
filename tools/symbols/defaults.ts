/**
 * Defaults of `llm-symbols`, applied by the engine and shown by the input schemas.
 *
 * @module
 */
import { MAX_FILE_BYTES } from "../../core/symbol_index/defaults.ts";

/** Default values of the subcommands' options. */
export const SYMBOLS_DEFAULTS = {
  /** Results listed by a query. */
  limit: 50,
  /** Files larger than this many bytes are not indexed. */
  maxFileBytes: MAX_FILE_BYTES,
  /** Levels of a transitive `callers`/`callees` query (1: direct only). */
  depth: 1,
  /** Deepest `depth` accepted. */
  maxDepth: 16,
  /** Most calls on a path of `paths`. */
  pathDepth: 8,
  /** Paths listed by `paths`. */
  paths: 10,
  /** Edges listed by `export`. */
  exportEdges: 5000,
  /** The budget of `map` in tokens (characters / 4). */
  mapTokens: 2000,
  /** Close names suggested for an unknown symbol. */
  suggestions: 5,
} as const;
