import assert from "node:assert/strict";
import {
  AST_COLUMNS,
  AST_ONE_KIND_COLUMNS,
  COMPACT_TEXT_CHARS,
  compactEnvelope,
  compactEnvelopeSchemaOf,
  type CompactMutationEnvelope,
  type CompactWriteResult,
  summariseDiagnostics,
} from "./compact.ts";
import { makeDiagnostic } from "./diagnostic.ts";
import { mutationEnvelope, queryEnvelope } from "./envelope.ts";
import { LineIndex } from "./line_index.ts";
import { makeSpan } from "./span.ts";
import type { AstMatch } from "./ast_search.ts";
import type { SearchData, SearchMatch } from "./search.ts";
import type { TransformResult } from "./transform.ts";
import type { WriteResult } from "./write.ts";

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
  const compact = compactEnvelope(full);
  assert.ok(compactEnvelopeSchemaOf("llm-search")!.safeParse(compact).success);
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

const body = TEXT.slice(0, TEXT.indexOf("}") + 1);

function astMatch(name: string, kind: string): AstMatch {
  return {
    match_id: crypto.randomUUID(),
    span: makeSpan("a.c", index, 0, body.length),
    pattern_index: 0,
    text: body,
    name,
    kind,
    captures: [{ name: "name", span: makeSpan("a.c", index, 4, 8), text: name }],
  };
}

function astEnvelope(matches: AstMatch[]) {
  return queryEnvelope("llm-ast-search", {
    count: matches.length,
    mode: "kind" as const,
    match_count: matches.length,
    files_searched: 1,
    files_matched: 1,
    languages: ["c"],
    matches,
  }, []);
}

type CompactAst = {
  data: { kind?: string; columns: readonly string[]; by_file: { rows: unknown[][] }[] };
};

Deno.test("compact ast-search: name, kind, span and the first line, not the body", () => {
  const compact = compactEnvelope(astEnvelope([astMatch("main", "function")])) as CompactAst;
  assert.ok(compactEnvelopeSchemaOf("llm-ast-search")!.safeParse(compact).success);
  // One kind for every match: said once, not on every row.
  assert.equal(compact.data.kind, "function");
  assert.deepEqual(compact.data.columns, AST_ONE_KIND_COLUMNS);
  assert.deepEqual(compact.data.by_file[0].rows[0], [
    "main",
    1,
    4,
    0,
    body.length,
    "int main(void)",
  ]);
  assert.ok(!JSON.stringify(compact).includes("return"));
});

Deno.test("compact ast-search: matches of several kinds keep the kind column", () => {
  const matches = [astMatch("main", "function"), astMatch("point", "struct")];
  const compact = compactEnvelope(astEnvelope(matches)) as CompactAst;
  const schema = compactEnvelopeSchemaOf("llm-ast-search")!;
  assert.ok(schema.safeParse(compact).success);
  assert.equal(compact.data.kind, undefined);
  assert.deepEqual(compact.data.columns, AST_COLUMNS);
  assert.deepEqual(compact.data.by_file[0].rows.map((row) => row.slice(0, 2)), [
    ["main", "function"],
    ["point", "struct"],
  ]);
  // A row that does not follow its columns is refused.
  const mixed = structuredClone(compact);
  mixed.data.kind = "function";
  assert.ok(!schema.safeParse(mixed).success);
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
  const keys = Object.keys(compactEnvelope(full));
  assert.ok(keys.indexOf("data") < keys.indexOf("diagnostics"));
  assert.ok(JSON.stringify(compactEnvelope(full)).length < 1000);
});

Deno.test("envelopes without a compact form, and failed runs, stay in full", () => {
  const mutation = mutationEnvelope("llm-symbols", {
    operation_type: "index",
    status: "ok",
    message: "1 edit",
  });
  assert.equal(compactEnvelope(mutation), mutation);
  const failed = queryEnvelope("llm-search", { count: 0 }, [
    makeDiagnostic("llm-search", "LMS-ARG-002", "bad", { level: "error" }),
  ]);
  assert.equal(compactEnvelope(failed), failed);
});

const CHECKSUM = "sha256:" + "0".repeat(64);

Deno.test("compact transform: status, new spans and error codes by file; no checksums", () => {
  const oldSpan = makeSpan("a.c", index, suspend, suspend + 11);
  const failed = makeSpan("a.c", index, 0, 3);
  const result: TransformResult = {
    dry_run: false,
    applied_count: 0,
    pending_count: 0,
    skipped_count: 1,
    error_count: 1,
    files: [{
      file_path: "a.c",
      status: "error",
      edit_count: 2,
      file_checksum_before: CHECKSUM,
      total_byte_shift: 0,
    }],
    edits: [
      {
        index: 1,
        file_path: "a.c",
        status: "error",
        byte_start: 0,
        byte_end: 3,
        old_span: failed,
        checksum_before: CHECKSUM,
        code: "LMT-V-002",
        message: "bad checksum",
      },
      {
        index: 0,
        file_path: "a.c",
        status: "skipped",
        byte_start: suspend,
        byte_end: suspend + 11,
        old_span: oldSpan,
        new_span: makeSpan("a.c", index, suspend, suspend + 5),
        code: "LMT-V-002",
      },
    ],
    candidates: [oldSpan],
    journal: ".llm/journal/x",
  };
  const error = makeDiagnostic("llm-transform", "LMT-V-002", "bad checksum", { level: "error" });
  const note = makeDiagnostic("llm-transform", "LMT-V-009", "a note", { level: "note" });
  const full = mutationEnvelope("llm-transform", {
    operation_type: "edit",
    status: "error",
    message: "nothing was changed",
    workspace: "/tmp/root",
    result,
    error,
    diagnostics: [error, note],
  });
  const compact = compactEnvelope(full);
  const parsed = compactEnvelopeSchemaOf("llm-transform")!.safeParse(compact);
  assert.ok(parsed.success, JSON.stringify(!parsed.success && parsed.error.issues));
  const text = JSON.stringify(compact);
  for (const gone of ["sha256:", "span_id", "journal", "/tmp/root", "timestamp"]) {
    assert.ok(!text.includes(gone), gone);
  }
  const shown = (compact as { result: Record<string, unknown> }).result;
  assert.deepEqual(shown.by_file, [{
    file_path: "a.c",
    status: "error",
    total_byte_shift: 0,
    rows: [
      ["error", 1, 1, 0, 3, "LMT-V-002"],
      // Not applied: the bytes it aimed at, not where its text would have gone.
      ["skipped", 3, 3, suspend, suspend + 11, "LMT-V-002"],
    ],
  }]);
  assert.deepEqual(shown.candidates, [{
    file_path: "a.c",
    rows: [[3, 8, suspend, suspend + 11]],
  }]);
  assert.deepEqual((compact as { error: unknown }).error, error, "the stopping error in full");
  assert.deepEqual(
    (compact as { diagnostics: { code: string }[] }).diagnostics.map((entry) => entry.code),
    ["LMT-V-009"],
    "the error is not repeated among the diagnostics",
  );
});

Deno.test("compact transform: an applied edit's row is where its new text lies", () => {
  const newSpan = makeSpan("b.c", index, 16, 30);
  const full = mutationEnvelope("llm-transform", {
    operation_type: "replace",
    status: "ok",
    message: "applied",
    result: {
      dry_run: false,
      applied_count: 1,
      pending_count: 0,
      skipped_count: 0,
      error_count: 0,
      files: [{ file_path: "b.c", status: "changed", edit_count: 1, total_byte_shift: 3 }],
      edits: [{
        index: 0,
        file_path: "b.c",
        status: "applied",
        byte_start: 16,
        byte_end: 27,
        old_span: makeSpan("b.c", index, 16, 27),
        new_span: newSpan,
      }],
    } satisfies TransformResult,
  });
  const rows = (compactEnvelope(full) as { result: { by_file: { rows: unknown[][] }[] } }).result
    .by_file[0].rows;
  assert.deepEqual(rows, [["applied", newSpan.start_line, newSpan.end_line, 16, 30, null]]);
});

Deno.test("compact write: per file its status, checksum and diagnostic rows; nothing twice", () => {
  const refusal = makeDiagnostic("llm-write", "LFW-V-001", "b.c fails validation", {
    file: "b.c",
    line: 2,
    column: 9,
  });
  const gcc = makeDiagnostic("gcc", "LFW-V-101", "‘x’ undeclared", {
    file: "b.c",
    line: 2,
    column: 9,
    native_code: "-Wx",
    note: "reported once",
  });
  const exists = makeDiagnostic("llm-write", "LFW-V-002", "a.c already exists", {
    file: "a.c",
    note: `current checksum: ${CHECKSUM}`,
  });
  const envelope = mutationEnvelope<WriteResult>("llm-write", {
    operation_type: "write",
    status: "rejected",
    message: "b.c fails validation",
    result: {
      validate_only: false,
      approved_count: 0,
      rejected_count: 2,
      files: ["a.c", "b.c"].map((file_path) => ({
        file_path,
        status: "rejected" as const,
        action: "create" as const,
        checksum: CHECKSUM,
        bytes: 3,
        written: false,
      })),
    },
    error: refusal,
    diagnostics: [refusal, exists, gcc],
  });
  const compact = compactEnvelope(envelope) as CompactMutationEnvelope<CompactWriteResult>;
  assert.ok(compactEnvelopeSchemaOf("llm-write")!.safeParse(compact).success);
  assert.equal(compact.error, undefined, "the gate's rows explain the refusal");
  assert.deepEqual(compact.diagnostics, []);
  assert.deepEqual(compact.result?.files.map((file) => [file.file_path, file.diagnostics]), [
    ["a.c", [[
      "error",
      "LFW-V-002",
      null,
      null,
      "llm-write",
      null,
      "a.c already exists",
      exists.note,
    ]]],
    ["b.c", [["error", "LFW-V-101", 2, 9, "gcc", "-Wx", "‘x’ undeclared", "reported once"]]],
  ]);
});
