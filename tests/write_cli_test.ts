/**
 * llm-write as a real `deno run --no-prompt` subprocess with the permission flags a user gives
 * (`--allow-read=<root> --allow-write=<root>`, plus `--allow-run=<compiler>` for the compiler
 * gates): per language a valid file approved and written with its checksum, a syntax error
 * rejected at its exact line and column with nothing written (bytes and directory listing
 * compared), validate_only, overwrite guarded by the checksum, parent folders created inside
 * the root only, undo of a creation and of an overwrite (its own and llm-transform's), and a
 * multi-file plan that lands all or nothing.
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import {
  type MutationEnvelope,
  sha256,
  type WriteOutput,
  type WriteResult,
} from "../schema/mod.ts";
import { writeTool } from "../tools/write/tool.ts";
import { assertValidEnvelope, hasCommand, makeTree, parseJson, runEntry } from "./helpers.ts";

const ENTRY = "tools/write/main.ts";

function scoped(root: string): string[] {
  return [`--allow-read=${root}`, `--allow-write=${root}`];
}

interface Run {
  code: number;
  stderr: string;
  envelope: MutationEnvelope<WriteOutput>;
}

async function run(
  root: string,
  args: string[],
  options: { stdin?: string; permissions?: string[]; env?: Record<string, string> } = {},
): Promise<Run> {
  const result = await runEntry(ENTRY, args, {
    cwd: root,
    permissions: options.permissions ?? scoped(root),
    stdin: options.stdin,
    env: options.env,
  });
  const envelope = parseJson(result);
  assertValidEnvelope(writeTool, envelope);
  assert.doesNotMatch(result.stderr, /\n\s+at /, "no stack trace");
  return {
    code: result.code,
    stderr: result.stderr,
    envelope: envelope as unknown as MutationEnvelope<WriteOutput>,
  };
}

function writeResult(run: Run): WriteResult {
  const result = run.envelope.result;
  assert.ok(result && "validate_only" in result, JSON.stringify(run.envelope));
  return result;
}

/** Every entry under `root` but the journal: folders as `dir/`, files with their sha256. */
async function listing(root: string): Promise<string[]> {
  const entries: string[] = [];
  async function walk(dir: string): Promise<void> {
    for await (const entry of Deno.readDir(dir)) {
      const path = join(dir, entry.name);
      const name = relative(root, path);
      if (entry.name === ".llm" && dir === root) continue;
      if (entry.isDirectory) {
        entries.push(`${name}/`);
        await walk(path);
      } else if (entry.isFile) entries.push(`${name} ${sha256(await Deno.readFile(path))}`);
      else entries.push(`${name} ${entry.isSymlink ? "symlink" : "other"}`);
    }
  }
  await walk(root);
  return entries.sort();
}

interface LanguageCase {
  language: string;
  file: string;
  valid: string;
  broken: string;
  /** 1-based line and 0-based byte column of the first syntax error of `broken`. */
  line: number;
  column: number;
  /** What the syntax gate says there. */
  message: RegExp;
}

const LANGUAGES: LanguageCase[] = [
  {
    language: "c",
    file: "src/main.c",
    valid: "int main(void) {\n  return 0;\n}\n",
    broken: "int main(void) {\n  return 0\n}\n",
    line: 2,
    column: 10,
    message: /missing ;/,
  },
  {
    language: "python",
    file: "src/app.py",
    valid: "def greet(name):\n    return 'hi ' + name\n",
    broken: "def greet(name):\n    return 'hi ' +\n",
    // tree-sitter-python wraps the unfinished statement in an ERROR node from its start.
    line: 2,
    column: 4,
    message: /unexpected "return 'hi ' \+"/,
  },
  {
    language: "javascript",
    file: "lib/app.js",
    valid: "function add(a, b) {\n  return a + b;\n}\n",
    broken: "function add(a, b) {\n  return (a + b;\n}\n",
    line: 2,
    column: 15,
    message: /missing \)/,
  },
  {
    language: "typescript",
    file: "src/app.ts",
    valid: "export const x: number = 1;\n",
    broken: "export function f(a: number {\n  return a;\n}\n",
    line: 1,
    column: 27,
    message: /missing \)/,
  },
];

for (const sample of LANGUAGES) {
  Deno.test(`write ${sample.language}: a valid file is approved and written with its checksum`, async () => {
    const root = await makeTree({ "README.md": "readme\n" });
    try {
      const outcome = await run(root, ["--path", sample.file, "--content", sample.valid]);
      assert.equal(outcome.code, 0, JSON.stringify(outcome.envelope));
      assert.equal(outcome.envelope.status, "approved");
      const [file] = writeResult(outcome).files;
      assert.deepEqual(
        { path: file.file_path, status: file.status, written: file.written, action: file.action },
        { path: sample.file, status: "approved", written: true, action: "create" },
      );
      assert.equal(file.checksum, sha256(sample.valid));
      assert.equal(file.language, sample.language);
      assert.equal(await Deno.readTextFile(join(root, sample.file)), sample.valid);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  });

  Deno.test(`write ${sample.language}: a syntax error is rejected at its line and column, nothing written`, async () => {
    const root = await makeTree({ "README.md": "readme\n" });
    try {
      const before = await listing(root);
      const outcome = await run(root, ["--path", sample.file, "--content", sample.broken]);
      assert.equal(outcome.code, 3, JSON.stringify(outcome.envelope));
      assert.equal(outcome.envelope.status, "rejected");
      assert.equal(outcome.envelope.error?.code, "LFW-V-001");
      const syntax = outcome.envelope.diagnostics.find((d) => d.code === "LFW-AST-101");
      assert.ok(syntax, JSON.stringify(outcome.envelope.diagnostics));
      assert.deepEqual(
        { file: syntax.file, line: syntax.line, column: syntax.column, level: syntax.level },
        { file: sample.file, line: sample.line, column: sample.column, level: "error" },
      );
      assert.match(syntax.message, sample.message);
      const [file] = writeResult(outcome).files;
      assert.deepEqual({ status: file.status, written: file.written }, {
        status: "rejected",
        written: false,
      });
      assert.deepEqual(await listing(root), before, "no file and no folder was created");
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  });
}

interface CompilerCase {
  language: string;
  file: string;
  /** The program of the gate, as `--allow-run` names it. */
  program: string;
  /** The gate's name in the report. */
  gate: string;
  /** Text the grammar accepts and the compiler rejects. */
  text: string;
  message: RegExp;
  nativeCode?: string;
  line: number;
  column: number;
}

/** The deno gate runs the running Deno by its path (a link when Deno came from npm). */
const DENO = Deno.execPath();

const COMPILER_CASES: CompilerCase[] = [
  {
    language: "c",
    file: "src/main.c",
    program: "gcc",
    gate: "gcc",
    text: "int main(void) {\n  return missing;\n}\n",
    message: /‘missing’ undeclared/,
    line: 2,
    column: 9,
  },
  {
    language: "python",
    file: "src/app.py",
    program: "python3",
    gate: "python3",
    text: "x = 1\nreturn x\n",
    message: /'return' outside function/,
    nativeCode: "SyntaxError",
    line: 2,
    column: 0,
  },
  {
    language: "javascript",
    file: "lib/app.mjs",
    program: "node",
    gate: "node",
    text: "let a = 1;\nlet a = 2;\n",
    message: /Identifier 'a' has already been declared/,
    nativeCode: "SyntaxError",
    line: 2,
    column: 4,
  },
  {
    language: "typescript",
    file: "src/app.ts",
    program: DENO,
    gate: "deno",
    text: "export const s: string = 1;\n",
    message: /Type 'number' is not assignable to type 'string'/,
    nativeCode: "TS2322",
    line: 1,
    column: 13,
  },
];

for (const sample of COMPILER_CASES) {
  const present = hasCommand(sample.program);
  Deno.test({
    name: `write ${sample.language}: ${sample.gate} rejects with its message and code, nothing ` +
      `written; without --allow-run or ${sample.gate} on PATH the gate is skipped with a note` +
      (present ? "" : ` (needs ${sample.gate})`),
    ignore: !present,
    fn: async () => {
      const root = await makeTree({ "README.md": "readme\n" });
      try {
        const before = await listing(root);
        const args = ["--path", sample.file, "--content", sample.text];
        assert.ok(before.length > 0);
        const gated = await run(root, args, {
          permissions: [...scoped(root), `--allow-run=${sample.program}`],
        });
        assert.equal(gated.code, 3, JSON.stringify(gated.envelope));
        assert.equal(gated.envelope.status, "rejected");
        const [error] = gated.envelope.diagnostics.filter((d) => d.code === "LFW-V-101");
        assert.ok(error, JSON.stringify(gated.envelope.diagnostics));
        assert.match(error.message, sample.message);
        assert.deepEqual(
          [error.tool, error.file, error.line, error.column, error.native_code],
          [sample.gate, sample.file, sample.line, sample.column, sample.nativeCode],
        );
        assert.ok(error.tool_path && error.tool_version, "the compiler's path and version");
        assert.deepEqual(await listing(root), before, "no file and no folder was created");

        const ungated = await run(root, args);
        assert.equal(ungated.code, 0, JSON.stringify(ungated.envelope));
        const denied = ungated.envelope.diagnostics.find((d) => d.code === "LFW-V-104");
        assert.equal(denied?.level, "note", JSON.stringify(ungated.envelope.diagnostics));
        assert.match(denied.message, new RegExp(`--allow-run=${sample.program}`));
        const undone = await run(root, ["--undo", ungated.envelope.execution_id]);
        assert.equal(undone.code, 0, JSON.stringify(undone.envelope));
        await assert.rejects(() => Deno.stat(join(root, sample.file)), Deno.errors.NotFound);
        const afterUndo = await listing(root); // the folders the write created stay

        // deno's gate runs the running Deno by its path: it cannot be missing from PATH.
        if (sample.gate === "deno") return;
        const absent = await run(root, [...args, "--validate-only"], {
          permissions: [...scoped(root), `--allow-run=${sample.program}`, "--allow-env=PATH"],
          env: { PATH: join(root, "no-such-bin") },
        });
        assert.equal(absent.code, 0, JSON.stringify(absent.envelope));
        const missing = absent.envelope.diagnostics.find((d) => d.code === "LFW-V-103");
        assert.equal(missing?.level, "note", JSON.stringify(absent.envelope.diagnostics));
        assert.match(missing.message, new RegExp(`${sample.program} is not on PATH`));
        assert.deepEqual(await listing(root), afterUndo);
      } finally {
        await Deno.remove(root, { recursive: true });
      }
    },
  });
}

Deno.test("write: validate_only checks without writing; content may come on standard input", async () => {
  const root = await makeTree({ "README.md": "readme\n" });
  try {
    const before = await listing(root);
    const good = await run(root, ["--path", "new/a.py", "--validate-only"], { stdin: "x = 1\n" });
    assert.equal(good.code, 0, JSON.stringify(good.envelope));
    assert.equal(good.envelope.status, "approved");
    assert.deepEqual(
      writeResult(good).files.map((file) => [file.status, file.written, file.checksum]),
      [["approved", false, sha256("x = 1\n")]],
    );
    const bad = await run(root, ["--path", "new/a.py", "--content", "x = (\n", "--validate-only"]);
    assert.equal(bad.code, 3);
    assert.equal(bad.envelope.status, "rejected");
    assert.deepEqual(await listing(root), before);

    const written = await run(root, ["--path", "new/a.py"], { stdin: "x = 1\n" });
    assert.equal(written.code, 0, JSON.stringify(written.envelope));
    assert.equal(await Deno.readTextFile(join(root, "new/a.py")), "x = 1\n");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("write: an existing file is replaced only with overwrite and its exact checksum", async () => {
  const old = "x = 1\n";
  const root = await makeTree({ "a.py": old });
  try {
    const before = await listing(root);
    const plain = await run(root, ["--path", "a.py", "--content", "x = 2\n"]);
    assert.deepEqual([plain.code, plain.envelope.status, plain.envelope.error?.code], [
      3,
      "rejected",
      "LFW-V-002",
    ]);
    assert.match(plain.envelope.error?.note ?? "", new RegExp(sha256(old)));
    const unchecked = await run(root, ["--path", "a.py", "--content", "x = 2\n", "--overwrite"]);
    assert.deepEqual([unchecked.code, unchecked.envelope.error?.code], [2, "LFW-V-003"]);
    const wrong = await run(root, [
      "--path",
      "a.py",
      "--content",
      "x = 2\n",
      "--overwrite",
      "--expected-checksum",
      sha256("something else"),
    ]);
    assert.deepEqual([wrong.code, wrong.envelope.error?.code], [3, "LFW-V-004"]);
    assert.deepEqual(await listing(root), before, "no refusal changed anything");

    const right = await run(root, [
      "--path",
      "a.py",
      "--content",
      "x = 2\n",
      "--overwrite",
      "--expected-checksum",
      sha256(old),
    ]);
    assert.equal(right.code, 0, JSON.stringify(right.envelope));
    const [file] = writeResult(right).files;
    assert.deepEqual([file.action, file.checksum_before, file.checksum], [
      "overwrite",
      sha256(old),
      sha256("x = 2\n"),
    ]);
    assert.equal(await Deno.readTextFile(join(root, "a.py")), "x = 2\n");

    const undone = await run(root, ["--undo", right.envelope.execution_id]);
    assert.equal(undone.code, 0, JSON.stringify(undone.envelope));
    assert.equal(await Deno.readTextFile(join(root, "a.py")), old, "the old bytes are back");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("write: parent folders are created inside the root; a link or a path out of it is refused", async () => {
  const root = await makeTree({ "README.md": "readme\n" });
  const outside = await makeTree({ "keep.txt": "outside\n" });
  try {
    await Deno.symlink(outside, join(root, "out"));
    const made = await run(root, ["--path", "deep/er/mod.js", "--content", "export {};\n"]);
    assert.equal(made.code, 0, JSON.stringify(made.envelope));
    assert.ok((await Deno.stat(join(root, "deep/er"))).isDirectory);
    assert.equal(await Deno.readTextFile(join(root, "deep/er/mod.js")), "export {};\n");

    const before = await listing(root);
    for (const path of ["out/evil.py", "out/new/evil.py", "../evil.py", join(outside, "e.py")]) {
      const refused = await run(root, ["--path", path, "--content", "x = 1\n"]);
      assert.equal(refused.code, 4, `${path}: ${JSON.stringify(refused.envelope)}`);
      assert.equal(refused.envelope.error?.code, "LFW-PERM-010", path);
    }
    assert.deepEqual(await listing(root), before);
    assert.deepEqual(await listing(outside), [`keep.txt ${sha256("outside\n")}`]);
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("write: llm-transform --undo (and write's own undo) removes a created file", async () => {
  const root = await makeTree({ "README.md": "readme\n" });
  try {
    const created = await run(root, ["--path", "src/a.c", "--content", "int x;\n"]);
    assert.equal(created.code, 0, JSON.stringify(created.envelope));
    const undo = await runEntry(
      "tools/transform/main.ts",
      ["--undo", created.envelope.execution_id],
      { cwd: root, permissions: scoped(root) },
    );
    assert.equal(undo.code, 0, undo.stdout);
    await assert.rejects(() => Deno.stat(join(root, "src/a.c")), Deno.errors.NotFound);

    const again = await run(root, ["--path", "b.py", "--content", "y = 2\n"]);
    const undone = await run(root, ["--undo", again.envelope.execution_id]);
    assert.equal(undone.code, 0, JSON.stringify(undone.envelope));
    await assert.rejects(() => Deno.stat(join(root, "b.py")), Deno.errors.NotFound);
    const twice = await run(root, ["--undo", again.envelope.execution_id]);
    assert.deepEqual(
      [twice.code, twice.envelope.operation_type, twice.envelope.error?.code],
      [3, "undo", "LFW-REF-002"],
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("write: a multi-file plan lands all or nothing", async () => {
  const root = await makeTree({ "README.md": "readme\n" });
  try {
    const before = await listing(root);
    const files = [
      { file_path: "a.py", content: "a = 1\n" },
      { path: "pkg/b.c", content: "int b(void) { return 1 }\n" },
      { file_path: "c.js", content: "const c = 3;\n" },
    ];
    const rejected = await run(root, ["--plan", "-"], { stdin: JSON.stringify({ files }) });
    assert.equal(rejected.code, 3, JSON.stringify(rejected.envelope));
    assert.deepEqual(
      writeResult(rejected).files.map((file) => [file.file_path, file.status, file.written]),
      [["a.py", "skipped", false], ["c.js", "skipped", false], ["pkg/b.c", "rejected", false]],
    );
    assert.deepEqual(await listing(root), before);

    files[1].content = "int b(void) { return 1; }\n";
    await Deno.writeTextFile(join(root, "plan.json"), JSON.stringify({ files }));
    const approved = await run(root, ["--plan", "plan.json"]);
    assert.equal(approved.code, 0, JSON.stringify(approved.envelope));
    assert.equal(writeResult(approved).approved_count, 3);
    for (const file of files) {
      assert.equal(await Deno.readTextFile(join(root, file.file_path ?? file.path!)), file.content);
    }
    const undone = await run(root, ["--undo", approved.envelope.execution_id]);
    assert.equal(undone.code, 0);
    assert.deepEqual(
      await listing(root),
      [...before, "pkg/", `plan.json ${sha256(JSON.stringify({ files }))}`].sort(),
      "the files are gone (the folder created stays)",
    );

    const twice = await run(root, [
      "--files",
      JSON.stringify([{ path: "x.py", content: "" }, { path: "./x.py", content: "" }]),
    ]);
    assert.deepEqual([twice.code, twice.envelope.error?.code], [2, "LFW-V-007"]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("write: without write permission the run is refused (exit 4) and --explain knows the codes", async () => {
  const root = await makeTree({ "README.md": "readme\n" });
  try {
    const readOnly = await run(root, ["--path", "a.py", "--content", "x = 1\n"], {
      permissions: [`--allow-read=${root}`],
    });
    assert.equal(readOnly.code, 4);
    assert.equal(readOnly.envelope.error?.code, "LFW-PERM-002");
    await assert.rejects(() => Deno.stat(join(root, "a.py")), Deno.errors.NotFound);
    const explained = await runEntry(ENTRY, ["--explain", "LFW-V-002"], { cwd: root });
    assert.equal(explained.code, 0);
    assert.equal(JSON.parse(explained.stdout).code, "LFW-V-002");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

const hasGcc = hasCommand("gcc");

Deno.test({
  name:
    "write c: the gcc gate runs with --allow-run=gcc and is skipped with a note without it (needs gcc)",
  ignore: !hasGcc,
  fn: async () => {
    const root = await makeTree({ "README.md": "readme\n" });
    try {
      const undeclared = "int main(void) {\n  return missing;\n}\n";
      const before = await listing(root);
      const gated = await run(root, ["--path", "m.c", "--content", undeclared], {
        permissions: [...scoped(root), "--allow-run=gcc"],
      });
      assert.equal(gated.code, 3, JSON.stringify(gated.envelope));
      const compiler = gated.envelope.diagnostics.find((d) => d.code === "LFW-V-101");
      assert.ok(compiler, JSON.stringify(gated.envelope.diagnostics));
      assert.deepEqual([compiler.file, compiler.line], ["m.c", 2]);
      assert.match(compiler.message, /missing/);
      assert.deepEqual(await listing(root), before);

      const ungated = await run(root, ["--path", "m.c", "--content", undeclared]);
      assert.equal(ungated.code, 0, JSON.stringify(ungated.envelope));
      const skipped = ungated.envelope.diagnostics.find((d) => d.code === "LFW-V-104");
      assert.ok(skipped, JSON.stringify(ungated.envelope.diagnostics));
      assert.equal(skipped.level, "note");
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});
