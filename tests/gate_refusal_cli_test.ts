/**
 * The shape of a gate's refusal (contract §7) in every mutating tool, as a real `deno run
 * --no-prompt` subprocess with scoped permissions: `llm-write`, `llm-transform --validate` and
 * `llm-refactor` answer `error: { kind, tool, level, message, code, file, line, column, hint,
 * diagnostics }`, `kind` naming the gate that failed (`SyntaxGateFailed` when tree-sitter found
 * an error, else `CompilerGateFailed`), `hint` the registry's remediation of the code and
 * `diagnostics` exactly the gate errors that refused the file; the envelope's `diagnostics`
 * still list the refusal (as a plain diagnostic) and every gate diagnostic, and the compact form
 * says each once. The MCP answers carry the same error (compact by default for write and
 * transform). Also `--validate` given alone, which means `--validate all`.
 */
import assert from "node:assert/strict";
import {
  type CompactMutationEnvelope,
  CompactTransformEnvelopeSchema,
  type Diagnostic,
  explainCode,
  type GateRefusal,
  type MutationEnvelope,
  type MutationError,
  ToolError,
} from "../schema/mod.ts";
import { writeTool } from "../tools/write/tool.ts";
import { transformTool } from "../tools/transform/tool.ts";
import { REFACTOR_SUBCOMMANDS } from "../tools/refactor/tool.ts";
import { helpText, parseCommandLine } from "../core/cli.ts";
import { tableOf } from "../core/cli_table.ts";
import { parseCommandLineBy } from "../core/cli_run.ts";
import TRANSFORM_TABLES from "../core/tables/transform.json" with { type: "json" };
import type { Tool } from "../core/tool.ts";
import { assertValidEnvelope, hasCommand, makeTree, parseJson, runEntry } from "./helpers.ts";
import { connect } from "./mcp_helpers.ts";

/** The keys of a refusal, in order, when its first gate error has a line and column. */
const REFUSAL_KEYS = [
  "kind",
  "tool",
  "level",
  "message",
  "code",
  "file",
  "line",
  "column",
  "hint",
  "diagnostics",
];

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  envelope: MutationEnvelope;
}

async function run(
  tool: Tool,
  entry: string,
  root: string,
  args: string[],
  extra: string[] = [],
): Promise<Run> {
  const result = await runEntry(entry, args, {
    cwd: root,
    permissions: [`--allow-read=${root}`, `--allow-write=${root}`, ...extra],
  });
  const envelope = parseJson(result);
  if (!args.includes("compact")) assertValidEnvelope(tool, envelope);
  return {
    code: result.code,
    stdout: result.stdout,
    stderr: result.stderr,
    envelope: envelope as unknown as MutationEnvelope,
  };
}

/** What a refusal must hold. */
interface Expected {
  /** The tool's refusal code. */
  code: string;
  kind: GateRefusal["kind"];
  file: string;
  /** The gates whose errors refused the file (`tree-sitter`, `gcc`, …), each at least once. */
  gates: string[];
  /** 1-based line and 0-based column of the first gate error. */
  line: number;
  column: number;
}

function asRefusal(error: MutationError | undefined, envelope: MutationEnvelope): GateRefusal {
  assert.ok(error && "kind" in error, `no gate refusal: ${JSON.stringify(envelope)}`);
  return error;
}

/**
 * The exact shape of a refusal: its keys, kind, code, place, hint and gate errors, which are
 * the gates' error diagnostics of the envelope; the envelope's copy of the refusal is the same
 * diagnostic without the gate's part, its hint as remediation.
 */
function assertRefusal(envelope: MutationEnvelope, expected: Expected): GateRefusal {
  const error = asRefusal(envelope.error, envelope);
  const shown = JSON.stringify(envelope);
  assert.deepEqual(Object.keys(error), REFUSAL_KEYS, shown);
  assert.deepEqual(
    [error.kind, error.code, error.level, error.file, error.line, error.column],
    [expected.kind, expected.code, "error", expected.file, expected.line, expected.column],
    shown,
  );
  assert.equal(error.hint, explainCode(expected.code)?.remediation);
  assert.ok(error.diagnostics.length > 0);
  assert.ok(error.diagnostics.every((d) => d.level === "error" && d.file === expected.file));
  assert.deepEqual([...new Set(error.diagnostics.map((d) => d.tool))].sort(), expected.gates);
  const [first] = error.diagnostics;
  assert.deepEqual([first.line, first.column], [expected.line, expected.column]);
  // The gates' errors of the envelope, in the same order: nothing left out, nothing added.
  const gateErrors = envelope.diagnostics.filter((d) =>
    d.level === "error" && d.code !== expected.code
  );
  assert.deepEqual(error.diagnostics, gateErrors);
  const { kind: _kind, hint, diagnostics: _gateErrors, ...plain } = error;
  const copy: Diagnostic = { ...plain, remediation: hint };
  assert.deepEqual(envelope.diagnostics.filter((d) => d.code === expected.code), [copy]);
  return error;
}

// --- llm-write ---------------------------------------------------------------------------

const WRITE = "tools/write/main.ts";

interface WriteCase {
  language: string;
  file: string;
  text: string;
  /** `--allow-run` for the compiler gate (none: the compiler gate is skipped with a note). */
  program?: string;
  expected: Omit<Expected, "code" | "file">;
  /** Check the compact form too: each gate error said once, the refusal left to its rows. */
  compact?: { code: string; message: string };
}

const WRITE_CASES: WriteCase[] = [
  {
    language: "c",
    file: "src/main.c",
    text: "int main(void) {\n  return 0\n}\n",
    expected: { kind: "SyntaxGateFailed", gates: ["tree-sitter"], line: 2, column: 10 },
  },
  {
    language: "c",
    file: "src/main.c",
    text: "int main(void) {\n  return missing;\n}\n",
    program: "gcc",
    expected: { kind: "CompilerGateFailed", gates: ["gcc"], line: 2, column: 9 },
    compact: { code: "LFW-V-101", message: "‘missing’ undeclared (first use in this function)" },
  },
  {
    // Both gates fail: the syntax gate, which runs first, names the refusal; every error of
    // both gates is listed.
    language: "c",
    file: "src/main.c",
    text: "int main( { return 0 }",
    program: "gcc",
    expected: { kind: "SyntaxGateFailed", gates: ["gcc", "tree-sitter"], line: 1, column: 8 },
  },
  {
    language: "cpp",
    file: "src/shape.cpp",
    text: "int f() {\n  return 1\n}\n",
    expected: { kind: "SyntaxGateFailed", gates: ["tree-sitter"], line: 2, column: 10 },
  },
  {
    language: "cpp",
    file: "src/shape.cpp",
    text: "struct S {};\nint f() {\n  S s;\n  return s.u;\n}\n",
    program: "g++",
    expected: { kind: "CompilerGateFailed", gates: ["g++"], line: 4, column: 11 },
  },
  {
    language: "python",
    file: "pkg/util.py",
    text: "def f(:\n  pass\n",
    expected: { kind: "SyntaxGateFailed", gates: ["tree-sitter"], line: 1, column: 6 },
  },
  {
    language: "python",
    file: "pkg/util.py",
    text: "x = 1\nreturn x\n",
    program: "python3",
    expected: { kind: "CompilerGateFailed", gates: ["python3"], line: 2, column: 0 },
  },
  {
    language: "javascript",
    file: "lib/app.mjs",
    text: "function add(a, b) {\n  return (a + b;\n}\n",
    expected: { kind: "SyntaxGateFailed", gates: ["tree-sitter"], line: 2, column: 15 },
  },
  {
    language: "javascript",
    file: "lib/app.mjs",
    text: "let a = 1;\nlet a = 2;\n",
    program: "node",
    expected: { kind: "CompilerGateFailed", gates: ["node"], line: 2, column: 4 },
  },
  {
    language: "typescript",
    file: "src/app.ts",
    text: "const x = (1;\n",
    expected: { kind: "SyntaxGateFailed", gates: ["tree-sitter"], line: 1, column: 12 },
  },
  {
    language: "typescript",
    file: "src/app.ts",
    text: "export const s: string = 1;\n",
    program: Deno.execPath(),
    expected: { kind: "CompilerGateFailed", gates: ["deno"], line: 1, column: 13 },
  },
  {
    language: "java",
    file: "src/Greeter.java",
    text: "class Greeter {\n  int f() {\n    return 0\n  }\n}\n",
    expected: { kind: "SyntaxGateFailed", gates: ["tree-sitter"], line: 3, column: 12 },
  },
  {
    language: "java",
    file: "src/Greeter.java",
    text: "class Greeter {\n  int f() {\n    String s = 1;\n    return 0;\n  }\n}\n",
    program: "javac",
    expected: { kind: "CompilerGateFailed", gates: ["javac"], line: 3, column: 15 },
  },
  {
    language: "rust",
    file: "tool/main.rs",
    text: "fn main() {\n    let x = 1\n}\n",
    expected: { kind: "SyntaxGateFailed", gates: ["tree-sitter"], line: 2, column: 13 },
  },
  {
    language: "rust",
    file: "tool/main.rs",
    text: 'fn main() {\n    let _x: i32 = "s";\n}\n',
    program: "rustc",
    expected: { kind: "CompilerGateFailed", gates: ["rustc"], line: 2, column: 18 },
  },
  {
    // The JSON gate (JSON.parse) runs in process: it fails beside tree-sitter here.
    language: "json",
    file: "data/config.json",
    text: '{"a": 1,\n "b": }\n',
    expected: { kind: "SyntaxGateFailed", gates: ["json", "tree-sitter"], line: 2, column: 5 },
  },
  {
    // Two values: the grammar takes a document of several, JSON.parse one.
    language: "json",
    file: "data/config.json",
    text: '{"a": 1} {"b": 2}\n',
    expected: { kind: "CompilerGateFailed", gates: ["json"], line: 1, column: 9 },
  },
];

for (const sample of WRITE_CASES) {
  const present = sample.program === undefined || hasCommand(sample.program);
  const gate = sample.expected.kind === "SyntaxGateFailed" ? "syntax" : "compiler";
  Deno.test({
    name: `write ${sample.language}: a ${gate}-gate refusal is error { kind: ` +
      `${sample.expected.kind}, hint, diagnostics } (${sample.expected.gates.join(", ")})` +
      (present ? "" : ` (needs ${sample.program})`),
    ignore: !present,
    fn: async () => {
      const root = await makeTree({ "README.md": "readme\n" });
      try {
        const args = ["--path", sample.file, "--content", sample.text];
        const allow = sample.program ? [`--allow-run=${sample.program}`] : [];
        const refused = await run(writeTool, WRITE, root, args, allow);
        assert.equal(refused.code, 3, JSON.stringify(refused.envelope));
        assert.equal(refused.envelope.status, "rejected");
        assertRefusal(refused.envelope, {
          ...sample.expected,
          code: "LFW-V-001",
          file: sample.file,
        });
        // A gate that could not run says so among the envelope's diagnostics, not in the error.
        if (!sample.program && sample.language !== "json") {
          assert.ok(refused.envelope.diagnostics.some((d) => d.level === "note"));
        }
        // stderr repeats each error once.
        assert.equal(refused.stderr.split("LFW-V-001").length - 1, 1, refused.stderr);
        await assert.rejects(() => Deno.stat(`${root}/${sample.file}`), Deno.errors.NotFound);
        if (!sample.compact) return;
        const compact = await run(writeTool, WRITE, root, [...args, "--format", "compact"], allow);
        assert.equal(compact.code, 3);
        assert.equal(compact.envelope.error, undefined, compact.stdout);
        const count = (text: string) => compact.stdout.split(text).length - 1;
        assert.equal(count(`"${sample.compact.code}"`), 1, compact.stdout);
        assert.equal(count(JSON.stringify(sample.compact.message)), 1, compact.stdout);
        assert.equal(count('"LFW-V-001"'), 0, compact.stdout);
      } finally {
        await Deno.remove(root, { recursive: true });
      }
    },
  });
}

// --- llm-transform --validate --------------------------------------------------------------

const TRANSFORM = "tools/transform/main.ts";

interface TransformCase {
  language: string;
  file: string;
  before: string;
  old: string;
  new: string;
  validate: string[];
  program?: string;
  expected: Omit<Expected, "code" | "file">;
}

const TRANSFORM_CASES: TransformCase[] = [
  {
    language: "c",
    file: "main.c",
    before: "int main(void) {\n  return 0;\n}\n",
    old: "0;",
    new: "0",
    validate: ["--validate", "syntax"],
    expected: { kind: "SyntaxGateFailed", gates: ["tree-sitter"], line: 2, column: 10 },
  },
  {
    language: "c",
    file: "main.c",
    before: "int main(void) {\n  return 0;\n}\n",
    old: "0;",
    new: "missing;",
    validate: ["--validate", "all"],
    program: "gcc",
    expected: { kind: "CompilerGateFailed", gates: ["gcc"], line: 2, column: 9 },
  },
  {
    language: "python",
    file: "util.py",
    before: "def f():\n    return 1\n",
    old: "return 1",
    new: "return (1",
    validate: ["--validate=syntax"],
    expected: { kind: "SyntaxGateFailed", gates: ["tree-sitter"], line: 2, column: 4 },
  },
  {
    language: "python",
    file: "util.py",
    before: "def f():\n    return 1\n",
    old: "def f():\n    return 1",
    new: "x = 1\nreturn x",
    validate: ["--validate", "all"],
    program: "python3",
    expected: { kind: "CompilerGateFailed", gates: ["python3"], line: 2, column: 0 },
  },
  {
    language: "javascript",
    file: "app.mjs",
    before: "let a = 1;\nlet b = 2;\n",
    old: "let b",
    new: "let a",
    validate: ["--validate", "all"],
    program: "node",
    expected: { kind: "CompilerGateFailed", gates: ["node"], line: 2, column: 4 },
  },
];

for (const sample of TRANSFORM_CASES) {
  const present = sample.program === undefined || hasCommand(sample.program);
  const gate = sample.expected.kind === "SyntaxGateFailed" ? "syntax" : "compiler";
  Deno.test({
    name: `transform ${sample.language} ${sample.validate.join(" ")}: a ${gate}-gate refusal ` +
      `is error { kind: ${sample.expected.kind}, hint, diagnostics }` +
      (present ? "" : ` (needs ${sample.program})`),
    ignore: !present,
    fn: async () => {
      const root = await makeTree({ [sample.file]: sample.before });
      try {
        const args = ["--file", sample.file, "--old", sample.old, "--new", sample.new];
        const allow = sample.program ? [`--allow-run=${sample.program}`] : [];
        const refused = await run(
          transformTool,
          TRANSFORM,
          root,
          [...args, ...sample.validate],
          allow,
        );
        assert.equal(refused.code, 3, JSON.stringify(refused.envelope));
        assert.equal(refused.envelope.status, "error");
        assertRefusal(refused.envelope, {
          ...sample.expected,
          code: "LMT-V-013",
          file: sample.file,
        });
        assert.equal(refused.stderr.split("LMT-V-013").length - 1, 1, refused.stderr);
        assert.equal(await Deno.readTextFile(`${root}/${sample.file}`), sample.before);
      } finally {
        await Deno.remove(root, { recursive: true });
      }
    },
  });
}

Deno.test({
  name: "transform: the compact refusal keeps kind and hint, and its gate errors are said once, " +
    "in the summary (needs gcc)",
  ignore: !hasCommand("gcc"),
  fn: async () => {
    const root = await makeTree({ "main.c": "int main(void) {\n  return 0;\n}\n" });
    try {
      const args = ["--file", "main.c", "--old", "0;", "--new", "missing;", "--validate", "all"];
      const compact = await run(transformTool, TRANSFORM, root, [...args, "--format", "compact"], [
        "--allow-run=gcc",
      ]);
      assert.equal(compact.code, 3, compact.stdout);
      const answer = compact.envelope as unknown as CompactMutationEnvelope;
      assert.ok(CompactTransformEnvelopeSchema.safeParse(answer).success);
      const error = answer.error;
      assert.ok(error && "kind" in error, compact.stdout);
      assert.deepEqual(
        [error.kind, error.code, error.hint, "diagnostics" in error],
        ["CompilerGateFailed", "LMT-V-013", explainCode("LMT-V-013")?.remediation, false],
      );
      assert.deepEqual(answer.diagnostics.map((entry) => entry.code), ["LMT-V-101"]);
      // The gate error once, as the summary's example (the messages of the envelope and its
      // error quote it in their own words).
      const count = (text: string) => compact.stdout.split(text).length - 1;
      assert.equal(count('"LMT-V-101"'), 1, compact.stdout);
      assert.equal(count('"‘missing’ undeclared (first use in this function)"'), 1);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});

// --- --validate alone -----------------------------------------------------------------------

Deno.test("transform: --validate alone means --validate all; a value it takes is still its value", () => {
  const input = (args: string[]) => parseCommandLine(transformTool, args).input();
  assert.deepEqual(input(["--validate"]), { validate: "all" });
  assert.deepEqual(input(["--validate", "--dry-run"]), { validate: "all", dry_run: true });
  assert.deepEqual(input(["--dry-run", "--validate"]), { dry_run: true, validate: "all" });
  assert.deepEqual(input(["--validate", "syntax"]), { validate: "syntax" });
  assert.deepEqual(input(["--validate=none"]), { validate: "none" });
  // The value of another flag is not a flag given alone.
  assert.deepEqual(input(["--old", "--validate", "--new", "x"]), { old: "--validate", new: "x" });
  // A word that is not one of its values is an argument of its own, and the refusal says why.
  assert.throws(() => input(["--validate", "sytnax"]), (error) => {
    assert.ok(error instanceof ToolError);
    assert.equal(error.code, "LMT-ARG-001");
    assert.match(error.message, /unexpected argument 'sytnax'/);
    assert.match(
      String(error.details.note),
      /--validate takes syntax, all, none \(alone, it means all\)/,
    );
    return true;
  });
  // The generated table the command line parses by says the same.
  const table = tableOf(TRANSFORM_TABLES, "llm-transform");
  for (const args of [["--validate"], ["--validate", "--dry-run"], ["--validate", "syntax"]]) {
    const line = parseCommandLineBy(transformTool, table.fields, args);
    assert.deepEqual(line.input().validate, input(args).validate);
  }
  const help = helpText(transformTool);
  assert.match(help, /--validate \[<syntax\|all\|none>\]/);
  assert.match(help, /\[default: "none"\] \[alone: "all"\]/);
});

Deno.test({
  name:
    "transform: --validate alone runs the compiler gate, and refuses what it rejects (needs gcc)",
  ignore: !hasCommand("gcc"),
  fn: async () => {
    const before = "int main(void) {\n  return 0;\n}\n";
    const root = await makeTree({ "main.c": before });
    try {
      const args = ["--file", "main.c", "--old", "0;", "--new", "missing;"];
      for (const validate of [["--validate"], ["--validate", "--dry-run"]]) {
        const refused = await run(transformTool, TRANSFORM, root, [...args, ...validate], [
          "--allow-run=gcc",
        ]);
        assert.equal(refused.code, 3, JSON.stringify(refused.envelope));
        assertRefusal(refused.envelope, {
          code: "LMT-V-013",
          kind: "CompilerGateFailed",
          file: "main.c",
          gates: ["gcc"],
          line: 2,
          column: 9,
        });
      }
      // The syntax gate alone lets it through: the name is only unknown to the compiler.
      const syntax = await run(transformTool, TRANSFORM, root, [...args, "--validate", "syntax"]);
      assert.equal(syntax.code, 0, JSON.stringify(syntax.envelope));
      assert.notEqual(await Deno.readTextFile(`${root}/main.c`), before);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});

// --- llm-refactor ---------------------------------------------------------------------------

const REFACTOR = "tools/refactor/main.ts";

interface RefactorCase {
  language: string;
  files: Record<string, string>;
  symbol: string;
  text: string;
  program?: string;
  expected: Omit<Expected, "code">;
}

const REFACTOR_CASES: RefactorCase[] = [
  {
    language: "c",
    files: {
      "main.c":
        "int helper(int x) {\n  return x + 1;\n}\n\nint main(void) {\n  return helper(1);\n}\n",
    },
    symbol: "helper",
    text: "int helper(int x) {\n  return x + ;\n}\n",
    expected: {
      kind: "SyntaxGateFailed",
      file: "main.c",
      gates: ["tree-sitter"],
      line: 2,
      column: 12,
    },
  },
  {
    language: "c",
    files: {
      "main.c":
        "int helper(int x) {\n  return x + 1;\n}\n\nint main(void) {\n  return helper(1);\n}\n",
    },
    symbol: "helper",
    text: "int helper(int x) {\n  return x + missing;\n}\n",
    program: "gcc",
    expected: { kind: "CompilerGateFailed", file: "main.c", gates: ["gcc"], line: 2, column: 13 },
  },
  {
    language: "python",
    files: { "util.py": "def helper(x):\n    return x + 1\n" },
    symbol: "helper",
    text: "def helper(x):\n    nonlocal y\n    return x\n",
    program: "python3",
    expected: {
      kind: "CompilerGateFailed",
      file: "util.py",
      gates: ["python3"],
      line: 2,
      column: 4,
    },
  },
];

for (const sample of REFACTOR_CASES) {
  const present = sample.program === undefined || hasCommand(sample.program);
  const gate = sample.expected.kind === "SyntaxGateFailed" ? "syntax" : "compiler";
  Deno.test({
    name: `refactor ${sample.language} patch: a ${gate}-gate refusal is error { kind: ` +
      `${sample.expected.kind}, hint, diagnostics }` +
      (present ? "" : ` (needs ${sample.program})`),
    ignore: !present,
    fn: async () => {
      const root = await makeTree(sample.files);
      try {
        const allow = sample.program ? [`--allow-run=${sample.program}`] : [];
        const refused = await run(
          REFACTOR_SUBCOMMANDS.patch,
          REFACTOR,
          root,
          ["patch", sample.symbol, "--text", sample.text],
          allow,
        );
        assert.equal(refused.code, 3, JSON.stringify(refused.envelope));
        assert.equal(refused.envelope.status, "error");
        assertRefusal(refused.envelope, { ...sample.expected, code: "SPL-V-003" });
        assert.equal(refused.stderr.split("SPL-V-003").length - 1, 1, refused.stderr);
        for (const [path, text] of Object.entries(sample.files)) {
          assert.equal(await Deno.readTextFile(`${root}/${path}`), text);
        }
      } finally {
        await Deno.remove(root, { recursive: true });
      }
    },
  });
}

// --- MCP --------------------------------------------------------------------------------------

interface McpAnswer {
  isError?: boolean;
  structuredContent: {
    error?: Record<string, unknown>;
    diagnostics: { code: string }[];
  };
}

Deno.test({
  name: "mcp: write, transform and refactor patch answer a gate's refusal with its kind; the " +
    "compact answers leave its gate errors to the rows or the summary (needs gcc)",
  ignore: !hasCommand("gcc"),
  fn: async () => {
    const main =
      "int helper(int x) {\n  return x + 1;\n}\n\nint main(void) {\n  return helper(1);\n}\n";
    const root = await makeTree({ "main.c": main });
    const server = await connect({
      root,
      permissions: [`--allow-read=${root}`, `--allow-write=${root}`, "--allow-run=gcc"],
    });
    const call = async (name: string, args: Record<string, unknown>) =>
      await server.client.callTool({ name, arguments: args }) as unknown as McpAnswer;
    try {
      const broken = { path: "bad.c", content: "int main(void) {\n  return 0\n}\n" };
      const compactWrite = await call("write", broken);
      assert.equal(compactWrite.isError, true);
      assert.equal(compactWrite.structuredContent.error, undefined, "its rows say it");
      const fullWrite = await call("write", { ...broken, detail: "full" });
      assert.deepEqual(
        [fullWrite.structuredContent.error?.kind, fullWrite.structuredContent.error?.code],
        ["SyntaxGateFailed", "LFW-V-001"],
      );
      assert.ok(Array.isArray(fullWrite.structuredContent.error?.diagnostics));

      const edit = { file: "main.c", old: "x + 1", new: "x + missing", validate: "all" };
      const transform = await call("transform", edit);
      assert.equal(transform.isError, true);
      const error = transform.structuredContent.error;
      assert.deepEqual([error?.kind, error?.code, "diagnostics" in (error ?? {})], [
        "CompilerGateFailed",
        "LMT-V-013",
        false,
      ]);
      assert.deepEqual(transform.structuredContent.diagnostics.map((d) => d.code), ["LMT-V-101"]);

      const patch = await call("refactor", {
        op: "patch",
        symbol: "helper",
        text: "int helper(int x) {\n  return x + missing;\n}",
      });
      assert.equal(patch.isError, true);
      const refusal = patch.structuredContent.error as unknown as GateRefusal;
      assert.deepEqual([refusal.kind, refusal.code], ["CompilerGateFailed", "SPL-V-003"]);
      assert.deepEqual(refusal.diagnostics.map((d) => [d.tool, d.code]), [["gcc", "SPL-V-101"]]);
      assert.equal(await Deno.readTextFile(`${root}/main.c`), main);
    } finally {
      await server.close();
      await Deno.remove(root, { recursive: true });
    }
  },
});
