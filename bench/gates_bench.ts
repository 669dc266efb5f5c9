/**
 * The validation gates against their targets (issue 15), each figure beside its target with
 * ✓/✗, in one run:
 *
 * - the syntax gate on a 5,000-line file of each language the gates cover, warm (≤ 50 ms): the
 *   first call, the calls it takes to reach the steady state (a long-lived host such as the MCP
 *   server after a few calls: V8 tiers the grammar's wasm up in the background), the steady
 *   median, and beside it tree-sitter's parse of the same text alone (the floor);
 * - each compiler gate (`validateFile`, syntax gate included) beside the same compiler run
 *   directly on the same file, interleaved after a warm-up round: the overhead is within 10 ms
 *   or within the noise of the compiler alone (half the spread of its middle runs), and the
 *   gate's own CPU time per call (children excluded: what the gate costs whatever the load).
 *
 * Run: `deno run -A bench/gates_bench.ts [--runs N] [--part syntax|compilers]`.
 *
 * @module
 */
import { existsSync } from "node:fs";
import process from "node:process";
import { parseArgs } from "node:util";
import { dirname, join } from "node:path";
import { validateFile } from "../core/gates/mod.ts";
import { createParser } from "../grammars/loader.ts";
import { LINUX, prepare } from "./prepare.ts";
import { median, ms, REPO, runsOption } from "./measure.ts";

const runs = runsOption(7);
/** `--part syntax` or `--part compilers` runs one table only. */
const part = parseArgs({ args: Deno.args, options: { part: { type: "string" } }, strict: false })
  .values.part;
const encoder = new TextEncoder();

/** Syntax gate target: a 5,000-line file, warm, in at most this many milliseconds. */
const SYNTAX_TARGET_MS = 50;
/** Compiler gate target: at most this many milliseconds beside the compiler alone. */
const OVERHEAD_TARGET_MS = 10;
/** Calls of the syntax gate per language; the steady state is the median of the last ten. */
const SYNTAX_CALLS = 30;
/** A call is steady when it takes at most this factor of the steady median. */
const STEADY_FACTOR = 1.25;

function mark(ok: boolean): string {
  return ok ? "✓" : "✗";
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/** Milliseconds of CPU this process spent (children excluded). */
function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/** A sample text of one language. */
interface SyntaxSample {
  language: string;
  /** Where the text comes from. */
  label: string;
  /** The file name the gate is given. */
  file: string;
  /** The text, or why there is none on this machine. */
  text: string | { missing: string };
}

/** The first 5,000 lines of the texts, repeated as needed. */
function fiveThousandLines(texts: string[]): string {
  const lines: string[] = [];
  while (lines.length < 5000) {
    for (const text of texts) lines.push(...text.split("\n").slice(0, -1));
  }
  return lines.slice(0, 5000).join("\n") + "\n";
}

function fromFiles(root: string, paths: string[]): string {
  return fiveThousandLines(paths.map((path) => Deno.readTextFileSync(join(root, path))));
}

/** Java from the JDK's own sources (`lib/src.zip`), when a JDK here ships them. */
function jdkSources(entries: string[]): string | { missing: string } {
  const jvm = "/usr/lib/jvm";
  const zips = existsSync(jvm)
    ? [...Deno.readDirSync(jvm)].map((jdk) => join(jvm, jdk.name, "lib/src.zip")).filter((zip) =>
      existsSync(zip)
    )
    : [];
  for (const zip of zips) {
    const output = new Deno.Command("unzip", { args: ["-p", zip, ...entries], stderr: "null" })
      .outputSync();
    if (output.success) return fiveThousandLines([new TextDecoder().decode(output.stdout)]);
  }
  return { missing: `no JDK source archive (lib/src.zip) here holds ${entries.join(", ")}` };
}

/** The leading entries of a JSON array file that print (indented by 4) in at most 5,000 lines. */
function jsonSample(path: string): string {
  const entries: unknown[] = JSON.parse(Deno.readTextFileSync(path));
  const print = (count: number) => JSON.stringify(entries.slice(0, count), null, 4) + "\n";
  const lines = (count: number) => print(count).split("\n").length - 1;
  // Entries are about the same size: start just above the estimate and step down.
  let count = Math.min(
    entries.length,
    Math.ceil(entries.length * 5000 / lines(entries.length)) + 20,
  );
  while (count > 1 && lines(count) > 5000) count--;
  return print(count);
}

/**
 * The folder an npm package's files are in, as `deno info` reports it: Deno's global cache under
 * `"nodeModulesDir": "none"`, wherever that cache is.
 */
function npmPackageDir(spec: string): string {
  const info = new Deno.Command("deno", { args: ["info", "--json", `npm:${spec}`], cwd: REPO })
    .outputSync();
  if (!info.success) throw new Error(`deno info npm:${spec} failed`);
  const packages: Record<string, { localPath?: string }> =
    JSON.parse(new TextDecoder().decode(info.stdout)).npmPackages ?? {};
  const dir = packages[spec]?.localPath;
  if (!dir) throw new Error(`deno info npm:${spec} names no local folder`);
  return dir;
}

/**
 * The samples: real code where this machine has it (the Linux tree of `prepare.ts`, the npm
 * packages of the repository, the JDK's sources), generated where it has none (TOML) or to
 * compare with the brief's earlier figure (generated Python).
 */
function syntaxSamples(): SyntaxSample[] {
  const webTreeSitter = npmPackageDir("web-tree-sitter@0.25.10");
  return [
    {
      language: "c",
      label: "kernel/sched/core.c",
      file: "core.c",
      text: fromFiles(LINUX, ["kernel/sched/core.c"]),
    },
    {
      language: "cpp",
      label: "scripts/kconfig/qconf.cc ×3",
      file: "qconf.cpp",
      text: fromFiles(LINUX, ["scripts/kconfig/qconf.cc"]),
    },
    {
      language: "python",
      label: "tools/power/pm-graph/sleepgraph.py",
      file: "sleepgraph.py",
      text: fromFiles(LINUX, ["tools/power/pm-graph/sleepgraph.py"]),
    },
    {
      language: "python",
      label: "generated functions",
      file: "gen.py",
      text: Array.from(
        { length: 1000 },
        (_, i) =>
          `def f${i}(x):\n    if x > ${i}:\n        return x * ${i}\n    return [x, ${i}]\n\n`,
      ).join(""),
    },
    {
      language: "javascript",
      label: "web-tree-sitter's tree-sitter.js + .cjs",
      file: "tree-sitter.js",
      text: fromFiles(webTreeSitter, ["tree-sitter.js", "tree-sitter.cjs"]),
    },
    {
      language: "typescript",
      label: "zod's src/v4/core/schemas.ts",
      file: "schemas.ts",
      text: fromFiles(npmPackageDir("zod@4.6.7"), ["src/v4/core/schemas.ts"]),
    },
    {
      language: "java",
      label: "JDK java.util HashMap, ArrayList, TreeMap",
      file: "HashMap.java",
      text: jdkSources(
        ["HashMap", "ArrayList", "TreeMap"].map((name) => `java.base/java/util/${name}.java`),
      ),
    },
    {
      language: "rust",
      label: "rust/alloc/vec/mod.rs + boxed.rs",
      file: "vec.rs",
      text: fromFiles(LINUX, ["rust/alloc/vec/mod.rs", "rust/alloc/boxed.rs"]),
    },
    {
      language: "bash",
      label: "selftests/net/fcnal-test.sh + fib_nexthops.sh",
      file: "fcnal-test.sh",
      text: fromFiles(LINUX, [
        "tools/testing/selftests/net/fcnal-test.sh",
        "tools/testing/selftests/net/fib_nexthops.sh",
      ]),
    },
    {
      language: "json",
      label: "pmu-events cascadelakex/cache.json, re-indented",
      file: "cache.json",
      text: jsonSample(join(LINUX, "tools/perf/pmu-events/arch/x86/cascadelakex/cache.json")),
    },
    {
      language: "toml",
      label: "generated tables",
      file: "gen.toml",
      text: fiveThousandLines([
        Array.from({ length: 1667 }, (_, i) => `[table${i}]\nname = "n${i}"\nport = ${i}\n`).join(
          "",
        ),
      ]),
    },
  ];
}

/** Fewest lines a sample is cut to when looking for a clean cut. */
const FEWEST_LINES = 4_500;
/** Most cuts tried (each costs a parse). */
const CUTS_TRIED = 30;

/**
 * The sample cut where it parses without a syntax error (a line at column 0 after a blank
 * line, from line 5,000 down to 4,500), so the gate is timed on valid code as an agent writes
 * it; the sample as it is when no such cut parses cleanly (a grammar that rejects some of it).
 */
async function cleanCut(language: string, text: string): Promise<string> {
  const lines = text.split("\n");
  const parser = await createParser(language);
  try {
    let tried = 0;
    for (let cut = lines.length - 1; cut >= FEWEST_LINES && tried < CUTS_TRIED; cut--) {
      if (lines[cut - 1].trim() !== "" || !/^\S/.test(lines[cut])) continue;
      tried++;
      const candidate = lines.slice(0, cut).join("\n") + "\n";
      const tree = parser.parse(candidate);
      const clean = tree?.rootNode.hasError === false;
      tree?.delete();
      if (clean) return candidate;
    }
    return text;
  } finally {
    parser.delete();
  }
}

/** Calls before the first of three in a row within {@linkcode STEADY_FACTOR} of `steady`. */
function callsToSteady(times: number[], steady: number): number {
  const limit = steady * STEADY_FACTOR;
  const index = times.findIndex((_, i) => times.slice(i, i + 3).every((time) => time <= limit));
  return index < 0 ? times.length : index;
}

/** `text` with a space added at the end of its middle line: an edit every language ignores. */
function editedInTheMiddle(text: string): string {
  const middle = text.indexOf("\n", text.length >> 1);
  return `${text.slice(0, middle)} ${text.slice(middle)}`;
}

/** The syntax gate's wall and CPU time on `bytes` as `filePath`, and its verdict. */
async function syntaxCall(filePath: string, bytes: Uint8Array) {
  const cpuBefore = cpuMs();
  const started = performance.now();
  const report = await validateFile({ root: Deno.cwd(), filePath, bytes, gates: "syntax" });
  const wall = performance.now() - started;
  return { wall, cpu: cpuMs() - cpuBefore, status: report.gates[0].status };
}

/**
 * A new file each call (a name the host never saw: a full parse), beside tree-sitter's parse
 * alone; then edits of one file the host parsed before (the tree kept from the previous
 * version is reused).
 */
async function syntaxRow(sample: SyntaxSample): Promise<void> {
  const head = `| ${sample.language} | ${sample.label}`;
  if (typeof sample.text !== "string") {
    console.log(`${head} | — | — | — | — | — | — | — | ${sample.text.missing} |`);
    return;
  }
  const text = await cleanCut(sample.language, sample.text);
  const bytes = encoder.encode(text);
  const parser = await createParser(sample.language);
  const fresh: number[] = [];
  const cpu: number[] = [];
  const parse: number[] = [];
  let status = "";
  for (let call = 0; call < SYNTAX_CALLS; call++) {
    const result = await syntaxCall(`new-${call}-${sample.file}`, bytes);
    status = result.status;
    fresh.push(result.wall);
    cpu.push(result.cpu);
    parse.push(await timed(() => Promise.resolve(parser.parse(text)?.delete())));
  }
  parser.delete();
  const versions = [bytes, encoder.encode(editedInTheMiddle(text))];
  const edits: number[] = [];
  for (let call = 0; call <= SYNTAX_CALLS; call++) {
    const result = await syntaxCall(sample.file, versions[call % 2]);
    if (call > 0) edits.push(result.wall);
  }
  const steady = median(fresh.slice(-10));
  const edit = median(edits.slice(-10));
  const target = (value: number) => `${ms(value)} ${mark(value <= SYNTAX_TARGET_MS)}`;
  console.log(
    `${head} (${text.split("\n").length - 1} lines, ${bytes.length} bytes, ${status}) | ` +
      `${ms(fresh[0])} | ` +
      `${callsToSteady(fresh, steady)} | ${target(steady)} | ${ms(median(cpu.slice(-10)))} | ` +
      `${ms(median(parse.slice(-10)))} | ${target(edit)} |`,
  );
}

interface CompilerCase {
  /** The file checked, relative to the bench folder. */
  file: string;
  text: string;
  /** Files around it. */
  context?: Record<string, string>;
  /** The compiler run directly: program, arguments, environment. */
  direct: (dir: string, file: string) => [string, string[], Record<string, string>?];
  /** In-process gates (no program to compare with): the gate alone is measured. */
  inProcess?: true;
}

const COMPILERS: CompilerCase[] = [
  {
    file: "main.c",
    text: '#include <stdio.h>\nint main(void) {\n  printf("hi\\n");\n  return 0;\n}\n',
    direct: (_, file) => ["gcc", ["-fsyntax-only", file]],
  },
  {
    file: "main.cpp",
    text: "#include <vector>\nint main() {\n  std::vector<int> v{1, 2};\n  return v[0];\n}\n",
    direct: (_, file) => ["g++", ["-fsyntax-only", file]],
  },
  {
    file: "util.py",
    text: "def greet(name):\n    return f'hello {name}'\n",
    direct: (dir, file) => ["python3", ["-m", "py_compile", file], {
      PYTHONPYCACHEPREFIX: join(dir, ".pycache"),
    }],
  },
  {
    file: "math.js",
    text: "export const add = (a, b) => a + b;\n",
    direct: (_, file) => ["node", ["--check", file]],
  },
  {
    file: "app.ts",
    text: "export const z: number = 1 + 2;\n",
    // The gate checks a fresh hidden copy, which deno's type-check cache has never seen: the
    // direct run gets a fresh name too, or the cache would answer it.
    direct: (dir, file) => {
      const fresh = join(dir, `fresh-${crypto.randomUUID()}.ts`);
      Deno.copyFileSync(file, fresh);
      return [Deno.execPath(), ["check", "--quiet", fresh]];
    },
  },
  {
    file: "Greeter.java",
    text: 'public class Greeter {\n  String greet() { return "hello"; }\n}\n',
    direct: (dir, file) => ["javac", ["-d", join(dir, ".classes"), file]],
  },
  {
    file: "main.rs",
    text: 'fn main() {\n    println!("hi");\n}\n',
    direct: (dir, file) => ["rustc", ["--emit=metadata", "-o", join(dir, ".out.rmeta"), file]],
  },
  {
    file: "crate/src/lib.rs",
    text: "mod util;\npub fn two() -> i32 {\n    util::one() + 1\n}\n",
    context: {
      "crate/Cargo.toml": '[package]\nname = "bench"\nversion = "0.1.0"\nedition = "2021"\n',
      "crate/src/util.rs": "pub fn one() -> i32 {\n    1\n}\n",
    },
    // The gate builds in a fresh folder each time (its copy's own target/): so does this run,
    // with the gate's arguments (--all-targets checks the tests too: a second rustc).
    direct: (dir) => ["cargo", [
      "check",
      "--offline",
      "--quiet",
      "--all-targets",
      "--message-format=json",
    ], {
      CARGO_TARGET_DIR: join(dir, `.target-${crypto.randomUUID()}`),
    }],
  },
  {
    file: "run.sh",
    text: '#!/bin/bash\nfor f in *.txt; do echo "$f"; done\n',
    direct: (_, file) => ["bash", ["-n", file]],
  },
  {
    file: "deploy.yaml",
    text: Array.from({ length: 500 }, (_, i) => `item${i}:\n  name: n${i}\n  ports: [80, ${i}]\n`)
      .join(""),
    direct: () => ["true", []],
    inProcess: true,
  },
  {
    file: "config.toml",
    text: Array.from({ length: 500 }, (_, i) => `[table${i}]\nname = "n${i}"\nport = ${i}\n`)
      .join(""),
    direct: () => ["true", []],
    inProcess: true,
  },
];

/** The spread of the middle half of some numbers (upper minus lower quartile). */
function spread(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.round(q * (sorted.length - 1))];
  return at(0.75) - at(0.25);
}

/** Writes the case's file and context into `dir`. */
async function writeCase(dir: string, compiler: CompilerCase): Promise<void> {
  const files = { ...compiler.context, [compiler.file]: compiler.text };
  for (const [name, text] of Object.entries(files)) {
    await Deno.mkdir(dirname(join(dir, name)), { recursive: true });
    await Deno.writeTextFile(join(dir, name), text);
  }
}

/** The compiler run directly on the case's file; throws when it rejects the file. */
async function runDirect(dir: string, compiler: CompilerCase): Promise<void> {
  const path = join(dir, compiler.file);
  const [program, args, env] = compiler.direct(dir, path);
  const output = await new Deno.Command(program, { args, env, cwd: dirname(path) }).output();
  if (!output.success) {
    throw new Error(`${program} failed: ${new TextDecoder().decode(output.stderr)}`);
  }
}

async function compilerRow(dir: string, compiler: CompilerCase): Promise<void> {
  await writeCase(dir, compiler);
  const bytes = encoder.encode(compiler.text);
  const ours: number[] = [];
  const cpu: number[] = [];
  const direct: number[] = [];
  let gate = "";
  // Round -1 warms up (grammar, compiler caches, the version asked once) and is not counted.
  for (let round = -1; round < runs; round++) {
    const cpuBefore = cpuMs();
    const started = performance.now();
    const report = await validateFile({ root: dir, filePath: compiler.file, bytes });
    const [wall, used] = [performance.now() - started, cpuMs() - cpuBefore];
    gate = report.gates.map((outcome) => `${outcome.name}:${outcome.status}`).join(" ");
    const alone = compiler.inProcess ? 0 : await timed(() => runDirect(dir, compiler));
    if (round < 0) continue;
    ours.push(wall);
    cpu.push(used);
    direct.push(alone);
  }
  const head = `| ${compiler.file} (${gate}) | ${ms(median(ours))} | ${ms(median(cpu))}`;
  if (compiler.inProcess) {
    console.log(`${head} | in process | — | — | — | — |`);
    return;
  }
  const overhead = median(ours) - median(direct);
  const noise = spread(direct);
  const target = Math.max(OVERHEAD_TARGET_MS, noise);
  console.log(
    `${head} | ${ms(median(direct))} | ${overhead >= 0 ? "+" : ""}${ms(overhead)} | ` +
      `${ms(noise)} | ≤ ${ms(target)} | ${mark(overhead <= target)} |`,
  );
}

await prepare();
if (part !== "compilers") {
  console.log(
    `Syntax gate, 5,000 lines, target ≤ ${SYNTAX_TARGET_MS} ms warm (${SYNTAX_CALLS} calls each)\n\n` +
      "| Language | 5,000 lines of | new file: first call | calls to steady | warm (median) | " +
      "its CPU | parse alone | an edit of a file parsed before |\n" +
      "| --- | --- | --- | --- | --- | --- | --- | --- |",
  );
  for (const sample of syntaxSamples()) await syntaxRow(sample);
}
if (part !== "syntax") {
  console.log(
    `\n| Compiler gate (${runs} runs, interleaved) | validateFile | its CPU | compiler alone | ` +
      "overhead | noise | target | |\n| --- | --- | --- | --- | --- | --- | --- | --- |",
  );
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "llm-gates-bench-" }));
  try {
    for (const compiler of COMPILERS) await compilerRow(dir, compiler);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
