/**
 * The compact form of query results (contract §9): what an agent reads by default (the MCP
 * answer, and `--format compact` on the command line). Results come first, as rows under a
 * `columns` header, grouped by file; ids, checksums, captures and whole node text are left out
 * (the full envelope has them). Diagnostics follow, summarised by code: a count and up to three
 * examples each.
 *
 * This module is the machinery every tool's form shares, and names no tool: a tool declares its
 * own {@linkcode CompactForm} (`compact` of its definition, built in `tools/<tool>/compact.ts`),
 * its compact data's types and schema are in its own `schema/<tool>.ts`, and the zod schemas of
 * what is here in `compact_schema.ts`, so that a form loads no zod.
 *
 * @module
 */
import {
  type CompactGateRefusal,
  type Diagnostic,
  type DiagnosticLevel,
  isGateRefusal,
  type MutationError,
  refusalDiagnostic,
} from "./diagnostic.ts";
import type {
  Envelope,
  MutationEnvelope,
  MutationStatus,
  QueryEnvelope,
  QueryStatus,
} from "./envelope.ts";
import type { UndoResult } from "./journal.ts";

/** How much an answer shows: `compact` (the default of agents) or `full` (the whole envelope). */
export type Detail = "compact" | "full";

/** The values of {@linkcode Detail}. */
export const DETAILS: readonly Detail[] = ["compact", "full"];

/** Longest line text or first line a compact row carries, in characters (then `…`). */
export const COMPACT_TEXT_CHARS = 160;

/** Examples a {@linkcode DiagnosticSummary} keeps. */
export const SUMMARY_EXAMPLES = 3;

/** One diagnostic shown as an example of its code. */
export interface DiagnosticExample {
  /** Its message. */
  message: string;
  /** The file concerned. */
  file?: string;
  /** 1-based line concerned. */
  line?: number;
}

/** Every diagnostic of one code and level, counted, with a few examples. */
export interface DiagnosticSummary {
  /** Registry code (`--explain CODE` says what it means and what to do). */
  code: string;
  /** Severity. */
  level: DiagnosticLevel;
  /** How many diagnostics had this code and level. */
  count: number;
  /** The first {@linkcode SUMMARY_EXAMPLES} of them. */
  examples: DiagnosticExample[];
}

/**
 * Where the next page of a cut answer is: call `tool` with `arguments`, exactly. It is
 * `get_execution` (the stored result's next page, without running the tool again) while the
 * stored result holds more, else the listing tool itself from where its stored items end.
 */
export interface NextPage {
  /** The tool to call. */
  tool: string;
  /** Its arguments. */
  arguments: Record<string, unknown>;
}

/** A query envelope in compact form. */
export interface CompactEnvelope<D = unknown> {
  /** Contract version. */
  schema_version: string;
  /** UUID v4 of the run: `get_execution` returns its full result. */
  execution_id: string;
  /** Tool name. */
  tool: string;
  /** Always `compact`; `detail: "full"` (`--format json`) gives the whole envelope. */
  form: "compact";
  /** `partial` when a limit, timeout or the output budget cut the results. */
  status: QueryStatus;
  /** Present and true when results were cut. */
  partial?: true;
  /** The results. */
  data: D;
  /** Where the next page is, when a limit or the output budget cut the list. */
  next_page?: NextPage;
  /** Diagnostics summarised by code, after the results. */
  diagnostics: DiagnosticSummary[];
}

/** A mutation envelope in compact form (no timestamp, workspace or journal path). */
export interface CompactMutationEnvelope<R = unknown> {
  /** Contract version. */
  schema_version: string;
  /** UUID v4 of the run: `get_execution` returns its full result; `undo` takes it. */
  execution_id: string;
  /** Tool name. */
  tool: string;
  /** Always `compact`; `detail: "full"` (`--format json`) gives the whole envelope. */
  form: "compact";
  /** What kind of mutation, e.g. `edit`, `replace`, `undo`. */
  operation_type: string;
  /** Outcome. */
  status: MutationStatus;
  /** One-line summary. */
  message: string;
  /** The result, in compact form. */
  result?: R;
  /**
   * The error that stopped the run, in full (its note and remediation or hint say what to do);
   * a gate's refusal without its gate errors, which are among the summarised diagnostics.
   */
  error?: Diagnostic | CompactGateRefusal;
  /** The other diagnostics, summarised by code. */
  diagnostics: DiagnosticSummary[];
}

/** Any answer in compact form. */
export type CompactAnswer = CompactEnvelope | CompactMutationEnvelope;

/** A file's rows. */
export interface FileRows<R> {
  /** The file. */
  file_path: string;
  /** Its results in file order, one row each, laid out as `columns` says. */
  rows: R[];
}

/** Compact result of an undo (a transform's or a write's): the operation undone, the files restored. */
export interface CompactUndoResult {
  /** Nothing was changed: this is what the undo would do. */
  dry_run: boolean;
  /** Execution id of the operation undone. */
  undone_execution_id: string;
  /** Number of files restored (or to restore). */
  count: number;
  /** The files, sorted by path. */
  files: string[];
  /** Unified diff of the undo (dry run). */
  diff?: string;
}

/**
 * The compact result of an undo: the files restored, without their checksums.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compactUndoResult } from "@llm/search/schema";
 * const compact = compactUndoResult({
 *   dry_run: false, undone_execution_id: "x", count: 0, files: [],
 * });
 * assert.deepEqual(compact.files, []);
 * ```
 */
export function compactUndoResult(result: UndoResult): CompactUndoResult {
  const compact: CompactUndoResult = {
    dry_run: result.dry_run,
    undone_execution_id: result.undone_execution_id,
    count: result.count,
    files: result.files.map((file) => file.file_path),
  };
  if (result.diff !== undefined) compact.diff = result.diff;
  return compact;
}

/**
 * Summarises diagnostics by code and level, in order of first appearance: a count and the
 * first {@linkcode SUMMARY_EXAMPLES} messages each.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { makeDiagnostic, summariseDiagnostics } from "@llm/search/schema";
 * const skipped = makeDiagnostic("llm-ast-search", "LAS-IO-001", "cannot parse a.c", {
 *   level: "warning",
 * });
 * assert.equal(summariseDiagnostics([skipped, skipped])[0].count, 2);
 * ```
 */
export function summariseDiagnostics(diagnostics: readonly Diagnostic[]): DiagnosticSummary[] {
  const byKey = new Map<string, DiagnosticSummary>();
  for (const diagnostic of diagnostics) {
    const key = `${diagnostic.level} ${diagnostic.code}`;
    let summary = byKey.get(key);
    if (!summary) {
      summary = { code: diagnostic.code, level: diagnostic.level, count: 0, examples: [] };
      byKey.set(key, summary);
    }
    summary.count++;
    if (summary.examples.length < SUMMARY_EXAMPLES) summary.examples.push(exampleOf(diagnostic));
  }
  return [...byKey.values()];
}

function exampleOf(diagnostic: Diagnostic): DiagnosticExample {
  const example: DiagnosticExample = { message: diagnostic.message };
  const file = diagnostic.file ?? diagnostic.span?.file_path;
  const at = diagnostic.line ?? diagnostic.span?.start_line;
  if (file !== undefined) example.file = file;
  if (at !== undefined) example.line = at;
  return example;
}

/**
 * `text` cut to {@linkcode COMPACT_TEXT_CHARS} characters, with `…` when cut (a row's line text).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { COMPACT_TEXT_CHARS, cut } from "@llm/search/schema";
 * assert.equal(cut("x".repeat(200)).length, COMPACT_TEXT_CHARS + 1);
 * ```
 */
export function cut(text: string): string {
  if (text.length <= COMPACT_TEXT_CHARS) return text;
  let end = COMPACT_TEXT_CHARS;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--; // never split a surrogate pair
  return text.slice(0, end) + "…";
}

/**
 * The first line of `text`, trailing blanks removed, cut (a row's signature of a definition).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { firstLine } from "@llm/search/schema";
 * assert.equal(firstLine("int main(void) \n{\n}\n"), "int main(void)");
 * ```
 */
export function firstLine(text: string): string {
  const end = text.indexOf("\n");
  return cut((end < 0 ? text : text.slice(0, end)).trimEnd());
}

/**
 * Groups items by file as rows, keeping their order (the lists are in file order).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { groupByFile } from "@llm/search/schema";
 * const groups = groupByFile(["a:1", "a:2", "b:1"], (item) => item[0], (item) => item.slice(2));
 * assert.deepEqual(groups, [{ file_path: "a", rows: ["1", "2"] }, { file_path: "b", rows: ["1"] }]);
 * ```
 */
export function groupByFile<T, R>(
  items: readonly T[],
  fileOf: (item: T) => string,
  rowOf: (item: T) => R,
): FileRows<R>[] {
  const groups: FileRows<R>[] = [];
  for (const item of items) {
    const file = fileOf(item);
    const last = groups.at(-1);
    if (last?.file_path === file) last.rows.push(rowOf(item));
    else groups.push({ file_path: file, rows: [rowOf(item)] });
  }
  return groups;
}

/**
 * Whether `diagnostic` is the envelope's copy of `error` (a gate's refusal: without its errors).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isErrorCopy, makeDiagnostic } from "@llm/search/schema";
 * const error = makeDiagnostic("llm-write", "LFW-V-002", "a.c already exists", { file: "a.c" });
 * assert.equal(isErrorCopy(structuredClone(error), error), true);
 * ```
 */
export function isErrorCopy(diagnostic: Diagnostic, error: MutationError): boolean {
  const copy = isGateRefusal(error) ? refusalDiagnostic(error) : error;
  return diagnostic === copy || JSON.stringify(diagnostic) === JSON.stringify(copy);
}

/** Whether `envelope` is in compact form. */
export function isCompact(envelope: object): envelope is CompactAnswer {
  return (envelope as { form?: unknown }).form === "compact";
}

/**
 * A tool's compact form: how an envelope of the tool (`E`, its definition's own envelope type)
 * becomes its compact answer. The tool declares it in its definition (`compact` of
 * `defineTool`), from which the MCP server and `--format compact` take it. A form loads no zod
 * (its answer's schema is declared beside it), so a command line can build the answer without
 * the schemas.
 */
export interface CompactForm<E extends Envelope = Envelope> {
  /**
   * The compact answer to `envelope` ({@linkcode compactQuery} or {@linkcode compactMutation}
   * around the tool's compact data or result), or undefined when it has none and stays in full
   * (a query run that produced no result list: a failure).
   */
  compact(envelope: E): CompactAnswer | undefined;
}

/**
 * The compact form of an envelope by its tool's form: its results as rows, its diagnostics
 * summarised. An envelope of a tool without a compact form (`form` undefined), or one the form
 * leaves in full (a failed query run), is returned unchanged.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compactEnvelope, compactQuery, type CompactForm, queryEnvelope } from "@llm/search/schema";
 * const full = queryEnvelope("llm-echo", { count: 1, words: ["hi"] }, []);
 * const form: CompactForm<typeof full> = {
 *   compact: (envelope) => compactQuery(envelope, { rows: envelope.data.words }),
 * };
 * assert.ok("form" in compactEnvelope(full, form));
 * assert.equal(compactEnvelope(full, undefined), full);
 * ```
 */
export function compactEnvelope<E extends Envelope>(
  envelope: E,
  form: CompactForm<E> | undefined,
): E | CompactAnswer {
  return form?.compact(envelope) ?? envelope;
}

/**
 * A query envelope in compact form around `data`, the tool's compact data: the run's head and
 * status, and its diagnostics summarised after the results.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compactQuery, queryEnvelope } from "@llm/search/schema";
 * const compact = compactQuery(queryEnvelope("llm-echo", { count: 0 }, []), { rows: [] });
 * assert.deepEqual(Object.keys(compact).slice(-2), ["data", "diagnostics"]);
 * ```
 */
export function compactQuery<D>(envelope: QueryEnvelope, data: D): CompactEnvelope<D> {
  return {
    schema_version: envelope.schema_version,
    execution_id: envelope.execution_id,
    tool: envelope.tool,
    form: "compact",
    status: envelope.status,
    ...(envelope.partial ? { partial: true as const } : {}),
    data,
    diagnostics: summariseDiagnostics(envelope.diagnostics),
  };
}

/**
 * A mutation envelope in compact form around `result`, the tool's compact result (undefined when
 * the run has none): no timestamp, workspace or journal path, the error that stopped it in full
 * and the other diagnostics summarised (the error's own copy among them left out). `listed`
 * names the files whose diagnostics `result` lists itself, as rows: theirs are not summarised
 * again, and an error naming one of them is not repeated.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compactMutation, mutationEnvelope } from "@llm/search/schema";
 * const full = mutationEnvelope("llm-echo", {
 *   operation_type: "echo", status: "ok", message: "done", workspace: "/tmp",
 * });
 * assert.equal("workspace" in compactMutation(full, undefined), false);
 * ```
 */
export function compactMutation<R>(
  envelope: MutationEnvelope,
  result: R | undefined,
  listed: readonly string[] = [],
): CompactMutationEnvelope<R> {
  const files = new Set(listed);
  const error = envelope.error;
  const errorListed = error?.file !== undefined && files.has(error.file);
  const others = envelope.diagnostics.filter((diagnostic) =>
    !(error && isErrorCopy(diagnostic, error)) &&
    (diagnostic.file === undefined || !files.has(diagnostic.file))
  );
  return {
    schema_version: envelope.schema_version,
    execution_id: envelope.execution_id,
    tool: envelope.tool,
    form: "compact",
    operation_type: envelope.operation_type,
    status: envelope.status,
    message: envelope.message,
    ...(result !== undefined ? { result } : {}),
    ...(error && !errorListed ? { error: compactError(error) } : {}),
    diagnostics: summariseDiagnostics(others),
  };
}

/** The error in compact form: a gate's refusal without its errors, summarised with the others. */
function compactError(error: MutationError): Diagnostic | CompactGateRefusal {
  if (!isGateRefusal(error)) return error;
  const { diagnostics: _errors, ...refusal } = error;
  return refusal;
}
