/**
 * Output shapes of `llm-symbols`: the symbol index's records (definitions, uses of names,
 * imports) and what each subcommand prints (`index`, `status`, `verify`, `find`, `refs`,
 * `callers`, `callees`, `outline`, `imports`, `importers`).
 *
 * A definition's `symbol_id` is {@linkcode symbolId} of its language, file, qualified name and
 * kind, so it survives edits elsewhere in the file; a use is resolved to definitions when it is
 * answered (same file first, then the files its file imports, then a unique name in the whole
 * index) and keeps its resolution status, never dropped.
 *
 * @module
 */
import { z } from "zod";
import type { Span } from "./span_build.ts";
import { SpanSchema } from "./span.ts";
import { type SymbolRef, SymbolRefSchema } from "./extensions.ts";

export type { SymbolRef } from "./extensions.ts";

const count = z.number().int().nonnegative();
const hexId = z.string().regex(/^[0-9a-f]{16}$/);

/** Version of the index database's own schema (its tables), checked when the index is opened. */
export const SYMBOL_INDEX_VERSION = 1;

/** One definition of the index. */
export interface SymbolRecord {
  /** Its name as written, e.g. `parse`. */
  name: string;
  /** Its name qualified by its enclosing symbols, e.g. `Parser::parse`. */
  qualified_name: string;
  /** Normalised kind (`function`, `method`, `class`, …). */
  kind: string;
  /** Registry name of the language. */
  language: string;
  /** The whole definition. */
  span: Span;
  /** `symbolId` of (language, file_path, qualified_name, kind). */
  symbol_id: string;
  /** Qualified name of the enclosing symbol, when there is one. */
  parent?: string;
  /** The definition's first line, trimmed. */
  signature: string;
  /** Depth at which a transitive query (`callers`/`callees` with `depth`) reached it. */
  depth?: number;
  /** Fuzzy score in [0, 1] of a `find` with `match: fuzzy`. */
  score?: number;
}

/** zod schema of {@linkcode SymbolRecord}. */
export const SymbolRecordSchema: z.ZodType<SymbolRecord> = z.object({
  name: z.string(),
  qualified_name: z.string(),
  kind: z.string(),
  language: z.string(),
  span: SpanSchema,
  symbol_id: hexId,
  parent: z.string().optional(),
  signature: z.string(),
  depth: z.number().int().positive().optional(),
  score: z.number().min(0).max(1).optional(),
}).meta({ id: "SymbolRecord" });

/** How a use of a name was tied to definitions. */
export type Resolution = "resolved" | "ambiguous" | "unresolved";

/** Resolution statuses. */
export const RESOLUTIONS: readonly Resolution[] = ["resolved", "ambiguous", "unresolved"];

/** Where a resolution found its definition(s): the use's own file, a file it imports, or anywhere. */
export type ResolutionScope = "file" | "import" | "global";

/** One use of a name: a call site or another reference. */
export interface UseRecord {
  /** The name used. */
  name: string;
  /** `call` for a call site, `reference` for any other use. */
  kind: "call" | "reference";
  /** The name's own span. */
  span: Span;
  /** What qualifies the name, as written (`obj` of `obj.f()`). */
  qualifier?: string;
  /** The definition the use sits in (its caller for a call), when not at file scope. */
  caller?: SymbolRef;
  /**
   * `resolved`: one definition (`target`); `ambiguous`: several equally near (`candidates`);
   * `unresolved`: none in the index (an external or dynamic name).
   */
  resolution: Resolution;
  /** Where the definition(s) were found, when resolved or ambiguous. */
  resolved_in?: ResolutionScope;
  /** The definition, when resolved. */
  target?: SymbolRef;
  /** `symbol_id`s of the candidate definitions, when ambiguous. */
  candidates?: string[];
  /** Depth at which a transitive query reached it (1: direct). */
  depth?: number;
}

/** zod schema of {@linkcode UseRecord}. */
export const UseRecordSchema: z.ZodType<UseRecord> = z.object({
  name: z.string(),
  kind: z.enum(["call", "reference"]),
  span: SpanSchema,
  qualifier: z.string().optional(),
  caller: SymbolRefSchema.optional(),
  resolution: z.enum(["resolved", "ambiguous", "unresolved"]),
  resolved_in: z.enum(["file", "import", "global"]).optional(),
  target: SymbolRefSchema.optional(),
  candidates: z.array(hexId).optional(),
  depth: z.number().int().positive().optional(),
}).meta({ id: "UseRecord" });

/** One import, include or use declaration. */
export interface ImportRecord {
  /** What is imported, as written without quotes. */
  target: string;
  /** `include` for a C/C++ `#include`, `import` for every other form. */
  kind: "include" | "import";
  /** The names it brings in, when it lists them. */
  names?: string[];
  /** The whole declaration (its `file_path` is the importing file). */
  span: Span;
  /** The indexed file the target resolves to, when one does. */
  resolved_path?: string;
}

/** zod schema of {@linkcode ImportRecord}. */
export const ImportRecordSchema: z.ZodType<ImportRecord> = z.object({
  target: z.string(),
  kind: z.enum(["include", "import"]),
  names: z.array(z.string()).optional(),
  span: SpanSchema,
  resolved_path: z.string().optional(),
}).meta({ id: "ImportRecord" });

/** `data` of `llm-symbols find` and `outline`: definitions. */
export interface SymbolListData {
  /** Results listed in this document. */
  count: number;
  /** The name (find) or file (outline) asked for. */
  query: string;
  /** How names were matched: `exact`, `prefix`, `fuzzy`, or `file` for an outline. */
  match: "exact" | "prefix" | "fuzzy" | "file";
  /** Matching definitions, listed or not. */
  total: number;
  /** Whether an exact name matched more than one definition (nothing is picked for you). */
  ambiguous: boolean;
  /** The definitions: exact and prefix matches by file and position, fuzzy ones by score. */
  results: SymbolRecord[];
}

/** zod schema of {@linkcode SymbolListData}. */
export const SymbolListDataSchema: z.ZodType<SymbolListData> = z.object({
  count,
  query: z.string(),
  match: z.enum(["exact", "prefix", "fuzzy", "file"]),
  total: count,
  ambiguous: z.boolean(),
  results: z.array(SymbolRecordSchema),
});

/** `data` of `llm-symbols refs`, `callers` and `callees`: uses of names. */
export interface UseListData {
  /** Results listed in this document. */
  count: number;
  /** The name asked for. */
  query: string;
  /** The definitions the name denotes (several when it is ambiguous). */
  definitions: SymbolRecord[];
  /** Uses found, listed or not. */
  total: number;
  /** Uses by resolution status (of all found, listed or not). */
  resolution_counts: Record<Resolution, number>;
  /** The uses, by depth, then file and position. */
  results: UseRecord[];
}

/** zod schema of {@linkcode UseListData}. */
export const UseListDataSchema: z.ZodType<UseListData> = z.object({
  count,
  query: z.string(),
  definitions: z.array(SymbolRecordSchema),
  total: count,
  resolution_counts: z.object({ resolved: count, ambiguous: count, unresolved: count }),
  results: z.array(UseRecordSchema),
});

/** `data` of `llm-symbols imports` and `importers`. */
export interface ImportListData {
  /** Results listed in this document. */
  count: number;
  /** The file asked about (root-relative). */
  file_path: string;
  /** Imports found, listed or not. */
  total: number;
  /** Its imports (imports), or the imports of other files that resolve to it (importers). */
  results: ImportRecord[];
}

/** zod schema of {@linkcode ImportListData}. */
export const ImportListDataSchema: z.ZodType<ImportListData> = z.object({
  count,
  file_path: z.string(),
  total: count,
  results: z.array(ImportRecordSchema),
});

/** `data` of `llm-symbols status`: what the index holds and how fresh it is. */
export interface IndexStatusData {
  /** Always 1: one status. */
  count: number;
  /** The database file (root-relative). */
  db_path: string;
  /** The index schema version the database holds. */
  index_version: number;
  /** Indexed files. */
  files: number;
  /** Definitions. */
  symbols: number;
  /** Calls and other references. */
  references: number;
  /** Imports and includes. */
  imports: number;
  /** Indexed files that parsed with errors (indexed as far as the tree allows). */
  parse_error_files: number;
  /** Indexed files whose size and modification time still match the disk. */
  fresh: number;
  /** Indexed files changed on disk since (size or modification time differs). */
  stale: number;
  /** Indexed files no longer on disk. */
  missing: number;
  /** ISO 8601 time the last `index` run finished, when one has. */
  indexed_at?: string;
}

/** zod schema of {@linkcode IndexStatusData}. */
export const IndexStatusDataSchema: z.ZodType<IndexStatusData> = z.object({
  count,
  db_path: z.string(),
  index_version: z.number().int().positive(),
  files: count,
  symbols: count,
  references: count,
  imports: count,
  parse_error_files: count,
  fresh: count,
  stale: count,
  missing: count,
  indexed_at: z.iso.datetime().optional(),
});

/** How a file on disk differs from the index. */
export type DriftKind = "changed" | "missing" | "new";

/** One file whose index entry no longer matches the disk. */
export interface Drift {
  /** Root-relative path. */
  file_path: string;
  /** `changed`: content hash differs; `missing`: indexed, gone from disk; `new`: on disk, not indexed. */
  drift: DriftKind;
}

/** zod schema of {@linkcode Drift}. */
export const DriftSchema: z.ZodType<Drift> = z.object({
  file_path: z.string(),
  drift: z.enum(["changed", "missing", "new"]),
}).meta({ id: "Drift" });

/** `data` of `llm-symbols verify`: the index against the disk, by content hash. */
export interface VerifyData {
  /** Drifts listed in this document. */
  count: number;
  /** The database file (root-relative). */
  db_path: string;
  /** Files checked (indexed or on disk). */
  checked: number;
  /** Drifts found, listed or not. */
  total: number;
  /** Whether the index matches the disk exactly. */
  in_sync: boolean;
  /** The drifts, by path. */
  results: Drift[];
}

/** zod schema of {@linkcode VerifyData}. */
export const VerifyDataSchema: z.ZodType<VerifyData> = z.object({
  count,
  db_path: z.string(),
  checked: count,
  total: count,
  in_sync: z.boolean(),
  results: z.array(DriftSchema),
});

/** `result` of `llm-symbols index`. */
export interface IndexResult {
  /** The database file (root-relative). */
  db_path: string;
  /** Files of an indexed language the walk found. */
  files_seen: number;
  /** Files parsed and (re)stored this run. */
  parsed: number;
  /** Files whose content hash had not changed (not parsed again). */
  unchanged: number;
  /** Files removed from the index (deleted, renamed away, or no longer walked). */
  removed: number;
  /** Files parsed with errors, indexed as far as the tree allows. */
  parse_error_files: number;
  /** Files skipped (too large, unreadable, extraction failed or timed out). */
  skipped: number;
  /** Totals of the index after the run. */
  symbols: number;
  /** Total references after the run. */
  references: number;
  /** Total imports after the run. */
  imports: number;
  /** Wall time of the run in milliseconds. */
  duration_ms: number;
}

/** zod schema of {@linkcode IndexResult}. */
export const IndexResultSchema: z.ZodType<IndexResult> = z.object({
  db_path: z.string(),
  files_seen: count,
  parsed: count,
  unchanged: count,
  removed: count,
  parse_error_files: count,
  skipped: count,
  symbols: count,
  references: count,
  imports: count,
  duration_ms: count,
});
