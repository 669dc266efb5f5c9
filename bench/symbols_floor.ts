/**
 * The floor under `llm-symbols index`: its files (the same walk) read and sent to as many
 * workers as it starts (one per core), each file parsed only (`--mode parse`), or extracted as
 * an index worker does, rows posted back, with no hashing and no SQLite (`--mode extract`).
 * `symbols_bench.ts` runs both beside a cold `index` of Linux `kernel/`, so the table shows
 * what the parse costs, what extraction adds and what the index adds.
 *
 * Run: `deno run -A bench/symbols_floor.ts --mode parse|extract` in the root to walk.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { walkCandidates } from "../core/symbol_index/candidates.ts";
import { threadCount } from "../core/workers.ts";
import type { FloorTask } from "./symbols_floor_worker.ts";

/** Files in flight per worker, as in the indexer. */
const IN_FLIGHT_PER_WORKER = 2;

/** Sends every walked file of `root` to `workers` workers in `mode`; resolves when all answered. */
async function floor(root: string, mode: FloorTask["mode"], workers: number): Promise<number> {
  const candidates = walkCandidates({ root }, ".llm/bench.db", []);
  const pool = Array.from(
    { length: workers },
    () => new Worker(new URL("./symbols_floor_worker.ts", import.meta.url), { type: "module" }),
  );
  const waiting = new Map<number, () => void>();
  for (const worker of pool) {
    worker.onmessage = (event: MessageEvent<{ id: number }>) => {
      waiting.get(event.data.id)?.();
      waiting.delete(event.data.id);
    };
  }
  const running = new Set<Promise<void>>();
  for (const [id, candidate] of candidates.entries()) {
    const bytes = await Deno.readFile(candidate.absPath);
    const task: FloorTask = { id, path: candidate.path, language: candidate.language, bytes, mode };
    const done = new Promise<void>((resolve) => waiting.set(id, resolve));
    pool[id % workers].postMessage(task, [bytes.buffer]);
    running.add(done);
    done.then(() => running.delete(done));
    if (running.size >= workers * IN_FLIGHT_PER_WORKER) await Promise.race(running);
  }
  await Promise.all(running);
  pool.forEach((worker) => worker.terminate());
  return candidates.length;
}

if (import.meta.main) {
  const { values } = parseArgs({ args: Deno.args, options: { mode: { type: "string" } } });
  const mode = values.mode === "extract" ? "extract" : "parse";
  const files = await floor(Deno.cwd(), mode, threadCount(undefined));
  console.log(`${mode}: ${files} files`);
}
