/**
 * `llm-symbols export` holds every definition, isolated or not: on fixtures of six languages a
 * function no call reaches or leaves is a node of the JSON, JSON lines and DOT forms; and on a
 * generated C tree the exported functions are exactly the function definitions universal-ctags
 * finds (`--kinds-C=f`), by file, line and name.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { hasCommand, makeTree, parseJson, runEntry, seededRandom } from "./helpers.ts";

const ENTRY = "tools/symbols/main.ts";

/** Per language: a caller, its callee, and `lonely`, which calls nothing and nothing calls. */
const FIXTURE: Record<string, string> = {
  "c/a.c": "static int callee(void) { return 1; }\n" +
    "int caller(void) { return callee(); }\n" +
    "static int lonely(void) { return 2; }\n",
  "py/a.py": "def callee():\n    return 1\n\n\ndef caller():\n    return callee()\n\n\n" +
    "def lonely():\n    return 2\n",
  "ts/a.ts": "function callee(): number {\n  return 1;\n}\n" +
    "export function caller(): number {\n  return callee();\n}\n" +
    "function lonely(): number {\n  return 2;\n}\n",
  "java/A.java": "class A {\n  static int callee() { return 1; }\n" +
    "  static int caller() { return callee(); }\n  static int lonely() { return 2; }\n}\n",
  "rs/a.rs":
    "fn callee() -> i32 { 1 }\nfn caller() -> i32 { callee() }\nfn lonely() -> i32 { 2 }\n",
  "go/a.go":
    "package a\n\nfunc callee() int { return 1 }\n\nfunc caller() int { return callee() }\n\n" +
    "func lonely() int { return 2 }\n",
};

interface Node {
  symbol_id: string;
  name: string;
  kind: string;
  file_path: string;
  line: number;
}

async function cli(root: string, args: string[]) {
  return await runEntry(ENTRY, args, { cwd: root, permissions: ["--allow-read"] });
}

async function indexed(files: Record<string, string>): Promise<string> {
  const root = await makeTree(files);
  const index = await runEntry(ENTRY, ["index", "--threads", "0"], {
    cwd: root,
    permissions: ["--allow-read", `--allow-write=${join(root, ".llm")}`],
  });
  assert.equal(index.code, 0, index.stdout + index.stderr);
  return root;
}

async function exportedNodes(root: string, args: string[] = []): Promise<Node[]> {
  const run = await cli(root, ["export", "-n", "0", ...args]);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  return (parseJson(run).data as { nodes: Node[] }).nodes;
}

Deno.test("export: a function with no call in or out is a node, in every language and form", async () => {
  const root = await indexed(FIXTURE);
  try {
    const nodes = await exportedNodes(root);
    const lonely = nodes.filter((node) => node.name.endsWith("lonely"));
    assert.deepEqual(
      lonely.map((node) => node.file_path).sort(),
      ["c/a.c", "go/a.go", "java/A.java", "py/a.py", "rs/a.rs", "ts/a.ts"],
    );
    for (const folder of ["c", "go", "java", "py", "rs", "ts"]) {
      const scoped = await exportedNodes(root, ["json", folder]);
      assert.ok(scoped.every((node) => node.file_path.startsWith(`${folder}/`)));
      assert.ok(scoped.some((node) => node.name.endsWith("lonely")), folder);
    }
    const ids = new Set(lonely.map((node) => node.symbol_id));
    const jsonl = await cli(root, ["export", "jsonl", "-n", "0", "--format", "text"]);
    const lines = jsonl.stdout.trim().split("\n").map((line) => JSON.parse(line));
    const listed = new Set(lines.filter((line) => line.type === "node").map((l) => l.symbol_id));
    for (const id of ids) assert.ok(listed.has(id), `jsonl lacks ${id}`);
    const dot = await cli(root, ["export", "dot", "-n", "0", "--format", "text"]);
    for (const id of ids) assert.ok(dot.stdout.includes(`"${id}" [label=`), `dot lacks ${id}`);
    // Cut edges: the listing is partial and its nodes are the listed edges' ends.
    const cut = parseJson(await cli(root, ["export", "-n", "1"]));
    const data = cut.data as { nodes: Node[]; results: { from: string; to: string }[] };
    assert.equal(cut.partial, true);
    const ends = new Set(data.results.flatMap((edge) => [edge.from, edge.to]));
    assert.deepEqual(new Set(data.nodes.map((node) => node.symbol_id)), ends);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

/** A generated C tree: functions calling others, some called by nobody and calling nobody. */
function generatedTree(seed: number, files: number): Record<string, string> {
  const random = seededRandom(seed);
  const tree: Record<string, string> = {};
  const names: string[] = [];
  for (let i = 0; i < files; i++) {
    const lines = ['#include "common.h"', ""];
    const count = 1 + Math.floor(random() * 5);
    for (let k = 0; k < count; k++) {
      const name = `fn${i}_${k}`;
      const isolated = random() < 0.4;
      const storage = random() < 0.5 ? "static " : "";
      const body = isolated || names.length === 0
        ? "return x + 1;"
        : `return ${names[Math.floor(random() * names.length)]}(x);`;
      lines.push(`${storage}int ${name}(int x)\n{\n\t${body}\n}\n`);
      if (!isolated) names.push(name);
    }
    tree[`src/d${i % 7}/f${i}.c`] = lines.join("\n");
  }
  tree["src/common.h"] = "int common(int x);\n";
  return tree;
}

Deno.test({
  name: "export: its functions are ctags' function definitions on a generated C tree (needs ctags)",
  ignore: !hasCommand("ctags"),
  async fn() {
    const tree = generatedTree(30, 80);
    const root = await indexed(tree);
    try {
      const ours = (await exportedNodes(root)).filter((node) => node.kind === "function")
        .map((node) => `${node.file_path}:${node.line} ${node.name}`).sort();
      const ctags = new Deno.Command("ctags", {
        args: [
          "--options=NONE",
          "--languages=C",
          "--kinds-C=f",
          "--fields=+n",
          "--output-format=json",
          "-f",
          "-",
          ...Object.keys(tree).filter((path) => path.endsWith(".c")),
        ],
        cwd: root,
        stdout: "piped",
      }).outputSync();
      assert.ok(ctags.success);
      const peer = new TextDecoder().decode(ctags.stdout).trim().split("\n")
        .map((line) => JSON.parse(line))
        .filter((tag) => tag._type === "tag")
        .map((tag) => `${tag.path}:${tag.line} ${tag.name}`).sort();
      assert.ok(peer.length > 150, `${peer.length} functions`);
      assert.deepEqual(ours, peer);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});
