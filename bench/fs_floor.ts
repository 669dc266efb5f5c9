/**
 * The floors Deno sets under the tools on a whole tree: what their file-system calls cost with
 * nothing else done, under the same permission flags.
 *
 * - `--mode list`: every folder listed with `readDirSync` and each file's path built (hidden
 *   entries skipped, no ignore rules, no order, no scoring): an unindexed discover at its
 *   cheapest.
 * - `--mode read`: that listing, then `--threads` workers (default: one per core) open and read
 *   every file, each its share in one message (no matching, no binary check, no results): an
 *   unindexed search at its cheapest. (Feeding workers batch by batch while listing, or reading
 *   a share on the listing thread, measured slower on two cores.)
 * - `--mode stat --list FILE`: the workers stat every file named in FILE (one path a line,
 *   relative to the working directory): the freshness check of an indexed search at its cheapest.
 *
 * The benches run it beside the tools and their peers, so a table shows how much of a tool's
 * time Deno charges whatever the tool does.
 *
 * Run: `deno run --allow-read bench/fs_floor.ts --mode list|read|stat [--threads N] [--list F]`
 * in the root.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { threadCount } from "../core/workers.ts";
import type { FloorRequest } from "./fs_floor_worker.ts";

/**
 * Every file under `root` that is not hidden, by path: the tools skip hidden entries by default,
 * `.git` and the repository index's `.llm` among them (a 444 MB index read by the floor and
 * not by the search would make the floor meaningless).
 */
function listFiles(root: string): string[] {
  const files: string[] = [];
  const folders = [root];
  for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
    for (const entry of Deno.readDirSync(folder)) {
      if (entry.name.startsWith(".")) continue;
      const path = `${folder}/${entry.name}`;
      if (entry.isFile) files.push(path);
      else if (entry.isDirectory) folders.push(path);
    }
  }
  return files;
}

/** Has `threads` workers do `op` on a share of `paths` each; resolves to their answers' sum. */
async function onWorkers(op: FloorRequest["op"], paths: string[], threads: number) {
  const answers = Array.from({ length: threads }, (_, share) => {
    const worker = new Worker(new URL("./fs_floor_worker.ts", import.meta.url), { type: "module" });
    const { promise, resolve } = Promise.withResolvers<number>();
    worker.onmessage = (event: MessageEvent<number>) => {
      worker.terminate();
      resolve(event.data);
    };
    const request: FloorRequest = { op, paths: paths.filter((_, at) => at % threads === share) };
    worker.postMessage(request);
    return promise;
  });
  let sum = 0;
  for (const answer of answers) sum += await answer;
  return sum;
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      mode: { type: "string" },
      threads: { type: "string" },
      list: { type: "string" },
    },
  });
  const root = Deno.cwd();
  const threads = threadCount(values.threads === undefined ? undefined : Number(values.threads));
  if (values.mode === "list") console.log(JSON.stringify({ files: listFiles(root).length }));
  else if (values.mode === "read") {
    console.log(JSON.stringify({ bytes: await onWorkers("read", listFiles(root), threads) }));
  } else if (values.mode === "stat" && values.list) {
    const paths = Deno.readTextFileSync(values.list).split("\n").filter(Boolean)
      .map((path) => `${root}/${path}`);
    console.log(JSON.stringify({ bytes: await onWorkers("stat", paths, threads) }));
  } else {
    console.error("usage: fs_floor.ts --mode list|read|stat [--threads N] [--list FILE]");
    Deno.exit(2);
  }
}
