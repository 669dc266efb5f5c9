/**
 * llm-transform against `sed -i` (and, for a preview, `sed | diff -u`) on the same files, in the
 * same run: median wall time and the ratio to sed. Every run starts from fresh copies of the files (restored outside the timing).
 * The comparison is not like for like, and the table says so: llm-transform verifies
 * checksums, writes a journal with backups, fsyncs every file it writes and reports each edit's
 * spans; sed does none of that. A floor row gives Deno's start with the tool's modules.
 * Run: `deno run -A bench/transform_bench.ts [--runs N]`.
 *
 * @module
 */
import { dirname, join } from "node:path";
import { LINUX, prepare } from "./prepare.ts";
import { CONFIG, median, ms, REPO, runOnce, runsOption } from "./measure.ts";

const ENTRY = join(REPO, "tools/transform/main.ts");

interface Case {
  label: string;
  /** Files (relative to the Linux tree) copied into a scratch root before every run. */
  files: string[];
  /** Arguments of llm-transform, run in the scratch root. */
  ours: (root: string) => Promise<string[]>;
  /** The peer's command line, run in the scratch root. */
  peer: string[];
  /** Exit code both must end with (1: a preview with changes pending). */
  exit?: number;
}

const BIG = "drivers/gpu/drm/amd/include/asic_reg/nbio/nbio_7_7_0_sh_mask.h";

async function kernelFiles(count: number): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(join(LINUX, "kernel"))) {
    if (entry.isFile && entry.name.endsWith(".c")) found.push(`kernel/${entry.name}`);
  }
  return found.sort().slice(0, count);
}

async function reset(root: string, files: string[]): Promise<void> {
  await Deno.remove(join(root, ".llm"), { recursive: true }).catch(() => {});
  for (const file of files) {
    await Deno.mkdir(dirname(join(root, file)), { recursive: true });
    await Deno.copyFile(join(LINUX, file), join(root, file));
  }
}

async function timed(
  command: string,
  args: string[],
  root: string,
  files: string[],
  runs: number,
  exit = 0,
): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i <= runs; i++) {
    await reset(root, files);
    const sample = await runOnce(command, args, root);
    if (sample.code !== exit) {
      throw new Error(`${command} ${args.slice(0, 6).join(" ")} … exited ${sample.code}`);
    }
    if (i > 0) times.push(sample.ms); // the first run warms the caches
  }
  return median(times);
}

function deno(args: string[], root: string): string[] {
  return [
    "run",
    "--quiet",
    `--config=${CONFIG}`,
    `--allow-read=${root}`,
    `--allow-write=${root}`,
    ENTRY,
    ...args,
  ];
}

async function main(): Promise<void> {
  const runs = runsOption(5);
  await prepare();
  const many = await kernelFiles(60);
  const cases: Case[] = [
    {
      label: "one unique replacement, kernel/fork.c (str_replace)",
      files: ["kernel/fork.c"],
      ours: () =>
        Promise.resolve([
          "--file",
          "kernel/fork.c",
          "--old",
          "struct task_struct *copy_process(",
          "--new",
          "struct task_struct *copy_proc(",
        ]),
      peer: [
        "sed",
        "-i",
        "s/struct task_struct \\*copy_process(/struct task_struct *copy_proc(/",
        "kernel/fork.c",
      ],
    },
    {
      label: "1,603 replacements, 16.7 MB file (--all)",
      files: [BIG],
      ours: () =>
        Promise.resolve(["--file", BIG, "--old", "DEVICE_CNTL2", "--new", "DEVICE_CTL_2", "--all"]),
      peer: ["sed", "-i", "s/DEVICE_CNTL2/DEVICE_CTL_2/g", BIG],
    },
    {
      label: "preview of the 1,603 replacements (--dry-run; peer: sed piped to diff -u)",
      files: [BIG],
      ours: () =>
        Promise.resolve([
          "--file",
          BIG,
          "--old",
          "DEVICE_CNTL2",
          "--new",
          "DEVICE_CTL_2",
          "--all",
          "--dry-run",
        ]),
      peer: ["sh", "-c", `sed 's/DEVICE_CNTL2/DEVICE_CTL_2/g' ${BIG} | diff -u ${BIG} -`],
      exit: 1,
    },
    {
      label: `a plan of ${many.length} files, one insertion each`,
      files: many,
      ours: async (root) => {
        const plan = {
          edits: many.map((file) => ({
            file_path: file,
            byte_start: 0,
            byte_end: 0,
            new_text: "/* x */\n",
          })),
        };
        await Deno.writeTextFile(join(root, "plan.json"), JSON.stringify(plan));
        return ["--plan", "plan.json"];
      },
      peer: ["sed", "-i", "1i /* x */", ...many],
    },
  ];
  const scratch = await Deno.makeTempDir({ prefix: "transform-bench-" });
  const root = join(scratch, "root");
  await Deno.mkdir(root);
  try {
    const floor = await timed("deno", deno(["--version"], root), root, [], runs);
    console.log(`| case | llm-transform | sed | ratio |`);
    console.log(`|---|---|---|---|`);
    console.log(`| floor: \`llm-transform --version\` (Deno start + modules) | ${ms(floor)} | | |`);
    for (const item of cases) {
      const args = deno(await item.ours(root), root);
      const ours = await timed("deno", args, root, item.files, runs, item.exit);
      const peer = await timed(item.peer[0], item.peer.slice(1), root, item.files, runs, item.exit);
      console.log(`| ${item.label} | ${ms(ours)} | ${ms(peer)} | ${(ours / peer).toFixed(1)}× |`);
    }
  } finally {
    await Deno.remove(scratch, { recursive: true });
  }
}

if (import.meta.main) await main();
