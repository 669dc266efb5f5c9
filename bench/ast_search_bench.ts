/**
 * llm-ast-search against ast-grep and universal-ctags on the same files, in the same run:
 * medians of interleaved runs (so a busy machine slows every tool alike), ratios, peak RSS,
 * and how many definitions each found.
 *
 * - Linux 6.1 `kernel/` (502 C files): `--kind function` vs `ast-grep run -l c -p
 *   '$T $F($$$) { $$$ }'` (target ≤ 1.0×) and `ctags -R`.
 * - This repository: queries including Deno's start (target ≤ 300 ms).
 *
 * ast-grep comes from npm (`@ast-grep/cli`, installed into `bench/.cache/ast-grep/`, not into
 * deno.json); ctags from Debian's universal-ctags. Run: `deno run -A bench/ast_search_bench.ts
 * [--runs N]`.
 *
 * @module
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { LINUX, prepare } from "./prepare.ts";
import { denoRun, describe, interleaved, ms, REPO, runsOption, wall } from "./measure.ts";

const AST_GREP_DIR = join(REPO, "bench", ".cache", "ast-grep");
const AST_GREP_VERSION = "0.51.1";
const AST_GREP = join(AST_GREP_DIR, "node_modules", ".bin", "ast-grep");

/** Installs `@ast-grep/cli` with npm into `bench/.cache/ast-grep/` once. */
async function ensureAstGrep(): Promise<string> {
  if (existsSync(AST_GREP)) return AST_GREP;
  Deno.mkdirSync(AST_GREP_DIR, { recursive: true });
  Deno.writeTextFileSync(join(AST_GREP_DIR, "package.json"), '{ "private": true }\n');
  const status = await new Deno.Command("npm", {
    args: ["install", "--no-audit", "--no-fund", `@ast-grep/cli@${AST_GREP_VERSION}`],
    cwd: AST_GREP_DIR,
    stdout: "inherit",
    stderr: "inherit",
  }).spawn().status;
  if (!status.success || !existsSync(AST_GREP)) throw new Error("npm install @ast-grep/cli failed");
  return AST_GREP;
}

/** A command to time. */
interface Tool {
  /** Label in the report. */
  name: string;
  /** Executable. */
  command: string;
  /** Its arguments. */
  args: string[];
  /** Counts what it found in its stdout. */
  count: (stdout: Uint8Array) => number;
}

const decoder = new TextDecoder();

/** Matches in our JSONL output. */
function countOurs(stdout: Uint8Array): number {
  return decoder.decode(stdout).split("\n").filter((line) => line.startsWith('{"type":"match"'))
    .length;
}

/** Lines of output (ast-grep's `--json=stream`, ctags' tags). */
function countLines(stdout: Uint8Array): number {
  return decoder.decode(stdout).split("\n").filter((line) => line && !line.startsWith("!_")).length;
}

/** Function definitions among ctags' tags (kind `f`). */
function countCtagsFunctions(stdout: Uint8Array): number {
  return decoder.decode(stdout).split("\n").filter((line) => /\tf(\t|$)/.test(line)).length;
}

function ours(args: string[]): Tool {
  const [command, full] = denoRun("tools/ast-search/main.ts", [
    ...args,
    "--format",
    "jsonl",
    "--limit",
    "0",
  ]);
  return { name: "llm-ast-search", command, args: full, count: countOurs };
}

/** ast-grep running `pattern` over `path` as `language`, one JSON match per line. */
function astGrep(command: string, language: string, pattern: string, path: string): Tool {
  return {
    name: "ast-grep",
    command,
    args: ["run", "-l", language, "-p", pattern, "--json=stream", path],
    count: countLines,
  };
}

/** Times `tools` on `cwd` and prints a table row per tool, with the first row's time ÷ its. */
async function table(label: string, cwd: string, tools: Tool[], runs: number): Promise<number[]> {
  console.log(`\n## ${label}\n`);
  console.log(`| tool and arguments | median wall | first row ÷ this | found |`);
  console.log("| --- | --- | --- | --- |");
  const samples = await interleaved(tools.map((tool) => [tool.command, tool.args]), cwd, runs);
  for (const [i, tool] of tools.entries()) {
    const failed = samples[i].find((sample) => sample.code !== 0);
    if (failed) throw new Error(`${tool.name} exited with ${failed.code}`);
  }
  const medians = samples.map(wall);
  for (const [i, tool] of tools.entries()) {
    const shown = tool.args.filter((arg) => !arg.startsWith("--config") && arg !== "--quiet");
    console.log(
      `| ${tool.name} \`${shown.slice(tool.command === "deno" ? 3 : 0).join(" ")}\` | ` +
        `${describe(samples[i])} | ${(medians[0] / medians[i]).toFixed(2)}× | ` +
        `${tool.count(samples[i][0].stdout)} |`,
    );
  }
  return medians;
}

if (import.meta.main) {
  const runs = runsOption(5);
  await prepare();
  const astGrepPath = await ensureAstGrep();

  const kernel = await table("Linux 6.1 kernel/ (502 C files)", LINUX, [
    ours(["--kind", "function", "kernel"]),
    astGrep(astGrepPath, "c", "$T $F($$$) { $$$ }", "kernel"),
    {
      name: "ctags",
      command: "ctags",
      args: ["-R", "--languages=C", "--kinds-C=f", "-f", "-", "kernel"],
      count: countCtagsFunctions,
    },
  ], runs);
  const kernelRatio = kernel[0] / kernel[1];
  console.log(
    `\nkernel/: llm-ast-search / ast-grep = ${kernelRatio.toFixed(2)}× (target ≤ 1.0×), ` +
      `/ ctags = ${(kernel[0] / kernel[2]).toFixed(2)}×`,
  );

  const repo = await table("this repository (Deno start included)", REPO, [
    ours(["(class_declaration name: (_) @name) @class", "-l", "ts"]),
    astGrep(astGrepPath, "ts", "class $C { $$$ }", "."),
    ours(["--kind", "function", "--name", "^astSearch$"]),
    ours(["--kind", "function"]),
  ], runs);
  console.log(
    `\nthis repository: a query over all TypeScript ${ms(repo[0])} ` +
      `(${(repo[0] / repo[1]).toFixed(2)}× ast-grep), --kind function --name ${ms(repo[2])}, ` +
      `every function ${ms(repo[3])} (target ≤ 300 ms)`,
  );
}
