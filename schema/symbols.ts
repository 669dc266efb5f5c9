/**
 * Output shapes of `llm-symbols`: the symbol index's records (definitions, uses of names,
 * imports) and what each subcommand prints (`index`, `status`, `verify`, `find`, `refs`,
 * `callers`, `callees`, `outline`, `imports`, `importers`, and the code graph's `reachable`,
 * `dead-code`, `cycles`, `paths`, `impact`, `export` and `map`).
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
export { SYMBOL_INDEX_VERSION } from "./symbol_index.ts";

const count = z.number().int().nonnegative();
const hexId = z.string().regex(/^[0-9a-f]{16}$/);

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
  /**
   * Uses found, listed or not. When the limit cut direct uses (depth 1), resolution stopped at
   * the first use past the limit and this is the count of the name's uses in scope: an upper
   * bound, since some may denote another definition of the same name.
   */
  total: number;
  /**
   * Uses by resolution status, of the uses resolved: all found, or, when the limit stopped the
   * resolution early, those listed and the one after them.
   */
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
  /** Files whose extraction failed, recorded with their content (listed in the diagnostics). */
  failed_files: number;
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
  failed_files: count,
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

/** What `llm-symbols index` wrote to the repository index `.llm/trigram.idx` (search's). */
export interface TrigramIndexResult {
  /** The index file (root-relative). */
  path: string;
  /** Files listed (the search's walk). */
  files: number;
  /** Text files whose trigrams were indexed. */
  indexed_files: number;
  /** Their bytes. */
  indexed_bytes: number;
  /** Distinct trigrams. */
  trigrams: number;
  /** Size of the index file. */
  index_bytes: number;
  /** Wall time of the build in milliseconds. */
  duration_ms: number;
}

/** zod schema of {@linkcode TrigramIndexResult}. */
export const TrigramIndexResultSchema: z.ZodType<TrigramIndexResult> = z.object({
  path: z.string(),
  files: count,
  indexed_files: count,
  indexed_bytes: count,
  trigrams: count,
  index_bytes: count,
  duration_ms: count,
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
  /**
   * The files the run wrote: the database and its `-wal`/`-shm` files, never a source file (a
   * long-lived host drops its cached entries of these only).
   */
  written: { file_path: string }[];
  /** The repository index written beside the database (absent when it could not be). */
  trigram_index?: TrigramIndexResult;
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
  written: z.array(z.object({ file_path: z.string() })),
  trigram_index: TrigramIndexResultSchema.optional(),
});

// --- The code graph: reachable, dead-code, cycles, paths, impact, export, map -------------------

/** `data` of `llm-symbols reachable`: what a symbol reaches through calls, or what reaches it. */
export interface ReachableData {
  /** Results listed in this document. */
  count: number;
  /** The symbol asked for, as given. */
  query: string;
  /** The symbol it denotes. */
  symbol: SymbolRef;
  /** `forward`: what it calls, transitively; `reverse`: what calls it, transitively. */
  direction: "forward" | "reverse";
  /** Symbols reached, listed or not. */
  total: number;
  /** The symbols reached, nearest first, each with its `depth` (calls away). */
  results: SymbolRecord[];
}

/** zod schema of {@linkcode ReachableData}. */
export const ReachableDataSchema: z.ZodType<ReachableData> = z.object({
  count,
  query: z.string(),
  symbol: SymbolRefSchema,
  direction: z.enum(["forward", "reverse"]),
  total: count,
  results: z.array(SymbolRecordSchema),
});

/** `data` of `llm-symbols dead-code`: functions no entry reaches. */
export interface DeadCodeData {
  /** Results listed in this document. */
  count: number;
  /** `given`: the entries named; `default`: main, exported or public definitions, uses at file scope. */
  entry_rule: "given" | "default";
  /** Entry definitions the walk started from. */
  entries: number;
  /** Unreachable functions, listed or not. */
  total: number;
  /** Unreachable functions left out because an ambiguous use may denote them. */
  maybe_used: number;
  /** The unreachable functions and methods, by file and position. */
  results: SymbolRecord[];
}

/** zod schema of {@linkcode DeadCodeData}. */
export const DeadCodeDataSchema: z.ZodType<DeadCodeData> = z.object({
  count,
  entry_rule: z.enum(["given", "default"]),
  entries: count,
  total: count,
  maybe_used: count,
  results: z.array(SymbolRecordSchema),
});

/** A group of symbols that call each other (a strongly connected component), or a recursion. */
export interface CycleRecord {
  /** How many symbols. */
  size: number;
  /** Its members, by file and position. */
  symbols: SymbolRef[];
}

/** zod schema of {@linkcode CycleRecord}. */
export const CycleRecordSchema: z.ZodType<CycleRecord> = z.object({
  size: z.number().int().positive(),
  symbols: z.array(SymbolRefSchema),
});

/** `data` of `llm-symbols cycles`. */
export interface CyclesData {
  /** Cycles listed in this document. */
  count: number;
  /** Cycles found, listed or not. */
  total: number;
  /** The cycles, largest first. */
  results: CycleRecord[];
}

/** zod schema of {@linkcode CyclesData}. */
export const CyclesDataSchema: z.ZodType<CyclesData> = z.object({
  count,
  total: count,
  results: z.array(CycleRecordSchema),
});

/** One call path. */
export interface PathRecord {
  /** Calls on it. */
  length: number;
  /** Its symbols, from the start to the end. */
  symbols: SymbolRef[];
}

/** zod schema of {@linkcode PathRecord}. */
export const PathRecordSchema: z.ZodType<PathRecord> = z.object({
  length: count,
  symbols: z.array(SymbolRefSchema),
});

/** `data` of `llm-symbols paths`. */
export interface PathsData {
  /** Paths listed. */
  count: number;
  /** Where paths start. */
  from: SymbolRef;
  /** Where they end. */
  to: SymbolRef;
  /** The simple call paths found, shortest first; partial when a bound may hide more. */
  results: PathRecord[];
}

/** zod schema of {@linkcode PathsData}. */
export const PathsDataSchema: z.ZodType<PathsData> = z.object({
  count,
  from: SymbolRefSchema,
  to: SymbolRefSchema,
  results: z.array(PathRecordSchema),
});

/** How to read {@linkcode ImpactData.score}. */
export const IMPACT_SCORE_FORMULA: string =
  "score = sum over the transitive callers c of 1/depth(c): a direct caller counts 1, a " +
  "caller's caller 1/2, the next 1/3; with depth 1 it is the number of direct callers";

/** `data` of `llm-symbols impact`: the blast radius of changing one symbol. */
export interface ImpactData {
  /** Callers listed in this document. */
  count: number;
  /** The symbol asked for, as given. */
  query: string;
  /** The symbol it denotes. */
  symbol: SymbolRef;
  /** Transitive callers, listed or not. */
  total: number;
  /** How many callers at each depth, nearest first. */
  levels: { depth: number; callers: number }[];
  /** The files holding the callers, sorted. */
  files: string[];
  /** See {@linkcode IMPACT_SCORE_FORMULA}. */
  score: number;
  /** The transitive callers, nearest first, each with its `depth`. */
  results: SymbolRecord[];
}

/** zod schema of {@linkcode ImpactData}. */
export const ImpactDataSchema: z.ZodType<ImpactData> = z.object({
  count,
  query: z.string(),
  symbol: SymbolRefSchema,
  total: count,
  levels: z.array(z.object({ depth: z.number().int().positive(), callers: count })),
  files: z.array(z.string()),
  score: z.number().nonnegative().describe(IMPACT_SCORE_FORMULA),
  results: z.array(SymbolRecordSchema),
});

/** A node of an exported graph. */
export interface GraphNodeRecord {
  /** Its id. */
  symbol_id: string;
  /** Qualified name. */
  name: string;
  /** Kind. */
  kind: string;
  /** File. */
  file_path: string;
  /** 1-based line of the definition. */
  line: number;
}

/** An edge of an exported graph: `from` calls `to`, `weight` times. */
export interface GraphEdgeRecord {
  /** Caller's id. */
  from: string;
  /** Callee's id. */
  to: string;
  /** Call sites it stands for. */
  weight: number;
}

/** `data` of `llm-symbols export`. */
export interface ExportData {
  /** Edges listed. */
  count: number;
  /** The form asked for: `json` fills nodes and results, `jsonl` and `dot` fill text. */
  format: "json" | "jsonl" | "dot";
  /** Edges of the call graph in scope, listed or not. */
  total: number;
  /** Every definition in scope, isolated ones too; when the edges are cut, their ends (json). */
  nodes?: GraphNodeRecord[];
  /** The listed edges (json). */
  results?: GraphEdgeRecord[];
  /** The graph as JSON lines (a node or edge object per line) or Graphviz DOT. */
  text?: string;
}

const GraphNodeRecordSchema: z.ZodType<GraphNodeRecord> = z.object({
  symbol_id: z.string(),
  name: z.string(),
  kind: z.string(),
  file_path: z.string(),
  line: z.number().int().positive(),
});

/** zod schema of {@linkcode ExportData}. */
export const ExportDataSchema: z.ZodType<ExportData> = z.object({
  count,
  format: z.enum(["json", "jsonl", "dot"]),
  total: count,
  nodes: z.array(GraphNodeRecordSchema).optional(),
  results: z.array(z.object({ from: z.string(), to: z.string(), weight: z.number().positive() }))
    .optional(),
  text: z.string().optional(),
});

/** A symbol shown in the repository map. */
export interface MapSymbol {
  /** Its stable id. */
  symbol_id: string;
  /** Its name. */
  name: string;
  /** Normalised kind, e.g. `function`. */
  kind: string;
  /** 1-based line of its definition. */
  line: number;
  /** The definition's first line: what the map shows. */
  signature: string;
  /** Its rank (higher first), e.g. its PageRank. */
  rank: number;
}

/** A file shown in the map, with its shown symbols in line order. */
export interface MapFile {
  /** Its path. */
  path: string;
  /** The highest rank among its shown symbols: files are listed by it, highest first. */
  rank: number;
  /** Its shown symbols, by line. */
  symbols: MapSymbol[];
}

const MapFileSchema: z.ZodType<MapFile> = z.object({
  path: z.string(),
  rank: z.number(),
  symbols: z.array(z.object({
    symbol_id: z.string(),
    name: z.string(),
    kind: z.string(),
    line: z.number().int().positive(),
    signature: z.string(),
    rank: z.number(),
  })),
});

/** `data` of `llm-symbols map`: the repository's most used definitions within a token budget. */
export interface RepoMapData {
  /** Files shown. */
  count: number;
  /** The budget in tokens (characters / 4). */
  budget: number;
  /** The map's size in tokens: never above the budget. */
  tokens: number;
  /** Symbols shown. */
  shown: number;
  /** Symbols ranked. */
  total: number;
  /** Whether the ranking restarted at the focus (false: no focus, or none of it indexed). */
  personalized: boolean;
  /** The map: file headers, then `line│signature` of their top symbols. */
  text: string;
  /** The same, structured: files by rank. */
  files: MapFile[];
}

/** zod schema of {@linkcode RepoMapData}. */
export const RepoMapDataSchema: z.ZodType<RepoMapData> = z.object({
  count,
  budget: count,
  tokens: count,
  shown: count,
  total: count,
  personalized: z.boolean(),
  text: z.string(),
  files: z.array(MapFileSchema),
});
