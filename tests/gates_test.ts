/**
 * The validation gates end to end, per language, on real compilers in temporary trees: a valid
 * file is approved (its includes and imports resolved from its folder), a syntax error is
 * rejected at the exact line and column, an error only the compiler sees is rejected with the
 * compiler's message and code, and nothing is ever left in the folder. Then `llm-validate` with
 * the exact permission flags: without `--allow-run` or without the compiler on PATH the gate is
 * skipped with a note and the syntax gate decides.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { validateFile } from "../core/gates/mod.ts";
import { MemoryCache } from "../core/cache.ts";
import type { Diagnostic } from "../schema/diagnostic.ts";
import { hasCommand, makeTree, parseJson, REPO, runEntry, testInOwnProcess } from "./helpers.ts";

interface Expected {
  line: number;
  column: number;
}

interface LanguageCase {
  /** The gate's name (and the program it needs). */
  gate: string;
  /** The target file, root-relative. */
  file: string;
  /** Files around it (what its includes and imports need). */
  context?: Record<string, string>;
  /** A valid text (it uses the context, so the context must resolve). */
  valid: string;
  /** A syntax error, and where tree-sitter puts it. */
  syntax: { text: string } & Expected;
  /** An error tree-sitter accepts and the compiler rejects. */
  semantic: { text: string; message: RegExp; nativeCode?: string } & Expected;
}

/** A Cargo workspace of two packages: `app` uses `util` (a path dependency) and its own module. */
const CARGO_WORKSPACE: Record<string, string> = {
  "Cargo.toml": '[workspace]\nmembers = ["app", "util"]\nresolver = "2"\n',
  "app/Cargo.toml": '[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n\n' +
    '[dependencies]\nutil = { path = "../util" }\n',
  "app/src/main.rs": 'mod helper;\nfn main() {\n    println!("{}", helper::two());\n}\n',
  "app/src/helper.rs": "pub fn two() -> i32 {\n    2\n}\n",
  "util/Cargo.toml": '[package]\nname = "util"\nversion = "0.1.0"\nedition = "2021"\n',
  "util/src/lib.rs": "pub fn one() -> i32 {\n    1\n}\n",
};

const CASES: LanguageCase[] = [
  {
    gate: "gcc",
    file: "src/main.c",
    context: { "src/config.h": "#define ANSWER 42\n" },
    valid: '#include "config.h"\nint main(void) {\n  return ANSWER;\n}\n',
    syntax: { text: "int main(void) {\n  return 0\n}\n", line: 2, column: 10 },
    semantic: {
      text: "int main(void) {\n  return undefined_var;\n}\n",
      message: /‘undefined_var’ undeclared/,
      line: 2,
      column: 9,
    },
  },
  {
    gate: "g++",
    file: "src/shape.cpp",
    context: { "src/shape.hpp": "struct Shape { int sides; };\n" },
    valid: '#include "shape.hpp"\nint sides(Shape s) { return s.sides; }\n',
    syntax: { text: "int f() {\n  return 1\n}\n", line: 2, column: 10 },
    semantic: {
      text: "struct S {};\nint f() {\n  S s;\n  return s.u;\n}\n",
      message: /‘struct S’ has no member named ‘u’/,
      line: 4,
      column: 11,
    },
  },
  {
    gate: "python3",
    file: "pkg/util.py",
    valid: "def greet(name):\n    return f'hello {name}'\n",
    syntax: { text: "def f(:\n  pass\n", line: 1, column: 6 },
    semantic: {
      text: "x = 1\nreturn x\n",
      message: /'return' outside function/,
      nativeCode: "SyntaxError",
      line: 2,
      column: 0,
    },
  },
  {
    gate: "node",
    file: "lib/math.mjs",
    context: { "lib/add.mjs": "export const add = (a, b) => a + b;\n" },
    valid: 'import { add } from "./add.mjs";\nexport const twice = (a) => add(a, a);\n',
    syntax: { text: "function f( {\n  return 1;\n}\n", line: 1, column: 0 },
    semantic: {
      text: "let a = 1;\nlet a = 2;\n",
      message: /Identifier 'a' has already been declared/,
      nativeCode: "SyntaxError",
      line: 2,
      column: 4,
    },
  },
  {
    gate: "deno",
    file: "src/app.ts",
    context: { "src/y.ts": "export const y: number = 1;\n" },
    valid: 'import { y } from "./y.ts";\nexport const z: number = y + 1;\n',
    syntax: { text: "const x = (1;\n", line: 1, column: 12 },
    semantic: {
      text: 'import { y } from "./y.ts";\nexport const s: string = y;\n',
      message: /Type 'number' is not assignable to type 'string'/,
      nativeCode: "TS2322",
      line: 2,
      column: 13,
    },
  },
  {
    gate: "javac",
    file: "src/com/example/Greeter.java",
    context: {
      "src/com/example/Names.java":
        'package com.example;\nclass Names { static String world() { return "world"; } }\n',
    },
    valid: "package com.example;\npublic class Greeter {\n" +
      '  String greet() { return "hello " + Names.world(); }\n}\n',
    syntax: { text: "class Greeter {\n  int f() {\n    return 0\n  }\n}\n", line: 3, column: 12 },
    semantic: {
      text: "package com.example;\nclass Greeter {\n  int f() {\n    String s = 1;\n" +
        "    return 0;\n  }\n}\n",
      message: /incompatible types: int cannot be converted to String/,
      line: 4,
      column: 15,
    },
  },
  {
    gate: "rustc",
    file: "tool/main.rs",
    context: { "tool/util.rs": "pub fn one() -> i32 { 1 }\n" },
    valid: 'mod util;\nfn main() {\n    println!("{}", util::one());\n}\n',
    syntax: { text: "fn main() {\n    let x = 1\n}\n", line: 2, column: 13 },
    semantic: {
      text: 'fn main() {\n    let _x: i32 = "s";\n}\n',
      message: /^mismatched types$/,
      nativeCode: "E0308",
      line: 2,
      column: 18,
    },
  },
  {
    gate: "cargo",
    file: "app/src/helper.rs",
    context: CARGO_WORKSPACE,
    valid: "pub fn two() -> i32 {\n    util::one() + 1\n}\n",
    syntax: { text: "pub fn two() -> i32 {\n    let x = 1\n    x\n}\n", line: 2, column: 13 },
    semantic: {
      text: 'pub fn two() -> i32 {\n    let _x: i32 = "s";\n    util::one()\n}\n',
      message: /^mismatched types$/,
      nativeCode: "E0308",
      line: 2,
      column: 18,
    },
  },
  {
    gate: "bash",
    file: "scripts/run.sh",
    valid: '#!/bin/bash\nfor f in *.txt; do\n  echo "$f"\ndone\n',
    syntax: { text: "if true; then\n  echo hi\nfi fi\n", line: 3, column: 2 },
    semantic: {
      text: "f() { }\n",
      message: /syntax error near unexpected token `}'/,
      line: 1,
      column: -1,
    },
  },
  {
    gate: "json",
    file: "data/config.json",
    valid: '{"name": "x", "list": [1, 2.5, "é"]}\n',
    syntax: { text: '{"a": 1,\n "b": }\n', line: 2, column: 5 },
    semantic: {
      text: '{"a": 1 /* no comments in JSON */}\n',
      message: /Expected ',' or '}' after property value/,
      nativeCode: "SyntaxError",
      line: 1,
      column: 8,
    },
  },
  {
    gate: "toml",
    file: "config/app.toml",
    valid: '[server]\nport = 8080\nname = "é"\n',
    syntax: { text: "a = \n", line: 1, column: 0 },
    semantic: {
      text: "[x]\na = 1\n[x]\nb = 2\n",
      message: /trying to redefine an already defined table or value/,
      nativeCode: "TomlError",
      line: 3,
      column: 1,
    },
  },
];

/** Gates computed in process: always present, with no program path or version. */
const IN_PROCESS = new Set(["json", "toml", "yaml"]);

const encoder = new TextEncoder();

/** Every entry under `root` (hidden ones too), sorted: what the gates must leave unchanged. */
function listing(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string, prefix: string) => {
    for (const entry of Deno.readDirSync(dir)) {
      const path = `${prefix}${entry.name}`;
      found.push(path);
      if (entry.isDirectory) walk(join(dir, entry.name), `${path}/`);
    }
  };
  walk(root, "");
  return found.sort();
}

/** Runs `test` in a temporary tree of `files`, removed afterwards. */
async function inTree(
  files: Record<string, string>,
  test: (root: string) => Promise<void>,
): Promise<void> {
  const root = await makeTree(files);
  try {
    await test(root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

function errorsOf(diagnostics: Diagnostic[], tool: string): Diagnostic[] {
  return diagnostics.filter((d) => d.tool === tool && d.level === "error");
}

for (const language of CASES) {
  const present = IN_PROCESS.has(language.gate) ||
    hasCommand(language.gate === "deno" ? Deno.execPath() : language.gate);
  Deno.test({
    name: `${language.gate}: valid approved, syntax and compiler errors rejected, nothing written` +
      (present ? "" : ` (needs ${language.gate})`),
    ignore: !present,
    fn: async () => {
      await inTree({ ...language.context, ".keep": "" }, async (root) => {
        const before = listing(root);
        const check = (text: string) =>
          validateFile({
            root,
            filePath: language.file,
            bytes: encoder.encode(text),
            prefix: "LMV",
          });

        const valid = await check(language.valid);
        assert.ok(valid.approved, JSON.stringify(valid.diagnostics));
        assert.deepEqual(valid.gates.map((gate) => [gate.name, gate.status]), [
          ["syntax", "passed"],
          [language.gate, "passed"],
        ]);
        if (!IN_PROCESS.has(language.gate)) {
          assert.ok(valid.gates[1].tool_version, "the compiler's version is reported");
          assert.ok(valid.gates[1].tool_path, "the compiler's path is reported");
        }

        const syntax = await check(language.syntax.text);
        assert.equal(syntax.approved, false);
        const [first] = errorsOf(syntax.diagnostics, "tree-sitter");
        assert.equal(first.code, "LMV-AST-101");
        assert.deepEqual([first.file, first.line, first.column], [
          language.file,
          language.syntax.line,
          language.syntax.column,
        ]);
        assert.equal(first.span?.start_line, language.syntax.line);

        const semantic = await check(language.semantic.text);
        assert.equal(semantic.approved, false, JSON.stringify(semantic.diagnostics));
        assert.equal(errorsOf(semantic.diagnostics, "tree-sitter").length, 0);
        assert.deepEqual(semantic.gates.map((gate) => gate.status), ["passed", "failed"]);
        const [error] = errorsOf(semantic.diagnostics, language.gate);
        assert.match(error.message, language.semantic.message);
        assert.equal(error.code, "LMV-V-101");
        assert.equal(error.native_code, language.semantic.nativeCode);
        assert.equal(error.file, language.file);
        assert.equal(error.line, language.semantic.line);
        if (language.semantic.column >= 0) assert.equal(error.column, language.semantic.column);

        assert.deepEqual(listing(root), before, "the gates left the folder as it was");
      });
    },
  });
}

Deno.test("yaml: the yaml parser decides (no grammar loads), every error at its line and column", async () => {
  await inTree({ "deploy/.keep": "" }, async (root) => {
    const before = listing(root);
    const check = (text: string) =>
      validateFile({ root, filePath: "deploy/app.yaml", bytes: encoder.encode(text) });
    const valid = await check("---\nname: app\nports: [80, 443]\n---\nname: 'é'\n");
    assert.ok(valid.approved, JSON.stringify(valid.diagnostics));
    assert.deepEqual(valid.gates.map((gate) => [gate.name, gate.status]), [
      ["syntax", "skipped"],
      ["yaml", "passed"],
    ]);
    const duplicate = await check("name: app\nport: 80\nname: other\n");
    assert.equal(duplicate.approved, false);
    const [error] = errorsOf(duplicate.diagnostics, "yaml");
    assert.deepEqual(
      [error.code, error.native_code, error.message, error.line, error.column],
      ["LFW-V-101", "DUPLICATE_KEY", "Map keys must be unique", 3, 0],
    );
    const indent = await check("a:\n  b: 1\n  c: [1, 2\n");
    assert.deepEqual(
      errorsOf(indent.diagnostics, "yaml").map((d) => [d.native_code, d.line]),
      [["BAD_INDENT", 4]],
    );
    const quoted = await check('key: "é" x\n');
    const [scalar] = errorsOf(quoted.diagnostics, "yaml");
    assert.deepEqual([scalar.line, scalar.column], [1, 10], "a byte column: é is two bytes");
    assert.deepEqual(listing(root), before);
  });
});

Deno.test({
  name: "cargo: a copy of the workspace is checked, the user's files untouched; a file no target " +
    "includes is skipped with a note" + (hasCommand("cargo") ? "" : " (needs cargo)"),
  ignore: !hasCommand("cargo"),
  fn: async () => {
    await inTree(CARGO_WORKSPACE, async (root) => {
      const before = listing(root);
      const helper = Deno.readFileSync(join(root, "app/src/helper.rs"));
      const check = (filePath: string, text: string) =>
        validateFile({ root, filePath, bytes: encoder.encode(text) });
      const broken = await check("app/src/helper.rs", "pub fn two() -> i32 {\n    nope()\n}\n");
      const [error] = errorsOf(broken.diagnostics, "cargo");
      assert.deepEqual([error.native_code, error.file, error.line], [
        "E0425",
        "app/src/helper.rs",
        2,
      ]);
      assert.deepEqual(Deno.readFileSync(join(root, "app/src/helper.rs")), helper);

      const stray = await check("app/src/stray.rs", "pub fn three() -> i32 {\n    3\n}\n");
      const cargo = stray.gates.find((gate) => gate.name === "cargo")!;
      assert.equal(cargo.status, "skipped");
      assert.match(cargo.reason!, /no target of the crate includes it/);
      assert.ok(stray.diagnostics.some((d) => d.code === "LFW-V-109" && d.level === "note"));

      const plain = await check("scratch/solo.rs", "fn main() {\n    let _x: i32 = 1;\n}\n");
      assert.equal(plain.gates[1].name, "cargo", "the workspace folder above holds it");
      assert.deepEqual(listing(root), before);
    });
  },
});

Deno.test("a compiler that accepts the file overrules the grammar (valid bash tree-sitter rejects)", async () => {
  await inTree({}, async (root) => {
    const report = await validateFile({
      root,
      filePath: "a.sh",
      bytes: encoder.encode("for x in; do\n  echo\ndone\n"),
    });
    assert.ok(report.approved);
    assert.equal(report.gates[0].reason, "overruled: bash accepts the file");
    assert.ok(report.diagnostics.every((d) => d.level !== "error"));
  });
});

Deno.test("a gate past its time limit is skipped with a note, its child killed, nothing left", async () => {
  await inTree({ "src/.keep": "" }, async (root) => {
    const before = listing(root);
    const report = await validateFile({
      root,
      filePath: "src/Slow.java",
      bytes: encoder.encode("class Slow {}\n"),
      timeoutMs: 50,
    });
    const javac = report.gates.find((gate) => gate.name === "javac")!;
    assert.equal(javac.status, "skipped");
    assert.match(javac.reason!, /ran past 50 ms/);
    assert.ok(report.diagnostics.some((d) => d.code === "LFW-V-105" && d.level === "note"));
    assert.deepEqual(listing(root), before);
  });
});

Deno.test("verdicts that depend on the bytes alone are cached by content hash (python3)", async () => {
  await inTree({}, async (root) => {
    const cache = new MemoryCache();
    const bytes = encoder.encode("def f():\n    return 1\n");
    const first = await validateFile({ root, filePath: "a.py", bytes, cache });
    const second = await validateFile({ root, filePath: "a.py", bytes, cache });
    assert.deepEqual(second.gates[1], first.gates[1], "python3's stored outcome, its duration too");
    assert.equal(second.gates[0].status, "passed");
    const other = await validateFile({
      root,
      filePath: "a.py",
      bytes: encoder.encode("x = (\n"),
      cache,
    });
    assert.equal(other.approved, false);
  });
});

/** The absolute path of `program` on PATH. */
function onPath(program: string): string {
  for (const folder of (Deno.env.get("PATH") ?? "").split(":")) {
    try {
      if (Deno.statSync(join(folder, program)).isFile) return join(folder, program);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
  throw new Error(`${program} is not on PATH`);
}

/**
 * Runs `test` with a `gcc` first on PATH that counts its checks (its `--version` and the
 * question for its include folders, `-E -v`, aside) in a file, then runs the real one; PATH is
 * restored afterwards.
 */
async function withCountingGcc(test: (checks: () => number) => Promise<void>): Promise<void> {
  const bin = await Deno.makeTempDir();
  const counter = join(bin, "count");
  const path = Deno.env.get("PATH") ?? "";
  Deno.writeTextFileSync(
    join(bin, "gcc"),
    `#!/bin/sh\ncase "$1" in --version|-E) ;; *) echo >> '${counter}' ;; esac\n` +
      `exec '${onPath("gcc")}' "$@"\n`,
    { mode: 0o755 },
  );
  Deno.env.set("PATH", `${bin}:${path}`);
  try {
    await test(() => {
      try {
        return Deno.readTextFileSync(counter).length;
      } catch (error) {
        if (error instanceof Deno.errors.NotFound) return 0;
        throw error;
      }
    });
  } finally {
    Deno.env.set("PATH", path);
    await Deno.remove(bin, { recursive: true });
  }
}

// It puts a counting gcc first on PATH: in a process of its own.
testInOwnProcess(import.meta.url, {
  name: "gcc's verdict is cached with the headers it read: no second run until one changes" +
    (hasCommand("gcc") ? "" : " (needs gcc)"),
  ignore: !hasCommand("gcc"),
  fn: async () => {
    await withCountingGcc(async (checks) => {
      await inTree({ "src/config.h": "#define ANSWER 42\n" }, async (root) => {
        const cache = new MemoryCache();
        const bytes = encoder.encode(
          '#include "config.h"\nint main(void) {\n  return ANSWER;\n}\n',
        );
        const check = () => validateFile({ root, filePath: "src/main.c", bytes, cache });
        const first = await check();
        assert.ok(first.approved, JSON.stringify(first.diagnostics));
        assert.equal(checks(), 1);
        const second = await check();
        assert.equal(checks(), 1, "the second run did not start gcc");
        assert.deepEqual(second.gates[1], first.gates[1], "gcc's stored outcome, its duration too");

        Deno.writeTextFileSync(join(root, "src/config.h"), "#define ANSWER missing_name\n");
        const changed = await check();
        assert.equal(checks(), 2, "a changed header runs gcc again");
        assert.equal(changed.approved, false);
        assert.match(errorsOf(changed.diagnostics, "gcc")[0].message, /missing_name/);

        Deno.writeTextFileSync(join(root, "src/other.c"), "int other;\n");
        await check();
        assert.equal(checks(), 3, "a file added to the folder runs gcc again (it may shadow one)");
      });
    });
  },
});

Deno.test({
  name: "deno check's verdict is cached with its module graph: reused until an import changes",
  fn: async () => {
    await inTree({ "src/y.ts": "export const y: number = 1;\n" }, async (root) => {
      const cache = new MemoryCache();
      const bytes = encoder.encode('import { y } from "./y.ts";\nexport const z: number = y;\n');
      const check = () => validateFile({ root, filePath: "src/app.ts", bytes, cache });
      const first = await check();
      assert.deepEqual(first.gates.map((gate) => gate.status), ["passed", "passed"]);
      const started = performance.now();
      const second = await check();
      const elapsed = performance.now() - started;
      assert.deepEqual(second.gates[1], first.gates[1], "the stored verdict, its duration too");
      assert.ok(elapsed < first.gates[1].duration_ms, `${elapsed} ms: deno check did not run`);

      Deno.writeTextFileSync(join(root, "src/y.ts"), 'export const y: string = "s";\n');
      const changed = await check();
      assert.equal(changed.approved, false, "the changed import is seen");
      assert.equal(errorsOf(changed.diagnostics, "deno")[0].native_code, "TS2322");
    });
  },
});

Deno.test("an unknown file type gets a note; an unknown language is a coded error", async () => {
  const report = await validateFile({
    root: REPO,
    filePath: "notes.txt",
    bytes: encoder.encode("x"),
  });
  assert.ok(report.approved);
  assert.equal(report.diagnostics[0].code, "LFW-AST-102");
  await assert.rejects(
    validateFile({ root: REPO, filePath: "a.x", language: "klingon", bytes: new Uint8Array() }),
    (error: Error & { code?: string }) => error.code === "LFW-ARG-101",
  );
});

const VALIDATE = "tools/validate/main.ts";

Deno.test({
  name:
    "llm-validate without --allow-run: the compiler gate is skipped with a note, syntax decides",
  fn: async () => {
    await inTree({ "src/main.c": "int main(void) { return 0; }\n" }, async (root) => {
      const ok = await runEntry(VALIDATE, ["src/main.c"], { cwd: root });
      assert.equal(ok.code, 0, ok.stderr);
      const approved = parseJson(ok) as { data: { status: string }; diagnostics: Diagnostic[] };
      assert.equal(approved.data.status, "approved");
      const note = approved.diagnostics.find((d) => d.code === "LMV-V-104")!;
      assert.equal(note.level, "note");
      assert.match(note.message, /add --allow-run=gcc/);

      const bad = await runEntry(VALIDATE, ["src/main.c", "--content", "int main( {"], {
        cwd: root,
      });
      assert.equal(bad.code, 3);
      const rejected = parseJson(bad) as { data: { status: string }; diagnostics: Diagnostic[] };
      assert.equal(rejected.data.status, "rejected");
      assert.ok(rejected.diagnostics.some((d) => d.code === "LMV-AST-101"));
      assert.equal(
        Deno.readTextFileSync(join(root, "src/main.c")),
        "int main(void) { return 0; }\n",
      );
    });
  },
});

Deno.test({
  name: "llm-validate with --allow-run=gcc and no write permission: gcc reads stdin, rejects",
  ignore: !hasCommand("gcc"),
  fn: async () => {
    await inTree({ "src/config.h": "#define ANSWER 42\n" }, async (root) => {
      const before = listing(root);
      const result = await runEntry(
        VALIDATE,
        ["src/main.c", "--content", '#include "config.h"\nint main(void) { return ANSWR; }\n'],
        { cwd: root, permissions: ["--allow-read", "--allow-run=gcc"] },
      );
      assert.equal(result.code, 3, result.stderr);
      const envelope = parseJson(result) as { diagnostics: Diagnostic[] };
      const error = envelope.diagnostics.find((d) => d.tool === "gcc")!;
      assert.deepEqual([error.code, error.line, error.column], ["LMV-V-101", 2, 24]);
      assert.match(error.message, /‘ANSWR’ undeclared/);
      assert.deepEqual(listing(root), before);
    });
  },
});

Deno.test({
  name: "llm-validate: node needs write permission for its hidden copy, or skips with a note",
  ignore: !hasCommand("node"),
  fn: async () => {
    await inTree({ "a.js": "let a = 1;\nlet a = 2;\n" }, async (root) => {
      const result = await runEntry(VALIDATE, ["a.js"], {
        cwd: root,
        permissions: ["--allow-read", "--allow-run=node"],
      });
      assert.equal(result.code, 0, result.stderr);
      const envelope = parseJson(result) as { diagnostics: Diagnostic[] };
      assert.ok(envelope.diagnostics.some((d) => d.code === "LMV-V-108" && d.level === "note"));
    });
  },
});

Deno.test({
  name: "llm-validate with the compiler missing from PATH: skipped with a note, syntax decides",
  fn: async () => {
    await inTree({ "empty-bin/.keep": "" }, async (root) => {
      const result = await runEntry(
        VALIDATE,
        ["main.c", "--content", "int main(void) { return 0; }\n"],
        {
          cwd: root,
          permissions: ["--allow-read", "--allow-run=gcc", "--allow-env=PATH"],
          env: { PATH: join(root, "empty-bin") },
        },
      );
      assert.equal(result.code, 0, result.stderr);
      const envelope = parseJson(result) as { data: { status: string }; diagnostics: Diagnostic[] };
      assert.equal(envelope.data.status, "approved");
      const note = envelope.diagnostics.find((d) => d.code === "LMV-V-103")!;
      assert.match(note.message, /gcc is not on PATH/);
    });
  },
});

Deno.test("llm-validate refuses a path outside the root", async () => {
  await inTree({ "inside/.keep": "" }, async (root) => {
    const result = await runEntry(VALIDATE, ["../outside.py", "--content", "x = 1\n"], {
      cwd: join(root, "inside"),
      permissions: ["--allow-read"],
    });
    assert.equal(result.code, 4, result.stdout);
    const envelope = parseJson(result) as { diagnostics: Diagnostic[] };
    assert.equal(envelope.diagnostics[0].code, "LMV-PERM-101");
  });
});
