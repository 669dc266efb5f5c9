/**
 * llm-refactor renaming a Linux 6.1 function used in about 50 files, with the C compiler gate
 * on every touched file, against the compiler's own time on the same files, in the same run.
 * The files that define, declare or use the function (found by a word search) are copied to a
 * scratch root, indexed once, and restored before every run (outside the timing). The rename
 * is applied (index refresh of the files involved, syntax and gcc gates, journal, fsyncs); then
 * the peer rows run `gcc -fsyntax-only` on each renamed file as the gate runs it (same flags,
 * standard input, `-iquote` and working directory its folder), from one shell: one file after
 * the other (the compiler's own time, which the target is measured against) and as many at a
 * time as the gate checks (for comparison). The target: the rename takes at most 2 s more than
 * the compiler's own time; the line says ✓ or ✗. Note: the gate has no kernel include paths, so
 * gcc stops at the first `#include <linux/…>`; a file whose syntax errors are as many as the
 * gate lists has its old bytes through the syntax gate too (to tell new errors from old ones).
 * Run: `deno run -A bench/refactor_bench.ts [--runs N]`.
 *
 * @module
 */
import { dirname, join } from "node:path";
import { LINUX, prepare } from "./prepare.ts";
import { CONFIG, median, ms, REPO, runOnce, runsOption, type Sample, wall } from "./measure.ts";

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

/** Files the compiler gate checks at a time (as `tools/refactor/gate.ts` sets it). */
const LANES = Math.min(8, Math.max(2, navigator.hardwareConcurrency ?? 1));

/** A shell function running gcc as the gate runs it on file `$1` (absolute). */
const GCC_CHECK =
  'check() { d="${1%/*}"; cd "$d" && case "$1" in *.h) x=c-header;; *) x=c;; esac; ' +
  'gcc -fsyntax-only -fdiagnostics-format=json -x "$x" -iquote "$d" - < "$1" > /dev/null 2>&1; }';

/**
 * One shell running gcc as the gate runs it on each file's bytes now (`-fsyntax-only`, JSON
 * diagnostics, standard input, `-iquote` and working directory its folder), one file after the
 * other (the compiler's own time), or `lanes` files at a time through `xargs -P`.
 */
function gccRun(root: string, files: string[], lanes: number): [string, string[]] {
  const paths = files.map((file) => join(root, file));
  const script = lanes === 1
    ? `${GCC_CHECK}; for f in "$@"; do check "$f"; done; true`
    : `${GCC_CHECK}; export -f check; printf '%s\\0' "$@" | ` +
      `xargs -0 -P ${lanes} -n 1 bash -c 'check "$1"' check; true`;
  return ["bash", ["-c", script, "bash", ...paths]];
}

/** The rename's samples and the compiler's, run by run. */
interface Samples {
  ours: Sample[];
  syntaxOnly: Sample[];
  gcc: Sample[];
  gccLanes: Sample[];
}

/** Runs the rename (both gate selections) and gcc on the renamed files, `runs` times. */
async function measure(root: string, files: string[], runs: number) {
  const permissions = [`--allow-read=${root}`, `--allow-write=${root}`, "--allow-run=gcc"];
  const rename = deno(ENTRY, [
    "rename",
    NAME,
    "--kind",
    "function",
    "--to",
    NEW_NAME,
  ], permissions);
  const samples: Samples = { ours: [], syntaxOnly: [], gcc: [], gccLanes: [] };
  let touched: string[] = [];
  for (let i = 0; i <= runs; i++) {
    await restore(root, files);
    const sample = await runOnce(...rename, root);
    if (sample.code !== 0) {
      const output = new TextDecoder().decode(sample.stdout).slice(0, 400);
      throw new Error(`llm-refactor exited ${sample.code}: ${output}`);
    }
    touched = JSON.parse(new TextDecoder().decode(sample.stdout)).result.files.map((
      file: { file_path: string },
    ) => file.file_path);
    const gcc = await runOnce(...gccRun(root, touched, 1), root);
    const gccLanes = await runOnce(...gccRun(root, touched, LANES), root);
    await restore(root, files);
    const syntax = await runOnce(rename[0], [...rename[1], "--gates", "syntax"], root);
    if (i === 0) continue; // warm-up
    samples.ours.push(sample);
    samples.syntaxOnly.push(syntax);
    samples.gcc.push(gcc);
    samples.gccLanes.push(gccLanes);
  }
  return { samples, touched };
}

function cpu(samples: Sample[]): number {
  return median(samples.map((sample) => sample.cpuMs ?? Number.NaN));
}

function row(label: string, samples: Sample[]): string {
  return `| ${label} | ${ms(wall(samples))} | ${ms(cpu(samples))} |`;
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
    const { samples, touched } = await measure(root, files, runs);
    const floor = await runOnce(...deno(ENTRY, ["--version"], []), root);
    const beyond = wall(samples.ours) - wall(samples.gcc);
    const beyondLanes = wall(samples.ours) - wall(samples.gccLanes);
    console.log(
      `llm-refactor rename of ${NAME} (${touched.length} files touched, ${files.length} copied), ` +
        `median of ${runs} interleaved runs; the gate checks ${LANES} files at a time:`,
    );
    console.log("| case | wall | CPU (user + sys, all processes) |");
    console.log("| --- | --- | --- |");
    console.log(row("floor: `llm-refactor --version`", [floor]));
    console.log(row("rename, syntax gate only", samples.syntaxOnly));
    console.log(row("rename, syntax + gcc gate", samples.ours));
    console.log(
      row("gcc on each touched file, one after the other (the compiler's time)", samples.gcc),
    );
    console.log(
      row(`gcc on each touched file, ${LANES} at a time (\`xargs -P\`)`, samples.gccLanes),
    );
    console.log(
      `| rename beyond the compiler's time: target ≤ 2000 ms | ${ms(beyond)} ${
        beyond <= 2000 ? "✓" : "✗"
      } | ${ms(cpu(samples.ours) - cpu(samples.gcc))} |`,
    );
    console.log(
      `| rename beyond gcc ${LANES} at a time (for comparison) | ${ms(beyondLanes)} | |`,
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

if (import.meta.main) await main();
