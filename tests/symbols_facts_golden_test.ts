/**
 * The facts extraction stores for every fixture of `tests/fixtures/ast` (all languages, kernel
 * C with its macros), as the rows of the index, against a snapshot: a change of the extraction
 * made for speed must leave every row as it was (`deno test -A tests/symbols_facts_golden_test.ts
 * -- -u` rewrites the snapshot after an intended change of the facts).
 */
import { join, relative } from "node:path";
import { languageForFile } from "../grammars/languages.ts";
import { extractFacts } from "../core/symbol_index/extract.ts";
import {
  type FactRows,
  factRows,
  IMPORT_ROW_COLUMNS,
  REF_ROW_COLUMNS,
  SYMBOL_ROW_COLUMNS,
} from "../core/symbol_index/fact_rows.ts";
import { REPO } from "./helpers.ts";

const FIXTURES = join(REPO, "tests", "fixtures", "ast");

function fixtureFiles(folder: string): string[] {
  const entries = [...Deno.readDirSync(folder)].sort((a, b) => a.name < b.name ? -1 : 1);
  return entries.flatMap((entry) => {
    const path = join(folder, entry.name);
    return entry.isDirectory ? fixtureFiles(path) : [path];
  });
}

/** The rows of a file, one JSON array a line (snapshots of text compare fast and diff well). */
function rowLines(rows: FactRows): string {
  const lines = [`${rows.language} parse_errors ${rows.parse_errors}`];
  const tables = [
    ["symbol", rows.symbols, SYMBOL_ROW_COLUMNS.length],
    ["ref", rows.refs, REF_ROW_COLUMNS.length],
    ["import", rows.imports, IMPORT_ROW_COLUMNS.length],
  ] as const;
  for (const [table, values, width] of tables) {
    for (let i = 0; i < values.length; i += width) {
      lines.push(`${table} ${JSON.stringify(values.slice(i, i + width))}`);
    }
  }
  return lines.join("\n");
}

Deno.test("extraction: the stored rows of every fixture are unchanged", async (t) => {
  for (const file of fixtureFiles(FIXTURES)) {
    const language = languageForFile(file);
    if (!language || language.unsupported) continue;
    const path = relative(FIXTURES, file);
    const facts = await extractFacts(language.name, Deno.readTextFileSync(file));
    await t.assertSnapshot(rowLines(factRows(path, facts)), { name: path });
  }
});
