/**
 * llm-refactor renaming a Linux 6.1 function used in about 50 files, with the C compiler gate
 * on every touched file, against the compiler's own time on the same files, in the same run.
 * The files that define, declare or use the function (from the tree's symbol index, or found
 * by a word search when there is none) are copied to a scratch root, indexed once, and
 * restored before every run (outside the timing). The rename is applied (gates, journal, fsync,
 * index refresh of the touched files); the peer row is `gcc -fsyntax-only` run once on each
 * renamed file as the gate runs it (standard input, `-iquote` its folder). The target: the
 * rename takes at most 2 s more than that compiler time. Note: the gate has no kernel include
 * paths, so gcc stops at the first `#include <linux/…>` in both its runs (new bytes, and old
 * bytes to tell new errors from old ones), and the tool runs it twice per file.
 * Run: `deno run -A bench/refactor_bench.ts [--runs N]`.
 *
 * @module
 */
import { dirname, join } from "node:path";
import { LINUX, prepare } from "./prepare.ts";
import { CONFIG, median, ms, REPO, runOnce, runsOption } from "./measure.ts";

const ENTRY = join(REPO, "tools/refactor/main.ts");
const SYMBOLS = join(REPO, "tools/symbols/main.ts");
const NAME = "device_property_read_u32_array";
const NEW_NAME = "device_property_read_u32_values";

/** Files of the tree that hold the name as a word (`rg -lw`), C sources and headers. */
async function filesWithName(): Promise<string[]> {
  const output = await new Deno.Command("rg", {
    args: ["-lw", "--type", "c", NAME],
    cwd: LINUX,
    stdout: "piped",
  }).output();
  return new TextDecoder().decode(output.stdout).split("\n").filter((line) => line !== "")
    .filter((path) => !path.startsWith("tools/")).sort();
}

async function restore(root: string, files: string[]): Promise<void> {
  for (const file of files) {
    await Deno.mkdir(dirname(join(root, file)), { recursive: true });
    await Deno.copyFile(join(LINUX, file), join(root, file));
  }
}

function deno(entry: string, args: string[], permissions: string[]): [string, string[]] {
  return ["deno", ["run", "--quiet", `--config=${CONFIG}`, ...permissions, entry, ...args]];
}

/** gcc as the gate runs it on each file's bytes now: `-fsyntax-only`, standard input. */
async function gccTime(root: string, files: string[]): Promise<number> {
  const started = performance.now();
  for (const file of files) {
    const child = new Deno.Command("gcc", {
      args: [
        "-fsyntax-only",
        "-fdiagnostics-format=json",
        "-x",
        file.endsWith(".h") ? "c-header" : "c",
        "-iquote",
        dirname(join(root, file)),
        "-",
      ],
      cwd: dirname(join(root, file)),
      stdin: "piped",
      stdout: "null",
      stderr: "null",
    }).spawn();
    const writer = child.stdin.getWriter();
    try {
      await writer.write(await Deno.readFile(join(root, file)));
      await writer.close();
    } catch (error) {
      // gcc stops reading at a fatal error (a missing kernel header), as it does in the gate.
      if (!(error instanceof Deno.errors.BrokenPipe)) throw error;
    }
    await child.status;
  }
  return performance.now() - started;
}

async function main(): Promise<void> {
  await prepare();
  const runs = runsOption(3);
  const files = await filesWithName();
  const root = await Deno.makeTempDir({ prefix: "llm-refactor-bench-" });
  try {
    await restore(root, files);
    const index = await runOnce(...deno(SYMBOLS, ["index"], ["-A"]), root);
    if (index.code !== 0) throw new Error(`llm-symbols index exited ${index.code}`);
    const permissions = [`--allow-read=${root}`, `--allow-write=${root}`, "--allow-run=gcc"];
    const rename = deno(ENTRY, [
      "rename",
      NAME,
      "--kind",
      "function",
      "--to",
      NEW_NAME,
    ], permissions);
    const ours: number[] = [];
    const oursCpu: number[] = [];
    const syntaxCpu: number[] = [];
    const syntaxOnly: number[] = [];
    const compiler: number[] = [];
    let touched: string[] = [];
    for (let i = 0; i <= runs; i++) {
      await restore(root, files);
      const sample = await runOnce(...rename, root);
      if (sample.code !== 0) {
        throw new Error(
          `llm-refactor exited ${sample.code}: ${
            new TextDecoder().decode(sample.stdout).slice(0, 400)
          }`,
        );
      }
      touched = JSON.parse(new TextDecoder().decode(sample.stdout)).result.files.map((
        file: { file_path: string },
      ) => file.file_path);
      const gcc = await gccTime(root, touched);
      await restore(root, files);
      const syntax = await runOnce(rename[0], [...rename[1], "--gates", "syntax"], root);
      if (i === 0) continue; // warm-up
      ours.push(sample.ms);
      oursCpu.push(sample.cpuMs ?? Number.NaN);
      syntaxCpu.push(syntax.cpuMs ?? Number.NaN);
      compiler.push(gcc);
      syntaxOnly.push(syntax.ms);
    }
    const floor = await runOnce(...deno(ENTRY, ["--version"], []), root);
    const beyond = median(ours) - median(compiler);
    console.log(
      `llm-refactor rename of ${NAME} (${touched.length} files touched, ${files.length} copied), median of ${runs}:`,
    );
    console.log("| case | wall | CPU (user + sys, all processes) |");
    console.log("| --- | --- | --- |");
    console.log(
      `| floor: \`llm-refactor --version\` | ${ms(floor.ms)} | ${ms(floor.cpuMs ?? NaN)} |`,
    );
    console.log(
      `| rename, syntax gate only | ${ms(median(syntaxOnly))} | ${ms(median(syntaxCpu))} |`,
    );
    console.log(`| rename, syntax + gcc gate | ${ms(median(ours))} | ${ms(median(oursCpu))} |`);
    console.log(
      `| gcc -fsyntax-only once per touched file (the compiler's own time) | ${
        ms(median(compiler))
      } |`,
    );
    console.log(
      `| rename beyond the compiler's time (target ≤ 2000 ms) | ${ms(beyond)} ${
        beyond <= 2000 ? "(met)" : "(missed)"
      } |`,
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

if (import.meta.main) await main();
