/**
 * No import cycles among the package's own modules: `deno info --json` of `mod.ts` and of
 * every entrypoint in `deno.json`'s `exports` gives the module graph (value and type-only
 * imports alike, since a type-only cycle still ties two layers together), and a depth-first
 * search reports the first cycle as a path of modules.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { makeTree, REPO } from "./helpers.ts";

/** Local module → the local modules it imports. */
type ModuleGraph = Map<string, Set<string>>;

interface InfoDependency {
  code?: { specifier?: string };
  type?: { specifier?: string };
}

interface InfoModule {
  specifier: string;
  dependencies?: InfoDependency[];
}

/** The graph of the local (`file:`) modules reachable from `entries`, as `deno info` sees it. */
async function localGraph(cwd: string, entries: readonly string[]): Promise<ModuleGraph> {
  const graph: ModuleGraph = new Map();
  for (const entry of entries) {
    const output = await new Deno.Command("deno", {
      args: ["info", "--json", entry],
      cwd,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
    const info = JSON.parse(new TextDecoder().decode(output.stdout)) as { modules: InfoModule[] };
    for (const module of info.modules) {
      if (!module.specifier.startsWith("file:")) continue;
      const targets = graph.get(module.specifier) ?? new Set<string>();
      graph.set(module.specifier, targets);
      for (const dependency of module.dependencies ?? []) {
        for (const target of [dependency.code?.specifier, dependency.type?.specifier]) {
          if (target?.startsWith("file:")) targets.add(target);
        }
      }
    }
  }
  return graph;
}

/** Every cycle found by a depth-first search, each as the path that closes it. */
function findCycles(graph: ModuleGraph): string[][] {
  const state = new Map<string, "open" | "done">();
  const cycles: string[][] = [];
  const visit = (start: string) => {
    const path: string[] = [];
    const stack: { node: string; next: Iterator<string> }[] = [];
    const enter = (node: string) => {
      state.set(node, "open");
      path.push(node);
      stack.push({ node, next: (graph.get(node) ?? new Set<string>()).values() });
    };
    enter(start);
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      const step = top.next.next();
      if (step.done) {
        state.set(top.node, "done");
        stack.pop();
        path.pop();
        continue;
      }
      const target = step.value;
      if (state.get(target) === "open") cycles.push([...path.slice(path.indexOf(target)), target]);
      else if (!state.has(target)) enter(target);
    }
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return cycles;
}

function describe(cycles: string[][], base: string): string {
  return cycles.map((cycle) => cycle.map((url) => relative(base, fileURLToPath(url))).join(" -> "))
    .join("\n");
}

Deno.test("no import cycle among the package's modules (mod.ts and every export)", async () => {
  const config = JSON.parse(await Deno.readTextFile(join(REPO, "deno.json")));
  const entries = ["mod.ts", ...Object.values(config.exports as Record<string, string>)];
  const graph = await localGraph(REPO, entries);
  assert.ok(graph.size > 20, `the graph looks too small (${graph.size} modules)`);
  const cycles = findCycles(graph);
  assert.equal(cycles.length, 0, `import cycles:\n${describe(cycles, REPO)}`);
});

Deno.test("the cycle check finds a type-only cycle and a longer one, with their paths", async () => {
  const root = await makeTree({
    "a.ts": 'import type { B } from "./b.ts";\nexport interface A { b?: B }\n',
    "b.ts": 'import type { A } from "./a.ts";\nexport interface B { a?: A }\n',
    "c.ts": 'import { d } from "./d.ts";\nexport const c = () => d;\n',
    "d.ts": 'import { e } from "./e.ts";\nexport const d = () => e;\n',
    "e.ts": 'import { c } from "./c.ts";\nexport const e = () => c;\n',
    "f.ts": 'import "./a.ts";\nimport "./c.ts";\n',
  });
  try {
    const cycles = findCycles(await localGraph(root, ["f.ts"]));
    assert.deepEqual(describe(cycles, root).split("\n").sort(), [
      "a.ts -> b.ts -> a.ts",
      "c.ts -> d.ts -> e.ts -> c.ts",
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
