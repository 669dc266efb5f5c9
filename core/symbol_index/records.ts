/**
 * Rows of the index as the contract's records: spans with their `span_id`, definitions as
 * symbol records and symbol refs, uses with their resolution, imports with the file they reach.
 *
 * @module
 */
import { spanId } from "../../schema/ids.ts";
import type { Span } from "../../schema/span_build.ts";
import type { ImportRecord, SymbolRecord, SymbolRef, UseRecord } from "../../schema/symbols.ts";
import type { UseResolution } from "./resolve.ts";
import type { ExtentRow, ImportRow, RefRow, SymbolRow } from "./store.ts";

/**
 * The contract span of a stored fact.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { spanOf } from "./records.ts";
 * const row = { file_id: 1, path: "src/main.rs", language: "rust", byte_start: 3, byte_end: 7,
 *   start_line: 1, start_col: 3, end_line: 1, end_col: 7 };
 * assert.equal(spanOf(row).span_id, "ef8007a25c15a56d");
 * ```
 */
export function spanOf(row: ExtentRow): Span {
  return {
    file_path: row.path,
    byte_start: row.byte_start,
    byte_end: row.byte_end,
    start_line: row.start_line,
    start_col: row.start_col,
    end_line: row.end_line,
    end_col: row.end_col,
    span_id: spanId(row.path, row.byte_start, row.byte_end),
  };
}

/** A stored definition as a symbol record. */
export function symbolRecord(row: SymbolRow): SymbolRecord {
  const record: SymbolRecord = {
    name: row.name,
    qualified_name: row.qualified_name,
    kind: row.kind,
    language: row.language,
    span: spanOf(row),
    symbol_id: row.symbol_id,
    signature: row.signature,
  };
  if (row.parent) record.parent = row.parent;
  return record;
}

/** A stored definition as a symbol ref (its qualified name, kind, id and span). */
export function symbolRef(row: SymbolRow): SymbolRef {
  return {
    name: row.qualified_name,
    kind: row.kind,
    symbol_id: row.symbol_id,
    span: spanOf(row),
  };
}

/** A stored use with its caller and resolution as a use record. */
export function useRecord(
  row: RefRow,
  caller: SymbolRow | undefined,
  resolved: UseResolution,
  depth?: number,
): UseRecord {
  const record: UseRecord = {
    name: row.name,
    kind: row.is_call ? "call" : "reference",
    span: spanOf(row),
    resolution: resolved.resolution,
  };
  if (row.qualifier) record.qualifier = row.qualifier;
  if (caller) record.caller = symbolRef(caller);
  else if (row.enclosing) record.caller = { name: row.enclosing };
  if (resolved.scope) record.resolved_in = resolved.scope;
  if (resolved.resolution === "resolved") record.target = symbolRef(resolved.definitions[0]);
  if (resolved.resolution === "ambiguous") {
    record.candidates = resolved.definitions.map((definition) => definition.symbol_id);
  }
  if (depth !== undefined) record.depth = depth;
  return record;
}

/** A stored import as an import record. */
export function importRecord(row: ImportRow, resolvedPath: string | undefined): ImportRecord {
  const record: ImportRecord = { target: row.target, kind: row.kind, span: spanOf(row) };
  if (row.names) record.names = JSON.parse(row.names) as string[];
  if (resolvedPath !== undefined) record.resolved_path = resolvedPath;
  return record;
}
