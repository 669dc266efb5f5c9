import assert from "node:assert/strict";
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
  toDot,
} from "./graph.ts";

// --- Plain reference implementations over the edge list ---------------------------------------

/** A random graph of up to `maxNodes` nodes, with self-loops and parallel edges. */
function randomGraph(next: () => number, maxNodes: number): { ids: string[]; edges: GraphEdge[] } {
  const n = 1 + Math.floor(next() * maxNodes);
  const ids = Array.from({ length: n }, (_, i) => `s${i}`);
  const m = Math.floor(next() * n * 2.5);
  const pick = () => ids[Math.floor(next() * n)];
  const edges = Array.from({ length: m }, () => ({ from: pick(), to: pick() }));
  return { ids, edges };
}

function adjacency(edges: GraphEdge[], reverse = false): Map<string, Set<string>> {
  const map = new Map<string, Set<string>>();
  for (const { from, to } of edges) {
    const [a, b] = reverse ? [to, from] : [from, to];
    map.set(a, (map.get(a) ?? new Set()).add(b));
  }
  return map;
}

/** Depth of every node reached from `start` (start at 0), by a plain queue over sets. */
function naiveDepths(adj: Map<string, Set<string>>, start: string, maxDepth = Infinity) {
  const depth = new Map([[start, 0]]);
  let frontier = [start];
  for (let d = 1; frontier.length > 0 && d <= maxDepth; d++) {
    const nextFrontier: string[] = [];
    for (const u of frontier) {
      for (const v of adj.get(u) ?? []) {
        if (!depth.has(v)) {
          depth.set(v, d);
          nextFrontier.push(v);
        }
      }
    }
    frontier = nextFrontier;
  }
  return depth;
}

/** Every simple path of at most `maxDepth` edges, by plain recursion. */
function naivePaths(adj: Map<string, Set<string>>, from: string, to: string, maxDepth: number) {
  const paths: string[][] = [];
  const visit = (path: string[]) => {
    const last = path[path.length - 1];
    if (last === to) return void paths.push(path);
    if (path.length > maxDepth) return;
    for (const v of adj.get(last) ?? []) if (!path.includes(v)) visit([...path, v]);
  };
  visit([from]);
  return paths;
}

/** PageRank by the textbook formula on maps, `iterations` rounds from uniform. */
function naivePageRank(
  ids: string[],
  edges: GraphEdge[],
  iterations: number,
  personalization?: Map<string, number>,
): Map<string, number> {
  const weight = new Map<string, Map<string, number>>();
  for (const { from, to } of edges) {
    const row = weight.get(from) ?? new Map<string, number>();
    weight.set(from, row.set(to, (row.get(to) ?? 0) + 1));
  }
  const total = [...(personalization?.values() ?? [])].reduce((a, b) => a + b, 0);
  const p = (id: string) => total > 0 ? (personalization?.get(id) ?? 0) / total : 1 / ids.length;
  let rank = new Map(ids.map((id) => [id, 1 / ids.length]));
  for (let i = 0; i < iterations; i++) {
    const next = new Map(ids.map((id) => [id, 0]));
    let dangling = 0;
    for (const u of ids) {
      const row = weight.get(u);
      if (!row) {
        dangling += rank.get(u)!;
        continue;
      }
      const out = [...row.values()].reduce((a, b) => a + b, 0);
      for (const [v, w] of row) next.set(v, next.get(v)! + 0.85 * rank.get(u)! * w / out);
    }
    for (const id of ids) next.set(id, next.get(id)! + (0.15 + 0.85 * dangling) * p(id));
    rank = next;
  }
  return rank;
}

const sorted = (ids: Iterable<string>) => [...ids].sort();

// --- Small hand-built graphs ------------------------------------------------------------------

Deno.test("build: parallel edges merge with summed weights, isolated nodes are kept", () => {
  const graph = buildGraph([
    { from: "a", to: "b" },
    { from: "a", to: "b", weight: 2 },
    { from: "b", to: "b" },
  ], ["z"]);
  assert.deepEqual(graph.ids, ["z", "a", "b"]);
  assert.equal(graph.edgeCount, 2);
  const { start, target, weight } = graph.rows("forward");
  assert.deepEqual([...target.subarray(start[1], start[2])], [2]);
  assert.deepEqual([...weight], [3, 1]);
  const reverse = graph.rows("reverse");
  assert.deepEqual([...reverse.target.subarray(reverse.start[2], reverse.start[3])], [1, 2]);
});

Deno.test("build: numbered ids are found by scanning, then by a map, first position first", () => {
  const ids = ["a", "b", "a", ...Array.from({ length: 50 }, (_, i) => `n${i}`)];
  const graph = graphFromIndexed(ids, Int32Array.of(0), Int32Array.of(1));
  const lookups = Array.from({ length: 20 }, () => [graph.indexOf("a"), graph.indexOf("n49")]);
  assert.deepEqual(lookups, Array(20).fill([0, 52]));
  assert.equal(graph.indexOf("zz"), -1);
});

Deno.test("build: numbered edges are checked", () => {
  assert.throws(() => graphFromIndexed(["a"], Int32Array.of(0), Int32Array.of(1)), RangeError);
  assert.throws(
    () => graphFromIndexed(["a"], Int32Array.of(0), Int32Array.of(0), Float64Array.of(0)),
    RangeError,
  );
  assert.throws(() => buildGraph([{ from: "a", to: "b", weight: NaN }]), RangeError);
});

Deno.test("reachable: depths, both directions, depth bound and unknown ids", () => {
  const graph = buildGraph([
    { from: "main", to: "parse" },
    { from: "parse", to: "lex" },
    { from: "main", to: "lex" },
    { from: "lex", to: "main" },
  ]);
  assert.deepEqual(reachable(graph, "main", { direction: "forward" }), {
    nodes: [{ id: "parse", depth: 1 }, { id: "lex", depth: 1 }],
    partial: false,
  });
  assert.deepEqual(reachable(graph, "lex", { direction: "reverse", maxDepth: 1 }), {
    nodes: [{ id: "main", depth: 1 }, { id: "parse", depth: 1 }],
    partial: false,
  });
  assert.deepEqual(reachable(graph, "parse", { direction: "forward", maxDepth: 1 }), {
    nodes: [{ id: "lex", depth: 1 }],
    partial: true,
  });
  assert.deepEqual(reachable(graph, "nowhere", { direction: "forward" }), {
    nodes: [],
    partial: false,
  });
});

Deno.test("cycles: components of two or more and self-loops only, in node order", () => {
  const graph = buildGraph([
    { from: "c", to: "b" },
    { from: "b", to: "c" },
    { from: "x", to: "y" },
    { from: "y", to: "z" },
    { from: "z", to: "x" },
    { from: "rec", to: "rec" },
    { from: "main", to: "x" },
  ]);
  assert.deepEqual(stronglyConnected(graph), [["x", "y", "z"], ["c", "b"], ["rec"]]);
});

Deno.test("cycles: a cycle 300,000 deep does not overflow the stack", () => {
  const n = 300_000;
  const ids = Array.from({ length: n }, (_, i) => String(i));
  const sources = Int32Array.from({ length: n }, (_, i) => i);
  const targets = Int32Array.from({ length: n }, (_, i) => (i + 1) % n);
  const components = stronglyConnected(graphFromIndexed(ids, sources, targets));
  assert.equal(components.length, 1);
  assert.equal(components[0].length, n);
});

Deno.test("paths: shortest first, bounds reported as partial", () => {
  const graph = buildGraph([
    { from: "a", to: "b" },
    { from: "b", to: "d" },
    { from: "a", to: "c" },
    { from: "c", to: "b" },
    { from: "a", to: "d" },
    { from: "d", to: "a" },
  ]);
  assert.deepEqual(boundedPaths(graph, "a", "d", { maxDepth: 5, maxPaths: 10 }), {
    paths: [["a", "d"], ["a", "b", "d"], ["a", "c", "b", "d"]],
    partial: false,
  });
  assert.deepEqual(boundedPaths(graph, "a", "d", { maxDepth: 2, maxPaths: 10 }), {
    paths: [["a", "d"], ["a", "b", "d"]],
    partial: true,
  });
  assert.deepEqual(boundedPaths(graph, "a", "d", { maxDepth: 5, maxPaths: 1 }), {
    paths: [["a", "d"]],
    partial: true,
  });
  assert.deepEqual(boundedPaths(graph, "c", "d", { maxDepth: 1, maxPaths: 5 }), {
    paths: [],
    partial: true,
  });
  assert.deepEqual(boundedPaths(graph, "a", "a", { maxDepth: 3, maxPaths: 5 }).paths, [["a"]]);
  assert.deepEqual(boundedPaths(graph, "a", "zz", { maxDepth: 3, maxPaths: 5 }).paths, []);
  assert.deepEqual(
    boundedPaths(graph, "a", "d", { maxDepth: Infinity, maxPaths: 9 }).paths.length,
    3,
  );
  assert.throws(() => boundedPaths(graph, "a", "d", { maxDepth: -1, maxPaths: 1 }), RangeError);
});

Deno.test("paths: the step budget stops a search that would explode", () => {
  // A ladder of 30 rungs has 2^30 paths from top to bottom.
  const edges: GraphEdge[] = [];
  for (let i = 0; i < 30; i++) {
    for (const a of [`l${i}`, `r${i}`]) {
      for (const b of [`l${i + 1}`, `r${i + 1}`]) edges.push({ from: a, to: b });
    }
  }
  const found = boundedPaths(buildGraph(edges), "l0", "l30", {
    maxDepth: 30,
    maxPaths: 1e9,
    maxSteps: 10_000,
  });
  assert.equal(found.partial, true);
  assert.ok(found.paths.length > 0 && found.paths.length < 10_000);
});

Deno.test("dead code: unreached symbols, edgeless ones included, entries live", () => {
  const graph = buildGraph([
    { from: "main", to: "parse" },
    { from: "old", to: "parse" },
    { from: "old", to: "older" },
  ]);
  assert.deepEqual(
    deadCode(graph, ["main", "lonely_entry"], [
      "main",
      "parse",
      "old",
      "older",
      "lonely_entry",
      "x",
    ]),
    ["old", "older", "x"],
  );
});

Deno.test("impact: callers by depth, files, score, and the depth bound", () => {
  const graph = buildGraph([
    { from: "parse", to: "lex" },
    { from: "main", to: "parse" },
    { from: "test", to: "parse" },
    { from: "run", to: "main" },
  ]);
  const files = new Map([["parse", "p.c"], ["main", "m.c"], ["test", "t.c"], ["run", "m.c"]]);
  const fileOf = (id: string) => files.get(id);
  assert.deepEqual(impact(graph, "lex", { fileOf }), {
    symbol_id: "lex",
    levels: [
      { depth: 1, symbol_ids: ["parse"] },
      { depth: 2, symbol_ids: ["main", "test"] },
      { depth: 3, symbol_ids: ["run"] },
    ],
    callers: 4,
    files: ["m.c", "p.c", "t.c"],
    score: 1 + 1 / 2 + 1 / 2 + 1 / 3,
    partial: false,
  });
  const near = impact(graph, "lex", { maxDepth: 1 });
  assert.deepEqual([near.callers, near.score, near.partial, near.files], [1, 1, true, []]);
  assert.deepEqual(impact(graph, "run").levels, []);
});

Deno.test("pageRank: dangling nodes keep the sum at 1, focus pulls rank to what it uses", () => {
  const graph = buildGraph([
    { from: "a", to: "log" },
    { from: "b", to: "log" },
    { from: "c", to: "util" },
  ]);
  const plain = pageRank(graph);
  assert.ok(plain.converged && !plain.personalized);
  assert.ok(Math.abs(plain.ranks.reduce((s, r) => s + r, 0) - 1) < 1e-12);
  const at = (ranks: Float64Array, id: string) => ranks[graph.indexOf(id)];
  assert.ok(at(plain.ranks, "log") > at(plain.ranks, "util"));
  const focused = pageRank(graph, { personalization: new Map([["c", 1], ["missing", 5]]) });
  assert.ok(focused.personalized);
  assert.ok(at(focused.ranks, "util") > at(focused.ranks, "log"));
  assert.equal(at(focused.ranks, "a"), 0);
  assert.equal(pageRank(graph, { personalization: new Map([["missing", 1]]) }).personalized, false);
  assert.throws(() => pageRank(graph, { damping: 1 }), RangeError);
  assert.throws(() => pageRank(graph, { personalization: new Map([["a", -1]]) }), RangeError);
  assert.deepEqual(pageRank(buildGraph([])).ranks, new Float64Array());
});

Deno.test("dot: ids and labels are quoted and escaped, weights shown", () => {
  const graph = buildGraph([{ from: 'a"b', to: "c\\d", weight: 2 }]);
  assert.equal(
    toDot(graph, (id) => id === 'a"b' ? "line1\nline2" : undefined),
    [
      "digraph symbols {",
      '  "a\\"b" [label="line1\\nline2"];',
      '  "c\\\\d";',
      '  "a\\"b" -> "c\\\\d" [weight=2];',
      "}",
      "",
    ].join("\n"),
  );
});

// --- Properties on random graphs --------------------------------------------------------------

const RUNS = 300;

Deno.test("property: reachable matches a plain breadth-first search", () => {
  const next = seededRandom(14);
  for (let run = 0; run < RUNS; run++) {
    const { ids, edges } = randomGraph(next, 25);
    const graph = buildGraph(edges, ids);
    const direction = next() < 0.5 ? "forward" : "reverse";
    const maxDepth = next() < 0.5 ? undefined : Math.floor(next() * 4);
    const start = ids[Math.floor(next() * ids.length)];
    const expected = naiveDepths(adjacency(edges, direction === "reverse"), start, maxDepth);
    expected.delete(start);
    const got = reachable(graph, start, { direction, maxDepth });
    assert.deepEqual(new Map(got.nodes.map((n) => [n.id, n.depth])), expected);
    const deeper = naiveDepths(
      adjacency(edges, direction === "reverse"),
      start,
      (maxDepth ?? 99) + 1,
    );
    deeper.delete(start);
    assert.equal(got.partial, deeper.size > expected.size, `run ${run}`);
  }
});

Deno.test("property: stronglyConnected matches mutual reachability", () => {
  const next = seededRandom(15);
  for (let run = 0; run < RUNS; run++) {
    const { ids, edges } = randomGraph(next, 25);
    const forward = adjacency(edges);
    const reach = new Map(ids.map((id) => [id, naiveDepths(forward, id)]));
    const expected = new Set<string>();
    for (const u of ids) {
      const members = ids.filter((v) => reach.get(u)!.has(v) && reach.get(v)!.has(u));
      if (members.length > 1 || forward.get(u)?.has(u)) expected.add(sorted(members).join(","));
    }
    const got = stronglyConnected(buildGraph(edges, ids)).map((c) => sorted(c).join(","));
    assert.deepEqual(sorted(got), sorted(expected), `run ${run}`);
  }
});

Deno.test("property: boundedPaths gives valid simple paths, all of them when not partial", () => {
  const next = seededRandom(16);
  for (let run = 0; run < RUNS; run++) {
    const { ids, edges } = randomGraph(next, 10);
    const forward = adjacency(edges);
    const [from, to] = [0, 1].map(() => ids[Math.floor(next() * ids.length)]);
    const maxDepth = Math.floor(next() * 6);
    const maxPaths = 1 + Math.floor(next() * 20);
    const found = boundedPaths(buildGraph(edges, ids), from, to, { maxDepth, maxPaths });
    const all = naivePaths(forward, from, to, maxDepth).map((p) => p.join(" "));
    const lengths = found.paths.map((p) => p.length);
    assert.deepEqual(lengths, [...lengths].sort((a, b) => a - b), "shortest first");
    for (const path of found.paths) {
      assert.equal(new Set(path).size, path.length, "simple");
      assert.ok(path.every((u, i) => i === 0 || forward.get(path[i - 1])?.has(u)), "valid");
      assert.ok(all.includes(path.join(" ")), "within the bound");
    }
    assert.equal(new Set(found.paths.map((p) => p.join(" "))).size, found.paths.length, "distinct");
    const longer = naivePaths(forward, from, to, Infinity).length > all.length;
    if (all.length > maxPaths || longer) assert.ok(found.partial, `run ${run}: partial`);
    if (!found.partial) assert.equal(found.paths.length, all.length, `run ${run}: all`);
    const shortestAll = all.map((p) => p.split(" ").length).sort((a, b) => a - b);
    assert.deepEqual(lengths, shortestAll.slice(0, lengths.length), `run ${run}: shortest kept`);
  }
});

Deno.test("property: deadCode and impact match plain searches", () => {
  const next = seededRandom(17);
  for (let run = 0; run < RUNS; run++) {
    const { ids, edges } = randomGraph(next, 25);
    const graph = buildGraph(edges);
    const entries = ids.filter(() => next() < 0.15);
    const live = new Set(entries.flatMap((e) => [...naiveDepths(adjacency(edges), e).keys()]));
    assert.deepEqual(deadCode(graph, entries, ids), ids.filter((id) => !live.has(id)));
    const target = ids[Math.floor(next() * ids.length)];
    const callers = naiveDepths(adjacency(edges, true), target);
    callers.delete(target);
    const got = impact(graph, target);
    const byDepth = new Map(got.levels.flatMap((l) => l.symbol_ids.map((id) => [id, l.depth])));
    assert.deepEqual(byDepth, callers);
    assert.equal(got.callers, callers.size);
    const score = [...callers.values()].reduce((s, d) => s + 1 / d, 0);
    assert.ok(Math.abs(got.score - score) < 1e-9);
  }
});

Deno.test("property: pageRank sums to 1 and matches a plain power iteration", () => {
  const next = seededRandom(18);
  for (let run = 0; run < RUNS; run++) {
    const { ids, edges } = randomGraph(next, 25);
    const focus = next() < 0.5
      ? undefined
      : new Map(ids.filter(() => next() < 0.2).map((id) => [id, 1 + next()] as const));
    const graph = buildGraph(edges, ids);
    const got = pageRank(graph, { personalization: focus, maxIterations: 30, tolerance: 0 });
    const expected = naivePageRank(ids, edges, 30, focus);
    assert.ok(Math.abs(got.ranks.reduce((s, r) => s + r, 0) - 1) < 1e-9, `run ${run}: sum`);
    for (const id of ids) {
      assert.ok(Math.abs(got.ranks[graph.indexOf(id)] - expected.get(id)!) < 1e-12, `run ${run}`);
    }
  }
});
