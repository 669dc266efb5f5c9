/**
 * The graph algorithms of `llm-symbols` (`core/graph.ts`) and its repository map
 * (`tools/symbols/map.ts`) at the Linux tree's scale: a generated call graph of 1,000,000
 * symbols and 4,000,000 uses, with the skew of real code (most calls go to a few popular
 * functions, the rest stay near their caller). Medians of in-process wall and CPU times (CPU
 * time is the steadier figure on a shared machine) and the size of the graph's arrays; no peer
 * computes these in the same way, so the figures stand alone. Run: `deno run -A bench/symbols_graph_bench.ts [--runs N] [--nodes N] [--edges N]`.
 *
 * @module
 */
import process from "node:process";
import { parseArgs } from "node:util";
import { seededRandom } from "../tests/helpers.ts";
import {
  boundedPaths,
  buildGraph,
  deadCode,
  type GraphEdge,
  graphFromIndexed,
  impact,
  pageRank,
  reachable,
  stronglyConnected,
  type SymbolGraph,
} from "../core/graph.ts";
import { type MapEntry, renderRepoMap } from "../tools/symbols/map.ts";
import { median, ms, runsOption } from "./measure.ts";

/** A generated call graph: ids and numbered edges. */
interface Generated {
  ids: string[];
  sources: Int32Array;
  targets: Int32Array;
}

/**
 * `nodes` symbols with 16-hex ids and `edges` uses: a third of the callees are drawn from a
 * power law over the nodes (a few hubs like `printk` or `kfree`), the rest lie within a few
 * thousand numbers of the caller (calls within a file or a subsystem).
 */
function generate(nodes: number, edges: number): Generated {
  const next = seededRandom(2026);
  const ids = Array.from(
    { length: nodes },
    (_, i) =>
      (i * 2654435761 >>> 0).toString(16).padStart(8, "0") + i.toString(16).padStart(8, "0"),
  );
  const sources = new Int32Array(edges);
  const targets = new Int32Array(edges);
  for (let e = 0; e < edges; e++) {
    const from = Math.floor(next() * nodes);
    sources[e] = from;
    targets[e] = next() < 1 / 3
      ? Math.floor(nodes * next() ** 4)
      : (from + Math.floor((next() - 0.5) * 4000) + nodes) % nodes;
  }
  return { ids, sources, targets };
}

/** What a timed step took: medians over the runs. */
interface Took {
  /** Wall milliseconds. */
  wall: number;
  /** CPU milliseconds (user and system) of the process: less disturbed by a busy machine. */
  cpu: number;
}

/** Medians of `runs` calls of `task`, and its last result. */
function time<T>(runs: number, task: () => T): Took & { result: T } {
  const walls: number[] = [];
  const cpus: number[] = [];
  let result: T | undefined;
  for (let run = 0; run < runs; run++) {
    const cpu = process.cpuUsage();
    const start = performance.now();
    result = task();
    walls.push(performance.now() - start);
    const used = process.cpuUsage(cpu);
    cpus.push((used.user + used.system) / 1000);
  }
  return { wall: median(walls), cpu: median(cpus), result: result as T };
}

/** The node with the most callers (the hub of the power law). */
function hub(graph: SymbolGraph): string {
  const { start } = graph.rows("reverse");
  let best = 0;
  for (let v = 1; v < graph.size; v++) {
    if (start[v + 1] - start[v] > start[best + 1] - start[best]) best = v;
  }
  return graph.ids[best];
}

function main(): void {
  const { values } = parseArgs({
    args: Deno.args,
    options: { nodes: { type: "string" }, edges: { type: "string" } },
    strict: false,
  });
  const nodes = Number(values.nodes ?? 1_000_000);
  const edges = Number(values.edges ?? 4_000_000);
  const runs = runsOption(3);
  const generated = generate(nodes, edges);
  const rows: [string, Took, string][] = [];
  const row = (name: string, took: Took, note = "") => {
    rows.push([name, took, note]);
    console.error(`${name}: ${ms(took.wall)} (CPU ${ms(took.cpu)}) ${note}`);
  };

  const indexed = time(
    runs,
    () => graphFromIndexed(generated.ids, generated.sources, generated.targets),
  );
  const graph = indexed.result;
  row("build from numbered edges", indexed, `${graph.size} nodes, ${graph.edgeCount} edges`);
  const edgeList: GraphEdge[] = Array.from({ length: edges }, (_, e) => ({
    from: generated.ids[generated.sources[e]],
    to: generated.ids[generated.targets[e]],
  }));
  row("build from id edges", time(runs, () => buildGraph(edgeList, generated.ids)));
  edgeList.length = 0;
  const arraysMb = (["forward", "reverse"] as const)
    .map((direction) => graph.rows(direction))
    .reduce(
      (sum, rows) => sum + rows.start.byteLength + rows.target.byteLength + rows.weight.byteLength,
      0,
    ) / 2 ** 20;

  const top = hub(graph);
  const start = graph.ids[nodes >> 1];
  const forward = time(runs, () => reachable(graph, start, { direction: "forward" }));
  row("reachable forward, unbounded", forward, `${forward.result.nodes.length} reached`);
  const reverse = time(runs, () => reachable(graph, top, { direction: "reverse" }));
  row("reachable reverse from the hub", reverse, `${reverse.result.nodes.length} reached`);
  const near = time(runs, () => reachable(graph, start, { direction: "forward", maxDepth: 3 }));
  row("reachable forward, depth 3", near, `${near.result.nodes.length} reached`);
  const cycles = time(runs, () => stronglyConnected(graph));
  const largest = cycles.result[0]?.length ?? 0;
  row("strongly connected", cycles, `${cycles.result.length} cycles, largest ${largest}`);
  const ranks = time(runs, () => pageRank(graph));
  row("pageRank", ranks, `${ranks.result.iterations} iterations`);
  const focus = new Map(graph.ids.slice(0, 50).map((id) => [id, 1]));
  const focused = time(runs, () => pageRank(graph, { personalization: focus }));
  row("pageRank, 50 focus symbols", focused, `${focused.result.iterations} iterations`);
  const blast = time(runs, () => impact(graph, start, { maxDepth: 5 }));
  row("impact, depth 5", blast, `${blast.result.callers} callers`);
  const target = near.result.nodes.at(-1)?.id ?? top;
  const paths = time(
    runs,
    () => boundedPaths(graph, start, target, { maxDepth: 6, maxPaths: 100 }),
  );
  row("paths, depth 6, 100 paths", paths, `${paths.result.paths.length} paths`);
  const entries = graph.ids.slice(0, 1000);
  const dead = time(runs, () => deadCode(graph, entries, graph.ids));
  row("dead code from 1,000 entries", dead, `${dead.result.length} dead`);

  const mapEntries: MapEntry[] = graph.ids.map((id, n) => ({
    symbol_id: id,
    path: `dir${n % 997}/file${n % 30011}.c`,
    name: `fn_${id}`,
    kind: "function",
    line: 1 + (n % 5000),
    signature: `static int fn_${id}(struct device *dev, unsigned long flags)`,
    rank: ranks.result.ranks[n],
  }));
  const map = time(runs, () => renderRepoMap(mapEntries, { tokens: 2000 }));
  row("repository map, 2,000 tokens", map, `${map.result.shown} symbols shown`);

  console.log(`\n## llm-symbols graph: ${nodes} nodes, ${edges} edges (median of ${runs})`);
  console.log(`The graph's typed arrays (both directions): ${arraysMb.toFixed(0)} MB.\n`);
  console.log("| step | wall | CPU | result |");
  console.log("| --- | --- | --- | --- |");
  for (const [name, took, note] of rows) {
    console.log(`| ${name} | ${ms(took.wall)} | ${ms(took.cpu)} | ${note} |`);
  }
}

main();
