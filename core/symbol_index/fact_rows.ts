/**
 * A file's facts as the values of its index rows: one flat array per table, row after row, in
 * the column order of {@linkcode SYMBOL_ROW_COLUMNS}, {@linkcode REF_ROW_COLUMNS},
 * {@linkcode IMPORT_ROW_COLUMNS} and {@linkcode CHUNK_ROW_COLUMNS} (the file's row id comes first
 * in each fact table and is not part of them; a chunk's row id is its definition's). Extraction
 * workers answer in this form: a few flat arrays of strings and numbers cost a tenth of the fact
 * objects to pass between threads, and the store inserts them many rows per statement without
 * reading an object again. It imports neither zod nor SQLite.
 *
 * @module
 */
import { symbolId } from "../../schema/ids.ts";
import type { Extent, FactsCut, FileFacts } from "./facts.ts";
import { chunkTerms, pathTerms } from "./chunk_terms.ts";

/** One column value of a row. */
export type RowValue = string | number | null;

/** Columns of an extent, as in every fact table. */
const EXTENT_ROW_COLUMNS = [
  "byte_start",
  "byte_end",
  "start_line",
  "start_col",
  "end_line",
  "end_col",
] as const;

/** Columns of `symbols` a row of {@linkcode FactRows.symbols} fills. */
export const SYMBOL_ROW_COLUMNS: readonly string[] = [
  "symbol_id",
  "name",
  "qualified_name",
  "kind",
  "parent",
  "signature",
  ...EXTENT_ROW_COLUMNS,
];
/** Columns of `refs` a row of {@linkcode FactRows.refs} fills. */
export const REF_ROW_COLUMNS: readonly string[] = [
  "name",
  "is_call",
  "enclosing",
  "qualifier",
  ...EXTENT_ROW_COLUMNS,
];
/** Columns of `imports` a row of {@linkcode FactRows.imports} fills. */
export const IMPORT_ROW_COLUMNS: readonly string[] = [
  "target",
  "kind",
  "names",
  ...EXTENT_ROW_COLUMNS,
];

/** Columns of the full-text table `chunks` a row of {@linkcode FactRows.chunks} fills. */
export const CHUNK_ROW_COLUMNS: readonly string[] = ["name", "body"];

/**
 * Rows per insert statement: 64 rows of at most 13 values stay far below SQLite's 32,766. Writing
 * Linux `kernel/` on one thread, 64 took 0.79 s, 16 about as long, 4 and 8 a fifth longer.
 */
export const ROWS_PER_INSERT = 64;

/**
 * A file's chunk rows with their row ids first: the definitions' are the row ids of their
 * `symbols` rows (from `firstSymbol` on, in order), the module's (the last chunk) is `-fileId`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { chunkRowValues } from "./fact_rows.ts";
 * assert.deepEqual(chunkRowValues(3, 10, 1, ["f", "f body", "", "module"]), [
 *   10, "f", "f body",
 *   -3, "", "module",
 * ]);
 * ```
 */
export function chunkRowValues(
  fileId: number,
  firstSymbol: number,
  symbols: number,
  chunks: readonly string[],
): RowValue[] {
  const width = CHUNK_ROW_COLUMNS.length;
  const rows = chunks.length / width;
  if (rows !== symbols + 1) {
    throw new Error(`${rows} chunks for ${symbols} definitions and the module (file ${fileId})`);
  }
  const values: RowValue[] = [];
  for (let row = 0; row < rows; row++) {
    values.push(row === rows - 1 ? -fileId : firstSymbol + row);
    for (let column = 0; column < width; column++) values.push(chunks[row * width + column]);
  }
  return values;
}

/**
 * Inserts chunk rows ({@linkcode chunkRowValues}) into the full-text table `chunks`,
 * {@linkcode ROWS_PER_INSERT} rows per statement, each statement given to `run` with its values:
 * the same statements on the index's connection and on a side build's.
 */
export function insertChunkRows(
  run: (sql: string, values: RowValue[]) => void,
  values: readonly RowValue[],
): void {
  const width = CHUNK_ROW_COLUMNS.length + 1;
  const rows = values.length / width;
  for (let first = 0; first < rows; first += ROWS_PER_INSERT) {
    const count = Math.min(ROWS_PER_INSERT, rows - first);
    run(chunkInsertSql(count), values.slice(first * width, (first + count) * width));
  }
}

/** `INSERT INTO chunks(rowid, name, body) VALUES (?, ?, ?), …` for `count` rows. */
function chunkInsertSql(count: number): string {
  const row = `(?${", ?".repeat(CHUNK_ROW_COLUMNS.length)})`;
  return `INSERT INTO chunks(rowid, ${CHUNK_ROW_COLUMNS.join(", ")}) VALUES ${
    Array(count).fill(row).join(", ")
  }`;
}

/** A file's facts as row values, ready to insert. */
export interface FactRows {
  /** Registry language name. */
  language: string;
  /** ERROR/MISSING nodes of its tree. */
  parse_errors: number;
  /** Values of its definitions' rows, `SYMBOL_ROW_COLUMNS.length` per row. */
  symbols: RowValue[];
  /** Values of its uses' rows, `REF_ROW_COLUMNS.length` per row. */
  refs: RowValue[];
  /** Values of its imports' rows, `IMPORT_ROW_COLUMNS.length` per row. */
  imports: RowValue[];
  /**
   * Values of its rows of the full-text table `chunks`, `CHUNK_ROW_COLUMNS.length` (`name`,
   * `body`) per row: one per definition, in the order of `symbols`, then the module-level
   * code's. `name` holds the terms of the definition's name and qualified name and of the
   * file's path (folders, base name without extension; the module's: the path's alone), `body`
   * the terms of the chunk's text (empty when the facts were extracted without them).
   */
  chunks: string[];
  /** Present when the rows are of the file's first part only (see `FileFacts.cut`). */
  cut?: FactsCut;
}

function pushExtent(values: RowValue[], extent: Extent): void {
  values.push(
    extent.byte_start,
    extent.byte_end,
    extent.start_line,
    extent.start_col,
    extent.end_line,
    extent.end_col,
  );
}

/**
 * The rows of `facts`, extracted from the file at root-relative `path` (part of each
 * definition's `symbol_id`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { factRows, SYMBOL_ROW_COLUMNS } from "./fact_rows.ts";
 * const extent = { byte_start: 0, byte_end: 1, start_line: 1, start_col: 0, end_line: 1, end_col: 1 };
 * const rows = factRows("src/util.py", {
 *   language: "python",
 *   symbols: [{ name: "parse", qualified_name: "parse", kind: "function", extent, name_extent: extent, signature: "def parse():" }],
 *   references: [],
 *   imports: [],
 *   parse_errors: 0,
 * });
 * assert.equal(rows.symbols.length, SYMBOL_ROW_COLUMNS.length); // one symbol: one value per column
 * // Its chunk and the module's: names (no body: the facts have no chunks' terms).
 * assert.deepEqual(rows.chunks, ["parse parse src util", "", "src util", ""]);
 * ```
 */
export function factRows(path: string, facts: FileFacts): FactRows {
  const symbols: RowValue[] = [];
  for (const fact of facts.symbols) {
    const id = symbolId({
      language: facts.language,
      file_path: path,
      qualified_name: fact.qualified_name,
      kind: fact.kind,
    });
    symbols.push(
      id,
      fact.name,
      fact.qualified_name,
      fact.kind,
      fact.parent ?? null,
      fact.signature,
    );
    pushExtent(symbols, fact.extent);
  }
  const place = pathTerms(path).join(" ");
  const chunks: string[] = [];
  facts.symbols.forEach((fact, index) => {
    const name = chunkTerms(fact.name, Infinity);
    name.push(...chunkTerms(fact.qualified_name, Infinity));
    if (place) name.push(place);
    chunks.push(name.join(" "), facts.chunks?.definitions[index] ?? "");
  });
  chunks.push(place, facts.chunks?.module ?? "");
  const refs: RowValue[] = [];
  for (const fact of facts.references) {
    const call = fact.kind === "call" ? 1 : 0;
    refs.push(fact.name, call, fact.enclosing ?? null, fact.qualifier ?? null);
    pushExtent(refs, fact.extent);
  }
  const imports: RowValue[] = [];
  for (const fact of facts.imports) {
    imports.push(fact.target, fact.kind, fact.names ? JSON.stringify(fact.names) : null);
    pushExtent(imports, fact.extent);
  }
  return {
    language: facts.language,
    parse_errors: facts.parse_errors,
    symbols,
    refs,
    imports,
    chunks,
    ...(facts.cut ? { cut: facts.cut } : {}),
  };
}

/** How many rows `rows` holds in all its tables. */
export function rowCount(rows: FactRows): number {
  return rows.symbols.length / SYMBOL_ROW_COLUMNS.length +
    rows.refs.length / REF_ROW_COLUMNS.length +
    rows.imports.length / IMPORT_ROW_COLUMNS.length;
}
