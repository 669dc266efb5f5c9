/**
 * `llm-ast-search` as a user runs it: a real `deno run --no-prompt` subprocess with only a
 * scoped `--allow-read`, queries with captures and predicates, coded failures, syntax errors,
 * extensions, limits and output formats.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { astSearchTool } from "../tools/ast-search/tool.ts";
import type { AstMatch, AstSearchData, Diagnostic } from "../schema/mod.ts";
import { assertValidEnvelope, makeTree, parseJson, runEntry, withoutRunFields } from "./helpers.ts";

const ENTRY = "tools/ast-search/main.ts";

const C_SOURCE = `#include <stdio.h>

static int parse_int(const char *s) { return atoi(s); }

int parse_line(const char *line)
{
\tprintf("%s\\n", line);
\tputs(line);
\treturn parse_int(line);
}
`;

const BROKEN_C = `int ok(void) { return 1; }
int broken( { return ; }
int after(void) { return 2; }
`;

const tree = await makeTree({
  "src/parse.c": C_SOURCE,
  "src/broken.c": BROKEN_C,
  "src/util.py": "def helper():\n    return 1\n",
  "config.yaml": "a: 1\n",
  "README.md": "# not code\n",
  "queries/calls.scm": "(call_expression function: (identifier) @fn) @call\n",
});

interface Envelope {
  status: string;
  data: AstSearchData;
  partial?: true;
  diagnostics: Diagnostic[];
}

async function run(args: string[], permissions = [`--allow-read=${tree}`]) {
  const result = await runEntry(ENTRY, args, { cwd: tree, permissions });
  const envelope = parseJson(result) as unknown as Envelope;
  assertValidEnvelope(astSearchTool, envelope);
  return { code: result.code, envelope, stderr: result.stderr };
}

const sha = (bytes: Uint8Array) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;

Deno.test("cli: a query with captures and predicates, under --allow-read=<root> only", async () => {
  const query = `(call_expression function: (identifier) @fn (#any-of? @fn "printf" "puts")) @call
(return_statement (call_expression function: (identifier) @callee (#match? @callee "^parse_"))) @ret`;
  const { code, envelope } = await run([query, "src/", "-l", "c"]);
  assert.equal(code, 0);
  assert.equal(envelope.status, "ok");
  const { data } = envelope;
  assert.equal(data.mode, "query");
  assert.deepEqual(data.languages, ["c"]);
  assert.equal(data.files_searched, 2);
  const matches = data.matches.map((match: AstMatch) => ({
    file: match.span.file_path,
    line: match.span.start_line,
    pattern: match.pattern_index,
    text: match.text,
    captures: match.captures.map((capture) => `${capture.name}=${capture.text}`),
  }));
  assert.deepEqual(matches, [
    {
      file: "src/parse.c",
      line: 7,
      pattern: 0,
      text: 'printf("%s\\n", line)',
      captures: ['call=printf("%s\\n", line)', "fn=printf"],
    },
    {
      file: "src/parse.c",
      line: 8,
      pattern: 0,
      text: "puts(line)",
      captures: ["call=puts(line)", "fn=puts"],
    },
    {
      file: "src/parse.c",
      line: 9,
      pattern: 1,
      text: "return parse_int(line);",
      captures: ["ret=return parse_int(line);", "callee=parse_int"],
    },
  ]);
  // Spans are byte-exact: the capture's bytes are its text.
  const bytes = new TextEncoder().encode(C_SOURCE);
  for (const match of data.matches) {
    for (const capture of match.captures) {
      const { byte_start, byte_end } = capture.span;
      assert.equal(new TextDecoder().decode(bytes.subarray(byte_start, byte_end)), capture.text);
    }
  }
  assert.deepEqual(data.matches[1].span, {
    file_path: "src/parse.c",
    byte_start: C_SOURCE.indexOf("puts"),
    byte_end: C_SOURCE.indexOf("puts") + "puts(line)".length,
    start_line: 8,
    start_col: 1,
    end_line: 8,
    end_col: 11,
    span_id: data.matches[1].span.span_id,
  });
  // The file with a syntax error was searched, and its error reported with file and span.
  const syntax = envelope.diagnostics.filter((d) => d.code === "LMA-AST-001");
  assert.ok(syntax.length >= 1);
  assert.ok(syntax.every((d) => d.level === "warning" && d.file === "src/broken.c" && d.span));
  assert.equal(syntax[0].span?.start_line, 2);
});

Deno.test("cli: --kind across languages, with -S, -C and --with-checksums", async () => {
  const { code, envelope } = await run([
    "--kind",
    "function",
    "-S",
    "-C",
    "--context-lines",
    "1",
    "--with-checksums",
  ]);
  assert.equal(code, 0);
  const { data } = envelope;
  assert.equal(data.mode, "kind");
  assert.deepEqual(data.languages, ["c", "python"]);
  assert.deepEqual(
    data.matches.map((match) => `${match.span.file_path}:${match.name}`),
    [
      "src/broken.c:ok",
      // tree-sitter recovers the broken definition around its error.
      "src/broken.c:broken",
      "src/broken.c:after",
      "src/parse.c:parse_int",
      "src/parse.c:parse_line",
      "src/util.py:helper",
    ],
  );
  const parseLine = data.matches[4];
  assert.deepEqual(parseLine.semantics, { semantic_kind: "function", language: "c" });
  assert.deepEqual(parseLine.context_before, [{ line: 4, text: "" }]);
  // Its last line is the file's last: the empty "line" after the final newline is no line.
  assert.deepEqual(parseLine.context_after, []);
  const bytes = new TextEncoder().encode(C_SOURCE);
  assert.deepEqual(parseLine.checksums, {
    checksum_before: sha(bytes.subarray(parseLine.span.byte_start, parseLine.span.byte_end)),
    file_checksum_before: sha(bytes),
  });
  // Skipped files are summarised in notes: yaml cannot load, markdown has no grammar.
  const notes = envelope.diagnostics.filter((d) => d.level === "note").map((d) => d.code);
  assert.deepEqual(notes, ["LMA-AST-002"]);
});

Deno.test("cli: a query that does not compile names the offset and what was expected", async () => {
  const bad = await run(["(call_expresion function: (identifier) @fn)", "-l", "c"]);
  assert.equal(bad.code, 2);
  const [error] = bad.envelope.diagnostics;
  assert.equal(error.code, "LMA-QRY-001");
  assert.equal(error.level, "error");
  assert.match(error.message, /no node type 'call_expresion' at offset 1 \(line 1, column 1\)/);
  assert.match(error.note ?? "", /closest to 'call_expresion': call_expression/);
  assert.equal(error.line, 1);
  assert.equal(error.column, 1);
  assert.equal(bad.envelope.data.count, 0);

  const syntax = await run(["(call_expression", "-l", "c"]);
  assert.equal(syntax.code, 2);
  assert.equal(syntax.envelope.diagnostics[0].code, "LMA-QRY-001");
  assert.match(syntax.envelope.diagnostics[0].message, /syntax error at offset/);

  const predicate = await run(['((identifier) @id (#contains? @id "x"))', "-l", "c"]);
  assert.equal(predicate.code, 2);
  assert.match(predicate.envelope.diagnostics[0].message, /unsupported predicate #contains\?/);
  assert.equal(predicate.envelope.diagnostics[0].column, 19);
});

Deno.test("cli: unknown and unsupported languages, conflicting flags", async () => {
  const unknown = await run(["--kind", "function", "-l", "cobol"]);
  assert.equal(unknown.code, 2);
  const [error] = unknown.envelope.diagnostics;
  assert.equal(error.code, "LMA-ARG-010");
  assert.match(error.note ?? "", /supported languages: bash, c, cpp, .*typescript, vue, zig/);

  const yaml = await run(["(pair) @p", "-l", "yaml"]);
  assert.equal(yaml.code, 3);
  assert.equal(yaml.envelope.diagnostics[0].code, "LMA-AST-002");

  const both = await run(["--query", "(identifier) @i", "--query-file", "queries/calls.scm"]);
  assert.equal(both.code, 2);
  assert.equal(both.envelope.diagnostics[0].code, "LMA-ARG-011");

  const nothing = await run([]);
  assert.equal(nothing.code, 2);
  assert.equal(nothing.envelope.diagnostics[0].code, "LMA-QRY-002");
});

Deno.test("cli: --query-file, --limit with partial, text and jsonl output", async () => {
  const limited = await run(["--query-file", "queries/calls.scm", "src/parse.c", "--limit", "2"]);
  assert.equal(limited.code, 0);
  assert.equal(limited.envelope.status, "partial");
  assert.equal(limited.envelope.partial, true);
  assert.equal(limited.envelope.data.count, 2);
  assert.equal(limited.envelope.data.match_count, 4);
  assert.equal(limited.envelope.data.total, 4);

  const text = await runEntry(ENTRY, ["--kind", "function", "src/parse.c", "--format", "text"], {
    cwd: tree,
    permissions: [`--allow-read=${tree}`],
  });
  assert.equal(
    text.stdout,
    "src/parse.c:3:1:function parse_int\nsrc/parse.c:5:1:function parse_line\n",
  );

  const jsonl = await runEntry(ENTRY, ["--kind", "function", "src/", "--format", "jsonl"], {
    cwd: tree,
    permissions: [`--allow-read=${tree}`],
  });
  const lines = jsonl.stdout.trim().split("\n").map((line) => JSON.parse(line));
  assert.deepEqual(lines.map((line) => line.type), [
    "match",
    "match",
    "match",
    "match",
    "match",
    "match",
    "summary",
  ]);
  assert.equal(lines[6].data.count, 6);
  assert.equal(lines[6].data.matches, undefined);
});

Deno.test("cli: missing read permission is LMA-PERM-001, exit 4, no stack trace", async () => {
  const other = await Deno.makeTempDir();
  try {
    const { code, envelope, stderr } = await run(["--kind", "function", tree], [
      `--allow-read=${other}`,
    ]);
    assert.equal(code, 4);
    assert.equal(envelope.diagnostics[0].code, "LMA-PERM-001");
    assert.match(envelope.diagnostics[0].remediation ?? "", /--allow-read/);
    assert.doesNotMatch(stderr, /at .*\.ts:\d+/);
  } finally {
    await Deno.remove(other);
  }
});

Deno.test("cli: two runs give byte-identical output without run fields; --explain", async () => {
  const args = ["--kind", "function", "-S", "--format", "json"];
  const first = await runEntry(ENTRY, args, { cwd: tree, permissions: [`--allow-read=${tree}`] });
  const second = await runEntry(ENTRY, args, { cwd: tree, permissions: [`--allow-read=${tree}`] });
  assert.equal(withoutRunFields(first.stdout), withoutRunFields(second.stdout));
  const explain = await runEntry(ENTRY, ["--explain", "LMA-AST-001"], {
    cwd: tree,
    permissions: [],
  });
  assert.equal(JSON.parse(explain.stdout).code, "LMA-AST-001");
});
