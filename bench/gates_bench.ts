/**
 * The validation gates: the syntax gate on a 5,000-line file (warm: the grammar loaded, the
 * parser made; target ≤ 50 ms), and each compiler gate (`validateFile`, syntax gate included)
 * beside the same compiler run directly on the same file, interleaved in one run: median wall
 * time and the overhead. Run: `deno run -A bench/gates_bench.ts [--runs N]`.
 *
 * @module
 */
import { dirname, join } from "node:path";
import { validateFile } from "../core/gates/mod.ts";
import { createParser } from "../grammars/loader.ts";
import { LINUX, prepare } from "./prepare.ts";
import { median, ms, runsOption } from "./measure.ts";

const runs = runsOption(5);
const encoder = new TextEncoder();

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/** The floor of the syntax gate: tree-sitter's parse of the same text, nothing else. */
async function bareParse(language: string, text: string): Promise<() => Promise<void>> {
  const parser = await createParser(language);
  return () => {
    parser.parse(text)?.delete();
    return Promise.resolve();
  };
}

async function syntaxRow(label: string, filePath: string, text: string): Promise<void> {
  const bytes = encoder.encode(text);
  const check = () => validateFile({ root: Deno.cwd(), filePath, bytes, gates: "syntax" });
  const parse = await bareParse(filePath.endsWith(".c") ? "c" : "python", text);
  const cold = await timed(check);
  const warm: number[] = [];
  const floor: number[] = [];
  for (let run = 0; run < Math.max(runs, 10); run++) {
    warm.push(await timed(check));
    floor.push(await timed(parse));
  }
  const lines = text.split("\n").length - 1;
  console.log(
    `| syntax gate, ${label} (${lines} lines, ${bytes.length} bytes) | ${ms(median(warm))} | ` +
      `${ms(median(floor))} | ${ms(cold)} |`,
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
    // The gate builds in a fresh folder each time (its copy's own target/): so does this run.
    direct: (dir) => ["cargo", ["check", "--offline", "--quiet"], {
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

async function compilerRow(dir: string, compiler: CompilerCase): Promise<void> {
  const path = join(dir, compiler.file);
  for (
    const [name, text] of Object.entries({ ...compiler.context, [compiler.file]: compiler.text })
  ) {
    await Deno.mkdir(dirname(join(dir, name)), { recursive: true });
    await Deno.writeTextFile(join(dir, name), text);
  }
  const bytes = encoder.encode(compiler.text);
  const ours: number[] = [];
  const direct: number[] = [];
  let gate = "";
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    const report = await validateFile({ root: dir, filePath: compiler.file, bytes });
    ours.push(performance.now() - started);
    gate = report.gates.map((outcome) => `${outcome.name}:${outcome.status}`).join(" ");
    if (compiler.inProcess) continue;
    const [program, args, env] = compiler.direct(dir, path);
    direct.push(
      await timed(async () => {
        const cwd = dirname(path);
        const output = await new Deno.Command(program, { args, env, cwd }).output();
        if (!output.success) {
          throw new Error(`${program} failed: ${new TextDecoder().decode(output.stderr)}`);
        }
      }),
    );
  }
  if (compiler.inProcess) {
    console.log(`| ${compiler.file} (${gate}) | ${ms(median(ours))} | in process | — |`);
    return;
  }
  const overhead = median(ours) - median(direct);
  console.log(
    `| ${compiler.file} (${gate}) | ${ms(median(ours))} | ${ms(median(direct))} | ` +
      `${overhead >= 0 ? "+" : ""}${ms(overhead)} |`,
  );
}

await prepare();
const kernel = await Deno.readTextFile(join(LINUX, "kernel/sched/core.c"));
const c5000 = kernel.split("\n").slice(0, 5000).join("\n") + "\n";
const python5000 = Array.from(
  { length: 1000 },
  (_, i) => `def f${i}(x):\n    if x > ${i}:\n        return x * ${i}\n    return [x, ${i}]\n\n`,
).join("");
console.log(
  "| Syntax gate | median warm | tree-sitter parse alone | first call |\n| --- | --- | --- | --- |",
);
await syntaxRow("kernel/sched/core.c, first 5,000 lines", "core.c", c5000);
await syntaxRow("generated Python", "gen.py", python5000);

console.log(
  `\n| Compiler gate (${runs} runs, interleaved) | validateFile | compiler alone | overhead |\n` +
    "| --- | --- | --- | --- |",
);
const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "llm-gates-bench-" }));
try {
  for (const compiler of COMPILERS) await compilerRow(dir, compiler);
} finally {
  await Deno.remove(dir, { recursive: true });
}
