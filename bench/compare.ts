/**
 * `deno task bench:compare REV`: the cases of the search, discover, ast-search and transform
 * benches run by this checkout and by the commit `REV` (checked out in a temporary worktree),
 * interleaved round by round so a busy machine weighs on both alike; prints the median wall and
 * CPU time of each and their ratio, and flags a case more than 5 % slower than at `REV` (the
 * bench rule of the trust and reshaping issues).
 *
 * Run: `deno run -A bench/compare.ts REV [--runs N] [--only search,transform] [--checkout DIR]`
 * (`--checkout` reuses a checkout of `REV` with its packages installed instead of making one).
 *
 * @module
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { LINUX, prepare } from "./prepare.ts";
import { type Command, interleaved, median, REPO, type Sample } from "./measure.ts";

/** A case: its bench, a label, and its command line for a checkout at `repo`. */
interface Case {
  bench: "search" | "discover" | "ast-search" | "transform";
  label: string;
  command: (repo: string) => Command;
}

/** The slowdown past which a case is flagged. */
const TOLERANCE = 1.05;
const BIG = "drivers/gpu/drm/amd/include/asic_reg/nbio/nbio_7_7_0_sh_mask.h";

function deno(repo: string, permissions: string[], entry: string, args: string[]): Command {
  return [
    "deno",
    [
      "run",
      "--quiet",
      `--config=${join(repo, "deno.json")}`,
      ...permissions,
      join(repo, entry),
      ...args,
    ],
  ];
}

/** An edit of a scratch copy, restored from its original before each run (both sides pay it). */
function restoredEdit(scratch: string, file: string, command: Command): Command {
  const quoted = [command[0], ...command[1]].map((word) => `'${word.replaceAll("'", "'\\''")}'`);
  return ["sh", ["-c", `cp '${scratch}/${file}.orig' '${scratch}/${file}' && ${quoted.join(" ")}`]];
}

/**
 * The cases; `scratchOf(repo)` is the scratch tree of the checkout at `repo`. Each side edits its
 * own scratch tree: a mutating run leaves its journal and log records under `.llm/`, which the
 * next runs of the same side read, so sharing one tree would make each side pay for the other's
 * state (a finished journal of an older layout is read as a possibly interrupted one).
 */
function cases(scratchOf: (repo: string) => string): Case[] {
  const search = (args: string[]): Case => ({
    bench: "search",
    label: `llm-search ${args.join(" ")}`,
    command: (repo) =>
      deno(repo, ["--allow-read"], "tools/search/main.ts", [
        ...args,
        "--format",
        "jsonl",
        "--limit",
        "0",
      ]),
  });
  const discover = (query: string): Case => ({
    bench: "discover",
    label: `llm-discover '${query}'`,
    command: (repo) => deno(repo, [`--allow-read=${LINUX}`], "tools/discover/main.ts", [query]),
  });
  const transform = (label: string, file: string, args: string[]): Case => ({
    bench: "transform",
    label,
    command: (repo) => {
      const scratch = scratchOf(repo);
      return restoredEdit(
        scratch,
        file,
        deno(
          repo,
          [`--allow-read=${scratch}`, `--allow-write=${scratch}`],
          "tools/transform/main.ts",
          ["--root", scratch, "--file", file, ...args],
        ),
      );
    },
  });
  return [
    search(["PM_RESUME"]),
    search(["[A-Z]+_SUSPEND"]),
    search(["-i", "pm_resume"]),
    search(["-F", "spin_lock_irqsave("]),
    search(["[A-Z]{4}[0-9]{3}"]),
    discover("schedcore"),
    discover("sched core"),
    discover("^drivers .c$ !test usbserial"),
    discover("kconfig"),
    {
      bench: "ast-search",
      label: "llm-ast-search --kind function kernel",
      command: (repo) =>
        deno(repo, ["--allow-read"], "tools/ast-search/main.ts", [
          "--kind",
          "function",
          "kernel",
          "--format",
          "jsonl",
          "--limit",
          "0",
        ]),
    },
    transform("llm-transform: one replacement in kernel/fork.c", "kernel/fork.c", [
      "--old",
      "struct task_struct *copy_process(",
      "--new",
      "struct task_struct *copy_proc(",
    ]),
    transform("llm-transform: 1,603 replacements in a 16.7 MB header", BIG, [
      "--old",
      "DEVICE_CNTL2",
      "--new",
      "DEVICE_CTL_2",
      "--all",
    ]),
  ];
}

async function git(args: string[], cwd = REPO): Promise<string> {
  const output = await new Deno.Command("git", { args, cwd, stderr: "inherit" }).output();
  if (!output.success) throw new Error(`git ${args.join(" ")} failed`);
  return new TextDecoder().decode(output.stdout).trim();
}

/** A worktree of `rev` with its npm packages installed. */
async function checkout(rev: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "bench-compare-" });
  await git(["worktree", "add", "--detach", dir, rev]);
  const install = await new Deno.Command("deno", { args: ["install"], cwd: dir }).output();
  if (!install.success) throw new Error(`deno install failed in the worktree of ${rev}`);
  return dir;
}

async function scratchTree(): Promise<string> {
  const scratch = await Deno.makeTempDir({ prefix: "bench-compare-edits-" });
  for (const file of ["kernel/fork.c", BIG]) {
    await Deno.mkdir(join(scratch, file, ".."), { recursive: true });
    await Deno.copyFile(join(LINUX, file), join(scratch, `${file}.orig`));
  }
  return scratch;
}

const cpu = (samples: Sample[]) => median(samples.map((sample) => sample.cpuMs ?? NaN));
const wallOf = (samples: Sample[]) => median(samples.map((sample) => sample.ms));

function row(label: string, base: Sample[], head: Sample[]): [string, boolean] {
  const wallRatio = wallOf(head) / wallOf(base);
  const cpuRatio = cpu(head) / cpu(base);
  const slower = wallRatio > TOLERANCE && cpuRatio > TOLERANCE;
  const cells = [
    label,
    wallOf(base).toFixed(0),
    wallOf(head).toFixed(0),
    `${wallRatio.toFixed(2)}×`,
    cpu(base).toFixed(0),
    cpu(head).toFixed(0),
    `${cpuRatio.toFixed(2)}×${slower ? " SLOWER" : ""}`,
  ];
  return [`| ${cells.join(" | ")} |`, slower];
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    args: Deno.args,
    options: {
      runs: { type: "string", default: "5" },
      only: { type: "string" },
      checkout: { type: "string" },
    },
    allowPositionals: true,
  });
  const rev = positionals[0];
  if (!rev) throw new Error("usage: bench/compare.ts REV [--runs N] [--only search,transform]");
  const runs = Number(values.runs);
  const only = values.only?.split(",");
  await prepare();
  const base = values.checkout ?? await checkout(rev);
  const scratches = new Map([[base, await scratchTree()], [REPO, await scratchTree()]]);
  const scratchOf = (repo: string) => scratches.get(repo)!;
  let slower = 0;
  try {
    console.log(`${await git(["rev-parse", "--short", rev])} vs this checkout, medians of ${runs}`);
    console.log(
      `| case | ${rev} wall ms | now wall ms | ratio | ${rev} CPU ms | now CPU ms | ratio |`,
    );
    console.log("| --- | --- | --- | --- | --- | --- | --- |");
    for (const item of cases(scratchOf).filter((c) => !only || only.includes(c.bench))) {
      const [before, after] = await interleaved(
        [item.command(base), item.command(REPO)],
        LINUX,
        runs,
      );
      const failed = [...before, ...after].find((sample) => sample.code > 1);
      if (failed) throw new Error(`${item.label} exited ${failed.code}`);
      const [line, flagged] = row(item.label, before, after);
      console.log(line);
      if (flagged) slower++;
    }
  } finally {
    for (const scratch of scratches.values()) await Deno.remove(scratch, { recursive: true });
    if (!values.checkout) await git(["worktree", "remove", "--force", base]);
  }
  console.log(
    `\n${slower} case(s) more than ${
      Math.round((TOLERANCE - 1) * 100)
    } % slower in wall and CPU time`,
  );
  if (slower) Deno.exitCode = 1;
}

if (import.meta.main) await main();
