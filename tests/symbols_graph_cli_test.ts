/**
 * The code-graph subcommands of `llm-symbols` end to end: a fixture repository in C, Python
 * and TypeScript made in a temporary folder, indexed through the real CLI
 * (`--allow-read --allow-write=<root>/.llm`), then `cycles`, `dead-code`, `reachable`, `paths`,
 * `impact`, `export` and `map` as real subprocesses with `--allow-read` only.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeTree, parseJson, runEntry, type RunResult } from "./helpers.ts";

const ENTRY = "tools/symbols/main.ts";

const FIXTURE: Record<string, string> = {
  "c/util.h": "int helper(int x);\nint even(int n);\n",
  "c/util.c": '#include "util.h"\n' +
    "int helper(int x) { return x + 1; }\n" +
    "static int unused(int x) { return helper(x); }\n" +
    "int odd(int n) { return n == 0 ? 0 : even(n - 1); }\n" +
    "int even(int n) { return n == 0 ? 1 : odd(n - 1); }\n" +
    "int fact(int n) { return n ? n * fact(n - 1) : 1; }\n",
  "c/main.c": '#include "util.h"\n' +
    "static int run(void) { return helper(2) + even(3); }\n" +
    "int main(void) { return run(); }\n",
  "py/util.py": "def log(msg):\n    print(msg)\n\n\ndef parse(text):\n    log(text)\n" +
    "    return text\n\n\ndef _helper():\n    log('h')\n",
  "py/app.py": "from util import log, parse\n\n\ndef start():\n    log(parse('x'))\n\n\n" +
    "def _unused_private():\n    return log('never')\n\n\ndef ping(n):\n    return pong(n - 1)\n\n\n" +
    "def pong(n):\n    return ping(n)\n\n\nstart()\n",
  "py/a.py": "def load():\n    return 1\n",
  "py/b.py": "def load():\n    return 2\n",
  "ts/lib.ts": "export function api(): number {\n  return inner();\n}\n" +
    "function inner(): number {\n  return 1;\n}\nfunction orphan(): number {\n  return inner();\n}\n",
};

type Json = Record<string, unknown>;
type Span = { file_path: string; start_line: number };
type Ref = { name: string; symbol_id: string; span: Span };
type Record_ = { qualified_name: string; symbol_id: string; span: Span; depth?: number };

function query(root: string, args: string[]): Promise<RunResult> {
  return runEntry(ENTRY, args, { cwd: root, permissions: ["--allow-read"] });
}

async function queryJson(root: string, args: string[]): Promise<Json> {
  const result = await query(root, args);
  assert.equal(result.code, 0, result.stdout + result.stderr);
  return parseJson(result);
}

function dataOf<T = Json>(envelope: Json): T {
  return envelope.data as T;
}

function at(record: { span: Span }): string {
  return `${record.span.file_path}:${record.span.start_line}`;
}

function errorOf(result: RunResult): { code: string; message: string; note: string } {
  const envelope = parseJson(result) as {
    error?: { code: string; message: string; note: string };
    diagnostics?: { code: string; message: string; note: string }[];
  };
  return envelope.error ?? envelope.diagnostics!.find((d) => d.code)!;
}

async function indexedFixture(): Promise<string> {
  const root = await makeTree(FIXTURE);
  const result = await runEntry(ENTRY, ["index"], {
    cwd: root,
    permissions: ["--allow-read", `--allow-write=${join(root, ".llm")}`],
  });
  assert.equal(result.code, 0, result.stdout + result.stderr);
  return root;
}

/** Node ids declared and edges of a DOT text, checking it is well formed on the way. */
function parseDot(text: string): { nodes: Set<string>; edges: [string, string][] } {
  const lines = text.trimEnd().split("\n");
  assert.match(lines[0], /^digraph \w+ \{$/);
  assert.equal(lines.at(-1), "}");
  const opened = [...text].filter((c) => c === "{").length;
  assert.equal(opened, [...text].filter((c) => c === "}").length, "braces balance");
  const nodes = new Set<string>();
  const edges: [string, string][] = [];
  const quoted = String.raw`"((?:[^"\\]|\\.)*)"`;
  for (const line of lines.slice(1, -1)) {
    const edge = line.match(new RegExp(`^  ${quoted} -> ${quoted}( \\[weight=\\d+\\])?;$`));
    const node = line.match(new RegExp(`^  ${quoted}( \\[label=${quoted}\\])?;$`));
    if (edge) edges.push([edge[1], edge[2]]);
    else if (node) nodes.add(node[1]);
    else assert.fail(`not a DOT node or edge line: ${line}`);
  }
  return { nodes, edges };
}

Deno.test("symbols graph: cycles, dead code, reachable, paths, impact, export, map", async (t) => {
  const root = await indexedFixture();
  try {
    await t.step("cycles: mutual recursion in C and Python, direct recursion", async () => {
      const cycles = dataOf<{ results: { size: number; symbols: Ref[] }[] }>(
        await queryJson(root, ["cycles"]),
      ).results.map((cycle) => cycle.symbols.map((s) => s.name).sort().join(","));
      assert.deepEqual(cycles.sort(), ["even,odd", "fact", "ping,pong"]);
      const scoped = await queryJson(root, ["cycles", "py"]);
      assert.equal(dataOf<{ total: number }>(scoped).total, 1);
    });

    await t.step("dead-code: default entries (main, exported/public, top-level uses)", async () => {
      const dead = dataOf<{ results: Record_[]; entry_rule: string }>(
        await queryJson(root, ["dead-code"]),
      );
      assert.equal(dead.entry_rule, "default");
      assert.deepEqual(dead.results.map((r) => `${at(r)} ${r.qualified_name}`), [
        "c/util.c:3 unused",
        "py/app.py:8 _unused_private",
        "py/util.py:10 _helper",
        "ts/lib.ts:7 orphan",
      ]);
    });

    await t.step("dead-code: given entries replace the default ones", async () => {
      const dead = dataOf<{ results: Record_[]; entries: number }>(
        await queryJson(root, ["dead-code", "--entry", "main", "c"]),
      );
      assert.equal(dead.entries, 1);
      assert.deepEqual(dead.results.map((r) => r.qualified_name), ["unused", "fact"]);
    });

    await t.step("reachable: forward with depths, reverse, depth bound is partial", async () => {
      const forward = dataOf<{ results: Record_[] }>(await queryJson(root, ["reachable", "main"]));
      assert.deepEqual(forward.results.map((r) => `${r.depth} ${r.qualified_name}`).sort(), [
        "1 run",
        "2 even",
        "2 helper",
        "3 odd",
      ]);
      const reverse = await queryJson(root, [
        "reachable",
        "helper",
        "--direction",
        "reverse",
        "--depth",
        "1",
      ]);
      assert.deepEqual(
        dataOf<{ results: Record_[] }>(reverse).results.map((r) => r.qualified_name).sort(),
        ["run", "unused"],
      );
      assert.equal(reverse.partial, true);
    });

    await t.step("reachable at depth 1 is the resolved callees (the same resolution)", async () => {
      const names = ["main", "run", "odd", "even", "fact", "unused", "start", "ping", "api"];
      for (const name of names) {
        const callees = dataOf<{ results: { resolution: string; target?: Ref }[] }>(
          await queryJson(root, ["callees", name, "-n", "0"]),
        ).results.filter((use) => use.resolution === "resolved").map((use) =>
          use.target!.symbol_id
        );
        const reachable = dataOf<{ results: Record_[]; symbol: Ref }>(
          await queryJson(root, ["reachable", name, "--depth", "1", "-n", "0"]),
        );
        const reached = reachable.results.map((r) => r.symbol_id);
        const self = reachable.symbol.symbol_id;
        const expected = new Set(callees.filter((id) => id !== self));
        assert.deepEqual(new Set(reached), expected, name);
      }
    });

    await t.step("paths: found within the bound, partial when the bound cuts", async () => {
      const paths = await queryJson(root, ["paths", "--from", "main", "--to", "odd"]);
      const listed = dataOf<{ results: { length: number; symbols: Ref[] }[] }>(paths).results;
      assert.deepEqual(listed.map((p) => p.symbols.map((s) => s.name).join(">")), [
        "main>run>even>odd",
      ]);
      assert.equal(listed[0].length, 3);
      assert.ok(!paths.partial);
      const cut = await queryJson(root, ["paths", "--from", "main", "--to", "odd", "-d", "2"]);
      assert.equal(dataOf<{ count: number }>(cut).count, 0);
      assert.equal(cut.partial, true);
    });

    await t.step("impact: callers by depth, files, score Σ 1/depth", async () => {
      const impact = dataOf<
        { total: number; levels: Json[]; files: string[]; score: number; results: Record_[] }
      >(await queryJson(root, ["impact", "helper"]));
      assert.equal(impact.total, 3);
      assert.deepEqual(impact.levels, [{ depth: 1, callers: 2 }, { depth: 2, callers: 1 }]);
      assert.deepEqual(impact.files, ["c/main.c", "c/util.c"]);
      assert.equal(impact.score, 2.5);
      const direct = await queryJson(root, ["impact", "helper", "--depth", "1"]);
      assert.equal(dataOf<{ score: number }>(direct).score, 2);
      assert.equal(direct.partial, true);
    });

    await t.step("symbol arguments: ambiguous refused with candidates, id accepted", async () => {
      const ambiguous = await query(root, ["impact", "load"]);
      assert.equal(ambiguous.code, 2, ambiguous.stdout);
      const error = errorOf(ambiguous);
      assert.equal(error.code, "MAG-REF-003");
      const ids = [...error.note.matchAll(/\b([0-9a-f]{16})\b/g)].map((m) => m[1]);
      assert.equal(ids.length, 2);
      assert.match(error.note, /py\/a\.py:1/);
      const byId = await queryJson(root, ["impact", ids[0]]);
      assert.equal(dataOf<{ symbol: Ref }>(byId).symbol.symbol_id, ids[0]);
      const unknown = await query(root, ["reachable", "helpr"]);
      assert.equal(unknown.code, 2);
      const missing = errorOf(unknown);
      assert.equal(missing.code, "MAG-REF-001");
      assert.match(missing.message, /'helper'/);
    });

    await t.step("export: DOT is well formed and declares every edge's nodes", async () => {
      const dot = await query(root, ["export", "dot", "--format", "text"]);
      assert.equal(dot.code, 0, dot.stderr);
      const { nodes, edges } = parseDot(dot.stdout);
      assert.ok(edges.length >= 8, `${edges.length} edges`);
      for (const [from, to] of edges) assert.ok(nodes.has(from) && nodes.has(to));
      const json = dataOf<{ nodes: { symbol_id: string }[]; results: Json[]; total: number }>(
        await queryJson(root, ["export"]),
      );
      assert.equal(json.results.length, edges.length);
      assert.deepEqual(new Set(json.nodes.map((n) => n.symbol_id)), nodes);
      const jsonl = await query(root, ["export", "jsonl", "c", "--format", "text"]);
      const lines = jsonl.stdout.trim().split("\n").map((line) => JSON.parse(line));
      assert.ok(lines.every((line) => line.type === "node" || line.type === "edge"));
      assert.ok(lines.some((line) => line.type === "edge"));
      const cut = await queryJson(root, ["export", "-n", "2"]);
      assert.equal(cut.partial, true);
    });

    await t.step("map: never over budget, bigger budgets show more, focus re-ranks", async () => {
      let shown = 0;
      for (const tokens of [0, 5, 12, 30, 60, 2000]) {
        const map = dataOf<{ text: string; tokens: number; budget: number; shown: number }>(
          await queryJson(root, ["map", "--tokens", String(tokens)]),
        );
        assert.ok(map.tokens <= tokens && Math.ceil(map.text.length / 4) <= tokens, map.text);
        assert.ok(map.shown >= shown);
        shown = map.shown;
      }
      const plain = dataOf<{ files: { path: string }[] }>(await queryJson(root, ["map"]));
      const focused = dataOf<{ files: { path: string }[]; personalized: boolean }>(
        await queryJson(root, ["map", "ts/lib.ts"]),
      );
      assert.notEqual(plain.files[0].path, "ts/lib.ts");
      assert.equal(focused.files[0].path, "ts/lib.ts");
      assert.equal(focused.personalized, true);
      const text = await query(root, ["map", "--tokens", "60", "--format", "text"]);
      assert.ok(text.stdout.length <= 240 && /^\S+:\n *\d+│/.test(text.stdout), text.stdout);
    });

    await t.step("--help of every graph subcommand", async () => {
      for (const subcommand of ["reachable", "dead-code", "cycles", "paths", "impact", "export"]) {
        const help = await query(root, [subcommand, "--help"]);
        assert.equal(help.code, 0, help.stderr);
        assert.match(help.stdout, new RegExp(`llm-symbols ${subcommand}`));
      }
    });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
