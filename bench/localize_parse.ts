/**
 * The localization bench's one door to the project's parser: the definitions of a file, with
 * their spans, as the symbol index extracts them (`extractFacts`: one tree-sitter parse, then
 * the language's definition query, the one `llm-ast-search --kind` runs). The gold
 * (`localize_gold.ts`) and the function baseline (`localize_bm25.ts`) read definitions only
 * through here, so the move of `tools/symbols/*` to `core/symbol_index/` changes one import
 * line.
 *
 * @module
 */
import { extractFacts } from "../core/symbol_index/extract.ts";
import { decodeFile } from "../core/utf8.ts";
import { languageForFile } from "../grammars/languages.ts";
import type { SourceDefinition } from "./localize_gold.ts";

/** Kinds a gold function or a baseline block may have. */
export const FUNCTION_KINDS: ReadonlySet<string> = new Set(["function", "method"]);

/**
 * The definitions of one file (every kind: functions, methods, classes, constants, variables),
 * in source order, or `[]` when no grammar parses files of its name. Spans are UTF-8 byte
 * offsets of `bytes` with 1-based lines.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { definitionsOf } from "./localize_parse.ts";
 * const bytes = new TextEncoder().encode("class A:\n    def f(self):\n        pass\n");
 * const definitions = await definitionsOf("a.py", bytes);
 * assert.deepEqual(definitions.map((d) => [d.qualified_name, d.start_line, d.end_line]), [
 *   ["A", 1, 3],
 *   ["A.f", 2, 3],
 * ]);
 * ```
 */
export async function definitionsOf(path: string, bytes: Uint8Array): Promise<SourceDefinition[]> {
  const language = languageForFile(path.slice(path.lastIndexOf("/") + 1));
  if (!language || language.unsupported) return [];
  const facts = await extractFacts(language.name, decodeFile(bytes));
  return facts.symbols.map((symbol) => ({
    name: symbol.name,
    qualified_name: symbol.qualified_name,
    kind: symbol.kind,
    byte_start: symbol.extent.byte_start,
    byte_end: symbol.extent.byte_end,
    start_line: symbol.extent.start_line,
    end_line: symbol.extent.end_line,
  }));
}
