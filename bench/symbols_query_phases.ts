/**
 * Where the time of one `llm-symbols find|refs|callers` run goes, measured inside the process (run
 * by `symbols_bench.ts` with the README's `--allow-read`, in the indexed tree): the time until the
 * first module runs (Deno's start and the reading of the module graph), the evaluation of the
 * command line's modules, opening the index (SQLite and its checks), the query, and printing the
 * envelope. Prints the envelope on stdout, as the command does, then one JSON object of
 * milliseconds on stderr.
 *
 * Run: `deno run --allow-read bench/symbols_query_phases.ts SUBCOMMAND NAME [DB]`.
 *
 * @module
 */
import { FIRST_MODULE_MS } from "./symbols_phase_start.ts";
import "../tools/symbols/main.ts";
import { QUERY_CODE } from "../tools/symbols/commands.ts";
import { SYMBOLS_DEFAULTS } from "../tools/symbols/defaults.ts";
import { IndexStore, locateDb } from "../core/symbol_index/store.ts";

/** The phases of one run, in milliseconds. */
export interface QueryPhases {
  /** From the process's time origin to the first module running. */
  start: number;
  /** Evaluating the command line's modules. */
  modules: number;
  /** Opening the index read-only (header, SQLite, tables) and closing it. */
  open: number;
  /** The query, its own open of the index included. */
  query: number;
  /** Serialising and writing the envelope. */
  print: number;
}

const SUBCOMMANDS = { find: QUERY_CODE.find, refs: QUERY_CODE.refs, callers: QUERY_CODE.callers };

if (import.meta.main) {
  const modulesDone = performance.now();
  const [subcommand, name, db] = Deno.args as [keyof typeof SUBCOMMANDS, string, string?];
  const cwd = Deno.cwd();
  const opened = performance.now();
  IndexStore.open(locateDb(cwd, db, false), "read").close();
  const queried = performance.now();
  const context = { executionId: crypto.randomUUID(), cwd };
  const base = { name, db, limit: SYMBOLS_DEFAULTS.limit, kind: [], paths: [] };
  const { envelope } = subcommand === "find"
    ? await SUBCOMMANDS.find.run({ ...base, match: "exact" }, context)
    : await SUBCOMMANDS[subcommand].run({ ...base, depth: 1 }, context);
  const printing = performance.now();
  const bytes = new TextEncoder().encode(JSON.stringify(envelope) + "\n");
  for (let written = 0; written < bytes.length;) {
    written += Deno.stdout.writeSync(bytes.subarray(written));
  }
  const printed = performance.now();
  const phases: QueryPhases = {
    start: FIRST_MODULE_MS,
    modules: modulesDone - FIRST_MODULE_MS,
    open: queried - opened,
    query: printing - queried,
    print: printed - printing,
  };
  console.error(JSON.stringify(phases));
}
