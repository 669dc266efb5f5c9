/**
 * The gates run no code of the project or of the text they check, and no text of a file outside
 * the root reaches their answer (contract §11), through the command lines with the permission
 * flags a user gives. Each hostile tree comes with a folder outside the root: code of the project
 * that ran would leave a marker file there, and a secret there must not be quoted. A build script
 * or proc macro runs only with `--allow-build-scripts` (MCP `allow_build_scripts`); without it
 * a note names the flag.
 *
 * The runs deny writes to `<root>/.llm`: a run that may write there keeps its execution log
 * there (README, `llm-log`), which is the toolkit's record of the run, not the gates' doing.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Diagnostic } from "../schema/diagnostic.ts";
import type { GateOutcome } from "../schema/gates.ts";
import { hasCommand, makeTree, parseJson, runEntry, type RunResult } from "./helpers.ts";
import { connect } from "./mcp_helpers.ts";

const VALIDATE = "tools/validate/main.ts";
const WRITE = "tools/write/main.ts";

/** What the tests read of an envelope. */
interface Answer {
  data: { status: string; gates: GateOutcome[] };
  diagnostics: Diagnostic[];
}

/** Every entry under `root`, sorted. */
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

/**
 * Runs `test` with a temporary tree of `files` (its root) and an empty folder outside it, whose
 * path replaces `OUTSIDE` in the files' text (`makeOutside` fills it first); both are removed.
 */
async function withTrees(
  files: Record<string, string>,
  test: (root: string, outside: string) => Promise<void>,
  makeOutside: (outside: string) => void = () => {},
): Promise<void> {
  const outside = await Deno.realPath(await Deno.makeTempDir({ prefix: "llm-gate-outside-" }));
  const placed = Object.fromEntries(
    Object.entries(files).map(([path, text]) => [path, text.replaceAll("OUTSIDE", outside)]),
  );
  const root = await makeTree(placed);
  try {
    makeOutside(outside);
    await test(root, outside);
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
}

/** Writes an executable shell script. */
function script(path: string, body: string): void {
  Deno.mkdirSync(join(path, ".."), { recursive: true });
  Deno.writeTextFileSync(path, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
}

/** Whether `path` exists. */
function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

/**
 * The flags of a gate run in `root`: read, write for the hidden copies (not `.llm`, see the
 * module doc), the programs named.
 */
function flags(root: string, programs: string[], read = "--allow-read"): string[] {
  return [
    read,
    `--allow-write=${root}`,
    `--deny-write=${join(root, ".llm")}`,
    `--allow-run=${programs.join(",")}`,
  ];
}

/** Runs `llm-validate PATH ARGS…` in `root` with `permissions`. */
function validate(
  root: string,
  args: string[],
  permissions: string[],
  env?: Record<string, string>,
) {
  return runEntry(VALIDATE, args, { cwd: root, permissions, ...(env ? { env } : {}) });
}

function answerOf(result: RunResult): Answer {
  return parseJson(result) as unknown as Answer;
}

function gate(answer: Answer, name: string): GateOutcome {
  const found = answer.data.gates.find((outcome) => outcome.name === name);
  assert.ok(found, `no ${name} gate in ${JSON.stringify(answer.data.gates)}`);
  return found;
}

const CARGO_PACKAGE = '[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n';

const needs = (program: string) => hasCommand(program) ? "" : ` (needs ${program})`;

Deno.test({
  name: "cargo: a crate's build script does not run; a note names --allow-build-scripts" +
    needs("cargo"),
  ignore: !hasCommand("cargo"),
  fn: async () => {
    await withTrees({
      "Cargo.toml": CARGO_PACKAGE,
      "build.rs": 'fn main() { std::fs::write("OUTSIDE/marker", "build.rs ran").unwrap(); }\n',
      "src/lib.rs": "pub fn one() -> i32 {\n    1\n}\n",
    }, async (root, outside) => {
      const result = await validate(root, ["src/lib.rs"], flags(root, ["cargo"]));
      assert.equal(result.code, 0, result.stderr);
      assert.ok(!exists(join(outside, "marker")), "the build script ran");
      const answer = answerOf(result);
      assert.equal(answer.data.status, "approved", "the syntax gate decided");
      assert.equal(gate(answer, "cargo").status, "skipped");
      const note = answer.diagnostics.find((d) => d.code === "LMV-V-110")!;
      assert.equal(note.level, "note");
      assert.match(note.message, /the build script of app/);
      assert.match(note.message, /--allow-build-scripts/);

      const allowed = await validate(
        root,
        ["src/lib.rs", "--allow-build-scripts", "--content", "pub fn one() -> i32 { 2 }\n"],
        flags(root, ["cargo"]),
      );
      assert.equal(allowed.code, 0, allowed.stderr);
      assert.equal(gate(answerOf(allowed), "cargo").status, "passed");
      assert.ok(exists(join(outside, "marker")), "asked for, the build script ran");
    });
  },
});

Deno.test({
  name: "llm-write --validate-only of a build.rs does not run the text it checks" + needs("cargo"),
  ignore: !hasCommand("cargo"),
  fn: async () => {
    await withTrees({
      "Cargo.toml": CARGO_PACKAGE,
      "src/lib.rs": "pub fn one() -> i32 {\n    1\n}\n",
    }, async (root, outside) => {
      const content = 'fn main() {\n    std::fs::write("OUTSIDE/marker", "ran").unwrap();\n}\n'
        .replace("OUTSIDE", outside);
      const result = await runEntry(
        WRITE,
        ["--path", "build.rs", "--validate-only", "--content", content],
        { cwd: root, permissions: flags(root, ["cargo"]) },
      );
      assert.equal(result.code, 0, result.stderr);
      assert.ok(!exists(join(outside, "marker")), "the candidate build script ran");
      assert.ok(!exists(join(root, "build.rs")), "validate-only wrote the file");
      const answer = parseJson(result) as { diagnostics: Diagnostic[] };
      assert.ok(answer.diagnostics.some((d) => d.code === "LFW-V-110"), JSON.stringify(answer));
    });
  },
});

Deno.test({
  name: "cargo: a proc macro of the workspace is neither built nor run" + needs("cargo"),
  ignore: !hasCommand("cargo"),
  fn: async () => {
    await withTrees({
      "Cargo.toml": '[workspace]\nmembers = ["app", "macros"]\nresolver = "2"\n',
      "macros/Cargo.toml": '[package]\nname = "macros"\nversion = "0.1.0"\nedition = "2021"\n\n' +
        "[lib]\nproc-macro = true\n",
      "macros/src/lib.rs": "use proc_macro::TokenStream;\n#[proc_macro]\n" +
        "pub fn mark(_: TokenStream) -> TokenStream {\n" +
        '    std::fs::write("OUTSIDE/marker", "the proc macro ran").unwrap();\n' +
        "    TokenStream::new()\n}\n",
      "app/Cargo.toml": CARGO_PACKAGE + '\n[dependencies]\nmacros = { path = "../macros" }\n',
      "app/src/main.rs": "macros::mark!();\nfn main() {}\n",
    }, async (root, outside) => {
      const result = await validate(root, ["app/src/main.rs"], flags(root, ["cargo"]));
      assert.equal(result.code, 0, result.stderr);
      assert.ok(!exists(join(outside, "marker")), "the proc macro ran");
      const answer = answerOf(result);
      assert.equal(gate(answer, "cargo").status, "skipped");
      const note = answer.diagnostics.find((d) => d.code === "LMV-V-110")!;
      assert.match(note.message, /the proc macro macros/);
    });
  },
});

/** A `.cargo/config.toml` whose wrapper and flags would show that cargo read it. */
const CARGO_CONFIG = {
  ".cargo/config.toml": '[build]\nrustc-wrapper = "OUTSIDE/wrapper.sh"\n' +
    'rustflags = ["--cfg", "project_flags"]\n',
};

/** A `rust-toolchain.toml` naming a toolchain by path: rustup would run its programs. */
const TOOLCHAIN_FILE = { "rust-toolchain.toml": '[toolchain]\npath = "OUTSIDE/toolchain"\n' };

/** The programs the hostile files name, each leaving a marker when run. */
function hostilePrograms(outside: string): void {
  script(join(outside, "wrapper.sh"), `touch '${outside}/wrapper-ran'\nexec "$@"`);
  for (const program of ["cargo", "rustc"]) {
    script(join(outside, "toolchain", "bin", program), `touch '${outside}/toolchain-ran'`);
  }
}

/** The markers left in `outside`. */
function markers(outside: string): string[] {
  return [...Deno.readDirSync(outside)].map((entry) => entry.name)
    .filter((name) => name.endsWith("-ran"));
}

Deno.test({
  name: "cargo and rustc read no project file that names programs: .cargo/config.toml " +
    "(a rustc wrapper, flags), rust-toolchain.toml (a toolchain path)" + needs("cargo"),
  ignore: !hasCommand("cargo") || !hasCommand("rustc"),
  fn: async () => {
    const text = '#[cfg(project_flags)]\ncompile_error!("the project\'s rustflags applied");\n' +
      "pub fn one() -> i32 {\n    1\n}\n";
    for (const hostile of [CARGO_CONFIG, TOOLCHAIN_FILE]) {
      const files = { ...hostile, "Cargo.toml": CARGO_PACKAGE, "src/lib.rs": text };
      await withTrees(files, async (root, outside) => {
        const result = await validate(root, ["src/lib.rs"], flags(root, ["cargo"]));
        assert.deepEqual(markers(outside), [], "a program of the project's configuration ran");
        assert.equal(result.code, 0, result.stderr);
        assert.deepEqual(answerOf(result).data.gates.map((g) => [g.name, g.status]), [
          ["syntax", "passed"],
          ["cargo", "passed"],
        ]);
      }, hostilePrograms);
    }
    const loose = { ...TOOLCHAIN_FILE, "tool/main.rs": "fn main() {}\n" };
    await withTrees(loose, async (root, outside) => {
      const result = await validate(root, ["tool/main.rs"], flags(root, ["rustc"]));
      assert.deepEqual(markers(outside), [], "the project's toolchain path ran");
      assert.equal(result.code, 0, result.stderr);
      assert.equal(gate(answerOf(result), "rustc").status, "passed");
    }, hostilePrograms);
  },
});

Deno.test({
  name: "python3: a json.py beside the file neither runs nor changes the verdict" +
    needs("python3"),
  ignore: !hasCommand("python3"),
  fn: async () => {
    await withTrees({
      "pkg/json.py": 'open("OUTSIDE/marker", "w").write("json.py ran")\n',
    }, async (root, outside) => {
      const valid = await validate(
        root,
        ["pkg/util.py", "--content", "def f(x):\n    return x + 1\n"],
        flags(root, ["python3"]),
      );
      assert.ok(!exists(join(outside, "marker")), "json.py ran");
      assert.equal(valid.code, 0, valid.stderr);
      assert.equal(gate(answerOf(valid), "python3").status, "passed");
      const invalid = await validate(
        root,
        ["pkg/util.py", "--content", "x = 1\nreturn x\n"],
        flags(root, ["python3"]),
      );
      assert.equal(invalid.code, 3, invalid.stderr);
      const [error] = answerOf(invalid).diagnostics.filter((d) => d.tool === "python3");
      assert.match(error.message, /'return' outside function/);
    });
  },
});

Deno.test({
  name: "node: NODE_OPTIONS cannot load a module into the gate's node" + needs("node"),
  ignore: !hasCommand("node"),
  fn: async () => {
    // Deno honours NODE_OPTIONS' --require too: the module writes only when node loads it.
    await withTrees({
      "preload.cjs": 'if (!globalThis.Deno) require("fs").writeFileSync("OUTSIDE/marker", "x");\n',
    }, async (root, outside) => {
      const result = await validate(
        root,
        ["a.js", "--content", "let a = 1;\n"],
        flags(root, ["node"]),
        { NODE_OPTIONS: `--require ${join(root, "preload.cjs")}` },
      );
      assert.equal(result.code, 0, result.stderr);
      assert.equal(gate(answerOf(result), "node").status, "passed");
      assert.ok(!exists(join(outside, "marker")), "NODE_OPTIONS' module ran in the gate");
    });
  },
});

/** The secret a file outside the root holds: it must not be in any answer. */
const SECRET = "SECRET_OUTSIDE_THE_ROOT_7f3a";

/**
 * Runs each check (a file and its text) in a tree whose read permission is scoped to the root,
 * with an outside folder holding the secret in `secret.txt`, `secret.h` (an undeclared name),
 * `leak.h` (a macro expanding to it) and `secret.ts` (a constant of its literal type), and
 * `src/link.h` a link to `leak.h`: each answer is rejected without the secret, and says why.
 */
async function assertNoSecret(
  programs: string[],
  checks: [path: string, text: string][],
  files: Record<string, string> = {},
): Promise<void> {
  await withTrees({ "src/.keep": "", ...files }, async (root, outside) => {
    Deno.symlinkSync(join(outside, "leak.h"), join(root, "src", "link.h"));
    for (const [path, text] of checks) {
      const result = await validate(
        root,
        [path, "--content", text.replaceAll("OUTSIDE", outside)],
        flags(root, programs, `--allow-read=${root}`),
      );
      const label = `${path}: ${text}`;
      assert.ok(!result.stdout.includes(SECRET), `${label}\nquoted the secret: ${result.stdout}`);
      assert.ok(!result.stderr.includes(SECRET), `${label}\nquoted the secret on stderr`);
      assert.equal(result.code, 3, `${label}\n${result.stderr}`);
      const note = answerOf(result).diagnostics.find((d) => /-V-111$/.test(d.code));
      assert.ok(note, `${label}: no note says text was withheld`);
    }
  }, (outside) => {
    Deno.writeTextFileSync(join(outside, "secret.txt"), `${SECRET}\n`);
    Deno.writeTextFileSync(join(outside, "secret.h"), `int leaked = ${SECRET};\n`);
    Deno.writeTextFileSync(join(outside, "leak.h"), `#define LEAK "${SECRET}"\n`);
    Deno.writeTextFileSync(
      join(outside, "secret.ts"),
      `export const token = "${SECRET}" as const;\n`,
    );
  });
}

Deno.test({
  name: "rustc: no text of a file outside the root reaches the answer (include_str!, include!, " +
    "also when rustc stops before saying what it read)" + needs("rustc"),
  ignore: !hasCommand("rustc"),
  fn: async () => {
    await assertNoSecret(["rustc"], [
      ["src/a.rs", 'compile_error!(include_str!("OUTSIDE/secret.txt"));\n'],
      ["src/b.rs", 'include!("OUTSIDE/secret.h");\n'],
      // The broken include stops rustc before its dep-info: what it read is not known.
      ["src/c.rs", 'compile_error!(include_str!("OUTSIDE/secret.txt"));\ninclude!("bad.rs");\n'],
    ], { "src/bad.rs": "fn broken( {\n" });
  },
});

Deno.test({
  name: "gcc: no text of a header outside the root reaches the answer (named, or through a link)" +
    needs("gcc"),
  ignore: !hasCommand("gcc"),
  fn: async () => {
    await assertNoSecret(["gcc"], [
      ["src/a.c", '#include "OUTSIDE/secret.h"\n'],
      ["src/b.c", '#include "link.h"\n_Static_assert(0, LEAK);\n'],
    ]);
  },
});

Deno.test("deno: no text of a module outside the root reaches the answer", async () => {
  await assertNoSecret([Deno.execPath()], [
    ["src/a.ts", 'import { token } from "OUTSIDE/secret.ts";\nexport const n: number = token;\n'],
  ]);
});

Deno.test({
  name: "cargo: no text of a path dependency outside the root reaches the answer" +
    needs("cargo"),
  ignore: !hasCommand("cargo"),
  fn: async () => {
    await withTrees({
      "Cargo.toml": CARGO_PACKAGE + '\n[dependencies]\ndep = { path = "OUTSIDE/dep" }\n',
      "src/lib.rs": "pub fn one() -> i32 {\n    1\n}\n",
    }, async (root) => {
      const result = await validate(
        root,
        ["src/lib.rs", "--content", "pub fn one() -> u8 {\n    dep::make()\n}\n"],
        flags(root, ["cargo"], `--allow-read=${root}`),
      );
      assert.equal(result.code, 3, result.stderr);
      assert.ok(!result.stdout.includes(SECRET), result.stdout);
      const answer = answerOf(result);
      assert.ok(answer.diagnostics.some((d) => d.code === "LMV-V-111"), result.stdout);
    }, (outside) => {
      Deno.mkdirSync(join(outside, "dep", "src"), { recursive: true });
      Deno.writeTextFileSync(
        join(outside, "dep", "Cargo.toml"),
        '[package]\nname = "dep"\nversion = "0.1.0"\nedition = "2021"\n',
      );
      // rustc names the type it found (`expected u8, found …`): the outside file's own word.
      Deno.writeTextFileSync(
        join(outside, "dep", "src", "lib.rs"),
        `#[allow(non_camel_case_types)]\npub struct ${SECRET};\n` +
          `pub fn make() -> ${SECRET} {\n    ${SECRET}\n}\n`,
      );
    });
  },
});

/** Whether Deno resolves `npm:zod@4.6.7` (from its cache or the registry) without a project. */
function npmAvailable(): boolean {
  const dir = Deno.makeTempDirSync();
  try {
    return new Deno.Command(Deno.execPath(), {
      args: ["info", "--no-lock", "--node-modules-dir=none", "npm:zod@4.6.7"],
      cwd: dir,
      stdout: "null",
      stderr: "null",
    }).outputSync().success;
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

const NPM = npmAvailable();

Deno.test({
  name: "deno: checking a file that imports an npm package writes nothing into the project " +
    "(no deno.lock, no node_modules under nodeModulesDir auto)" +
    (NPM ? "" : " (needs npm:zod@4.6.7 from the npm registry or Deno's cache)"),
  ignore: !NPM,
  fn: async () => {
    await withTrees({ "deno.json": '{ "nodeModulesDir": "auto" }\n', "src/.keep": "" }, async (
      root,
    ) => {
      const before = listing(root);
      const result = await validate(
        root,
        [
          "src/a.ts",
          "--content",
          'import { z } from "npm:zod@4.6.7";\nexport const s: number = z.string();\n',
        ],
        flags(root, [Deno.execPath()]),
      );
      assert.equal(result.code, 3, result.stderr);
      const [error] = answerOf(result).diagnostics.filter((d) => d.tool === "deno");
      assert.equal(error.native_code, "TS2322");
      assert.deepEqual(listing(root), before, "the deno gate wrote into the project");
    });
  },
});

Deno.test({
  name: "mcp validate: allow_build_scripts is the argument that lets cargo run a build script" +
    needs("cargo"),
  ignore: !hasCommand("cargo"),
  fn: async () => {
    await withTrees({
      "Cargo.toml": CARGO_PACKAGE,
      "build.rs": 'fn main() { std::fs::write("OUTSIDE/marker", "build.rs ran").unwrap(); }\n',
      "src/lib.rs": "pub fn one() -> i32 {\n    1\n}\n",
    }, async (root, outside) => {
      const server = await connect({ root, permissions: flags(root, ["cargo"]) });
      try {
        const call = (extra: Record<string, unknown>) =>
          server.client.callTool({ name: "validate", arguments: { path: "src/lib.rs", ...extra } });
        const skipped = JSON.stringify(await call({}));
        assert.ok(!exists(join(outside, "marker")), "the build script ran");
        assert.match(skipped, /LMV-V-110/);
        assert.match(skipped, /allow_build_scripts/);
        await call({ allow_build_scripts: true });
        assert.ok(exists(join(outside, "marker")), "asked for, the build script ran");
      } finally {
        await server.close();
      }
    });
  },
});
