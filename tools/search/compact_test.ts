import assert from "node:assert/strict";
import { COMPACT_TEXT_CHARS, compactEnvelope, summariseDiagnostics } from "../../schema/compact.ts";
import { makeDiagnostic } from "../../schema/diagnostic.ts";
import { queryEnvelope } from "../../schema/envelope.ts";
import { LineIndex } from "../../schema/line_index.ts";
import {
  CompactSearchEnvelopeSchema,
  type SearchData,
  type SearchMatch,
} from "../../schema/search.ts";
import { makeSpan } from "../../schema/span.ts";
import { searchCompact } from "./compact.ts";

const TEXT = "int main(void)\n{\n\treturn FOO_SUSPEND;\n}\n" + "x".repeat(300) + "\n";
const index = LineIndex.fromText(TEXT);

function searchMatch(file: string, start: number, end: number): SearchMatch {
  const span = makeSpan(file, index, start, end);
  const lineStart = TEXT.lastIndexOf("\n", start - 1) + 1;
  const lineEnd = TEXT.indexOf("\n", start);
  return {
    match_id: crypto.randomUUID(),
    span,
    matched_text: TEXT.slice(start, end),
    line_text: TEXT.slice(lineStart, lineEnd),
  };
}

function searchData(matches: SearchMatch[]): SearchData {
  return {
    count: matches.length,
    patterns: ["[A-Z]+_SUSPEND"],
    mode: "matches",
    match_count: matches.length,
    files_searched: 2,
    files_matched: 2,
    matches,
  };
}

const suspend = TEXT.indexOf("FOO_SUSPEND");
const longLine = TEXT.indexOf("x");

Deno.test("compact search: rows grouped by file, in order, without ids or matched text", () => {
  const matches = [
    searchMatch("a.c", suspend, suspend + 11),
    searchMatch("a.c", longLine, longLine + 3),
    searchMatch("b.c", suspend, suspend + 11),
  ];
  const full = queryEnvelope("llm-search", searchData(matches), []);
  const compact = compactEnvelope(full, searchCompact);
  assert.ok(CompactSearchEnvelopeSchema.safeParse(compact).success);
  const data = (compact as { data: { by_file: { file_path: string; rows: unknown[][] }[] } }).data;
  assert.deepEqual(data.by_file.map((file) => [file.file_path, file.rows.length]), [
    ["a.c", 2],
    ["b.c", 1],
  ]);
  assert.deepEqual(data.by_file[0].rows[0], [3, 8, suspend, suspend + 11, "\treturn FOO_SUSPEND;"]);
  const cut = data.by_file[0].rows[1][4] as string;
  assert.equal(cut, "x".repeat(COMPACT_TEXT_CHARS) + "…");
  const text = JSON.stringify(compact);
  for (const match of matches) assert.ok(!text.includes(match.match_id));
  assert.ok(!text.includes("span_id"));
});

Deno.test("diagnostics are summarised by code with three examples, after the results", () => {
  const warnings = Array.from(
    { length: 1074 },
    (_, i) =>
      makeDiagnostic("llm-ast-search", "LAS-IO-004", `cannot parse f${i}.c`, {
        level: "warning",
        file: `f${i}.c`,
      }),
  );
  const note = makeDiagnostic("llm-ast-search", "LAS-QRY-001", "cut", { level: "note" });
  const summary = summariseDiagnostics([...warnings, note, warnings[5]]);
  assert.deepEqual(summary.map((entry) => [entry.code, entry.count]), [
    ["LAS-IO-004", 1075],
    ["LAS-QRY-001", 1],
  ]);
  assert.deepEqual(summary[0].examples.map((example) => example.file), ["f0.c", "f1.c", "f2.c"]);
  const full = queryEnvelope("llm-search", searchData([]), warnings);
  const keys = Object.keys(compactEnvelope(full, searchCompact));
  assert.ok(keys.indexOf("data") < keys.indexOf("diagnostics"));
  assert.ok(JSON.stringify(compactEnvelope(full, searchCompact)).length < 1000);
});

Deno.test("a failed run stays in full", () => {
  const failed = queryEnvelope("llm-search", { count: 0 }, [
    makeDiagnostic("llm-search", "LMS-ARG-002", "bad", { level: "error" }),
  ]);
  assert.equal(compactEnvelope(failed, searchCompact), failed);
});
