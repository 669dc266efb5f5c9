/**
 * Tools are leaves: no module of one tool folder (`tools/<tool>/`) imports a module of another
 * tool folder. What two tools share is a library of `core/` or `grammars/`. The registry
 * (`tools/registry.ts`) and the MCP server (`tools/mcp/`), which serve every tool, are the
 * exceptions. Every specifier counts: static and dynamic imports, re-exports, computed ones
 * (`new URL("…", import.meta.url)`) and those of JSDoc examples (a checked example is code).
 *
 * And no tool folder grows past {@linkcode MAX_TOOL_LINES} lines of TypeScript, its unit tests
 * (`*_test.ts`) included: a folder that large holds a capability that belongs in `core/`.
 *
 * @module
 */
import assert from "node:assert/strict";
import { dirname, join, relative } from "node:path";
import { makeTree, REPO } from "./helpers.ts";

/** The most lines of `.ts` a tool folder may hold, tests included. */
const MAX_TOOL_LINES = 4000;

/** The tool folders that may import other tool folders: they serve every tool. */
const SERVES_EVERY_TOOL = new Set(["mcp"]);

/** A relative specifier of a module: in quotes, starting with `./` or `../`. */
const SPECIFIER =
  /(?:\bfrom\s*|\bimport\s*\(?\s*|new URL\(\s*)["'](\.{1,2}\/[^"'\s]+\.(?:ts|js|mjs|json))["']/g;

/** Every `.ts` file under `dir`, relative to `root`, sorted. */
async function tsFiles(root: string, dir: string): Promise<string[]> {
  const found: string[] = [];
  const visit = async (path: string) => {
    for await (const entry of Deno.readDir(join(root, path))) {
      const child = join(path, entry.name);
      if (entry.isDirectory) await visit(child);
      else if (entry.isFile && entry.name.endsWith(".ts")) found.push(child);
    }
  };
  await visit(dir);
  return found.sort();
}

/** The tool folder a path relative to the repository lies in, if any (`tools/x/…` → `x`). */
function toolOf(path: string): string | undefined {
  const parts = path.split("/");
  return parts[0] === "tools" && parts.length > 2 ? parts[1] : undefined;
}

/** Each import of a module of one tool folder by a module of another, as `from -> to`. */
async function crossToolImports(root: string): Promise<string[]> {
  const edges: string[] = [];
  for (const file of await tsFiles(root, "tools")) {
    const tool = toolOf(file);
    if (tool === undefined || SERVES_EVERY_TOOL.has(tool)) continue;
    const source = await Deno.readTextFile(join(root, file));
    for (const match of source.matchAll(SPECIFIER)) {
      const target = relative(root, join(root, dirname(file), match[1]));
      const other = toolOf(target);
      if (other !== undefined && other !== tool) edges.push(`${file} -> ${target}`);
    }
  }
  return edges;
}

/** Lines of `.ts` in each tool folder, tests included. */
async function toolLines(root: string): Promise<Map<string, number>> {
  const lines = new Map<string, number>();
  for (const file of await tsFiles(root, "tools")) {
    const tool = toolOf(file);
    if (tool === undefined) continue;
    const text = await Deno.readTextFile(join(root, file));
    const count = text.length === 0 ? 0 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
    lines.set(tool, (lines.get(tool) ?? 0) + count);
  }
  return lines;
}

Deno.test("no tool folder imports another tool folder's modules (tools are leaves)", async () => {
  const edges = await crossToolImports(REPO);
  assert.deepEqual(edges, [], `tool folders importing each other:\n${edges.join("\n")}`);
});

Deno.test(`no tool folder holds more than ${MAX_TOOL_LINES} lines of .ts, tests included`, async () => {
  const lines = await toolLines(REPO);
  assert.ok(lines.size >= 8, `too few tool folders found (${lines.size})`);
  const large = [...lines].filter(([, count]) => count >= MAX_TOOL_LINES)
    .map(([tool, count]) => `tools/${tool}/: ${count} lines`);
  assert.deepEqual(large, [], "tool folders too large");
});

Deno.test("the layer checks find an import between tool folders, of every form, and count lines", async () => {
  const root = await makeTree({
    "tools/a/engine.ts": [
      'import { b } from "../b/engine.ts";',
      'import type { C } from "../c/types.ts";',
      'export { d } from "../d/d.ts";',
      'const e = await import("../e/e.ts");',
      'const F = new URL("../f/worker.ts", import.meta.url);',
      " * import { g } from '../g/g.ts';",
      'import { own } from "./own.ts";',
      'import { core } from "../../core/x.ts";',
      "",
    ].join("\n"),
    "tools/a/own.ts": "export const own = 1;\n",
    "tools/mcp/server.ts": 'import { b } from "../b/engine.ts";\n',
    "tools/registry.ts": 'import { b } from "./b/engine.ts";\n',
    "tools/b/engine.ts": "export const b = 1;\n\nexport const b2 = 2;\n",
  });
  try {
    assert.deepEqual(await crossToolImports(root), [
      "tools/a/engine.ts -> tools/b/engine.ts",
      "tools/a/engine.ts -> tools/c/types.ts",
      "tools/a/engine.ts -> tools/d/d.ts",
      "tools/a/engine.ts -> tools/e/e.ts",
      "tools/a/engine.ts -> tools/f/worker.ts",
      "tools/a/engine.ts -> tools/g/g.ts",
    ]);
    assert.deepEqual(
      Object.fromEntries(await toolLines(root)),
      { a: 9, b: 3, mcp: 1 },
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
