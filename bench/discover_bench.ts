/**
 * llm-discover against `fdfind -t f . | fzf --filter QUERY` on the same trees, in the same run:
 * medians, ratios, peak RSS, and whether both put the same path first. Floor rows show where
 * the time goes: Deno's start with the tool's modules (a discover of an empty folder), Deno's
 * listing of every folder with nothing else done (`fs_floor.ts`), and fd's walk alone.
 * Run: `deno run -A bench/discover_bench.ts [--runs N]` (default 11).
 *
 * @module
 */
import { LINUX, prepare } from "./prepare.ts";
import { type Command, denoRun, describe, interleaved, REPO, runsOption, wall } from "./measure.ts";

interface Case {
  /** The query, given to both tools as is (fzf's extended syntax is the default in both). */
  query: string;
  /** Target ratio to the peer, when there is one. */
  target?: number;
}

/** `llm-discover` walking the folders: a repository index there is left unused. */
function ours(args: string[], root: string): Command {
  return denoRun("tools/discover/main.ts", ["--no-index", ...args], `--allow-read=${root}`);
}

function peer(query: string): Command {
  const quoted = `'${query.replaceAll("'", `'\\''`)}'`;
  return ["sh", ["-c", `fdfind -t f . | fzf --filter ${quoted}`]];
}

function firstOfOurs(stdout: Uint8Array): string | undefined {
  const envelope = JSON.parse(new TextDecoder().decode(stdout));
  return envelope.data.results[0]?.path;
}

function firstOfPeer(stdout: Uint8Array): string | undefined {
  return new TextDecoder().decode(stdout).split("\n")[0] || undefined;
}

/** Runs every case on the tree at `root`; returns whether every target held. */
async function benchTree(
  label: string,
  root: string,
  runs: number,
  cases: Case[],
  absoluteTarget?: number,
): Promise<boolean> {
  console.log(`\n## ${label} (${root})`);
  console.log("| query | llm-discover | fd \\| fzf --filter | ratio | target | first result |");
  console.log("| --- | --- | --- | --- | --- | --- |");
  let held = true;
  for (const { query, target } of cases) {
    const [mine, theirs] = await interleaved([ours([query], root), peer(query)], root, runs);
    const ratio = wall(mine) / wall(theirs);
    const first = [firstOfOurs(mine[0].stdout), firstOfPeer(theirs[0].stdout)];
    const same = first[0] === first[1] ? `same: ${first[0]}` : `${first[0]} vs ${first[1]}`;
    const absolute = absoluteTarget === undefined || wall(mine) <= absoluteTarget;
    const ok = (target === undefined || ratio <= target) && absolute;
    held &&= ok;
    const goal = [
      target === undefined ? "" : `≤ ${target}×`,
      absoluteTarget === undefined ? "" : `≤ ${absoluteTarget} ms`,
    ].filter(Boolean).join(", ");
    console.log(
      `| \`${query}\` | ${describe(mine)} | ${describe(theirs)} | ${ratio.toFixed(2)}× | ` +
        `${goal || "—"}${ok ? "" : " MISSED"} | ${same} |`,
    );
  }
  const empty = Deno.makeTempDirSync();
  const [start] = await interleaved([ours(["schedcore"], empty)], empty, runs);
  Deno.removeSync(empty);
  const [list, walk] = await interleaved(
    [
      denoRun("bench/fs_floor.ts", ["--mode", "list"], `--allow-read=${root}`),
      ["fdfind", ["-t", "f", "."]],
    ],
    root,
    runs,
  );
  console.log(
    `| floor: \`llm-discover\` in an empty folder (Deno start + modules) | ${
      describe(start)
    } | | | | |`,
  );
  console.log(
    `| floor: Deno listing every folder, nothing else (\`fs_floor.ts --mode list\`) | ${
      describe(list)
    } | | | | |`,
  );
  console.log(`| floor: \`fdfind -t f .\` alone | | ${describe(walk)} | | | |`);
  return held;
}

if (import.meta.main) {
  // Each run takes a fraction of a second, and this machine's speed drifts by a fifth from one
  // minute to the next: more runs steady the medians.
  const runs = runsOption(11);
  await prepare();
  const small = await benchTree("this repository", REPO, runs, [{ query: "walker" }], 100);
  const linux = await benchTree("Linux 6.1", LINUX, runs, [
    { query: "schedcore", target: 1.0 },
    { query: "sched core" },
    { query: "^drivers .c$ !test usbserial" },
    { query: "kconfig" },
  ]);
  console.log(`\ntargets ${small && linux ? "held" : "MISSED"}`);
  if (!(small && linux)) Deno.exitCode = 1;
}
