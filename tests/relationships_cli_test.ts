/**
 * Relationships on the spans of `llm-search` and `llm-ast-search` (`--with-callers`,
 * `--with-callees`, `--with-imports`, `--with-exports`, `-R`), through real subprocesses with a
 * scoped `--allow-read` only: filled from the symbol index by each result's enclosing symbol,
 * with the callers and callees `llm-symbols` resolves; skipped and counted for files changed
 * since the index run; a note and unchanged results without an index; no index loaded at all
 * without a flag.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Relationships } from "../schema/extensions.ts";
import { indexRoot } from "../core/symbol_index/indexer.ts";
import { makeTree, parseJson, REPO, runEntry, withoutRunFields } from "./helpers.ts";

const FILES: Record<string, string> = {
  "app/main.py": "from util import helper\n\n\ndef caller():\n    helper()  # TODO\n",
  "app/util.py": "import os\n\n\ndef helper():\n    return os.sep  # TODO\n",
  "notes.txt": "TODO: not code\n",
};

interface Match {
  span: { file_path: string };
  relationships?: Relationships;
}

interface Envelope {
  status: string;
  data: { matches: Match[] };
  diagnostics: { code: string; level: string; message: string }[];
}

async function run(entry: string, root: string, args: string[]): Promise<Envelope> {
  const result = await runEntry(entry, args, { cwd: root, permissions: [`--allow-read=${root}`] });
  assert.equal(result.code, 0, result.stderr);
  return parseJson(result) as unknown as Envelope;
}

const search = (root: string, args: string[]) => run("tools/search/main.ts", root, args);
const astSearch = (root: string, args: string[]) => run("tools/ast-search/main.ts", root, args);

function names(list: { name: string }[] | undefined): string[] {
  return (list ?? []).map((ref) => ref.name);
}

function matchIn(envelope: Envelope, path: string): Match {
  const match = envelope.data.matches.find((candidate) => candidate.span.file_path === path);
  assert.ok(match, `a match in ${path}: ${JSON.stringify(envelope)}`);
  return match;
}

async function indexedTree(): Promise<string> {
  const root = await makeTree(FILES);
  await indexRoot({ root, threads: 0 });
  return root;
}

Deno.test("search -R: callers, callees, imports and exports of each match's enclosing symbol", async () => {
  const root = await indexedTree();
  const envelope = await search(root, ["TODO", "-R"]);
  assert.deepEqual(envelope.diagnostics, []);
  const inCaller = matchIn(envelope, "app/main.py").relationships;
  assert.deepEqual(names(inCaller?.callees), ["helper"]);
  assert.deepEqual(names(inCaller?.callers), []);
  assert.deepEqual(names(inCaller?.imports), ["util"]);
  assert.deepEqual(names(inCaller?.exports), ["caller"]);
  const inHelper = matchIn(envelope, "app/util.py").relationships;
  assert.deepEqual(names(inHelper?.callers), ["caller"]);
  assert.equal(inHelper?.callers?.[0].span?.file_path, "app/main.py");
  assert.equal(inCaller?.callees?.[0].symbol_id, inHelper?.exports?.[0].symbol_id);
  assert.deepEqual(names(inHelper?.imports), ["os"]);
  assert.equal(matchIn(envelope, "notes.txt").relationships, undefined, "not an indexed file");
});

Deno.test("search --with-callers: only what is asked for, the same callers as llm-symbols", async () => {
  const root = await indexedTree();
  const envelope = await search(root, ["TODO", "--with-callers"]);
  const related = matchIn(envelope, "app/util.py").relationships;
  assert.deepEqual(Object.keys(related ?? {}), ["callers"]);
  const symbols = await runEntry("tools/symbols/main.ts", ["callers", "helper"], {
    cwd: root,
    permissions: [`--allow-read=${root}`],
  });
  const uses = (parseJson(symbols).data as { results: { caller: { symbol_id: string } }[] })
    .results.map((use) => use.caller.symbol_id);
  assert.deepEqual(related?.callers?.map((ref) => ref.symbol_id), uses);
});

Deno.test("ast-search -R: a definition's own callers", async () => {
  const root = await indexedTree();
  const envelope = await astSearch(root, ["--kind", "function", "--name", "^helper$", "-R"]);
  const related = matchIn(envelope, "app/util.py").relationships;
  assert.deepEqual(names(related?.callers), ["caller"]);
  assert.deepEqual(names(related?.exports), ["helper"]);
});

Deno.test("relationships: a file changed since the index run is skipped and counted", async () => {
  const root = await indexedTree();
  await Deno.writeTextFile(join(root, "app/util.py"), "\n" + FILES["app/util.py"]);
  const envelope = await search(root, ["TODO", "--with-callers", "--with-imports"]);
  assert.equal(matchIn(envelope, "app/util.py").relationships, undefined);
  assert.ok(matchIn(envelope, "app/main.py").relationships?.imports);
  const notes = envelope.diagnostics.filter((diagnostic) => diagnostic.code === "MAG-IO-019");
  assert.equal(notes.length, 1, JSON.stringify(envelope.diagnostics));
  assert.match(notes[0].message, /^1 result\(s\) in 1 file\(s\).*app\/util\.py/);
});

Deno.test("relationships without an index: a note, the results unchanged", async () => {
  const root = await makeTree(FILES);
  for (
    const [tool, args] of [
      [search, ["TODO"]],
      [astSearch, ["--kind", "function"]],
    ] as const
  ) {
    const plain = await tool(root, [...args]);
    const related = await tool(root, [...args, "-R"]);
    assert.deepEqual(related.diagnostics.map((diagnostic) => diagnostic.code), ["MAG-IO-018"]);
    assert.match(related.diagnostics[0].message, /llm-symbols index/);
    const strip = (envelope: Envelope) =>
      withoutRunFields(JSON.stringify({ ...envelope, diagnostics: [] }));
    assert.equal(strip(related), strip(plain));
  }
});

Deno.test("relationships: the plain path does not load the index modules", async () => {
  for (const entry of ["tools/search/main.ts", "tools/ast-search/main.ts"]) {
    const info = await new Deno.Command("deno", {
      args: ["info", "--json", `--config=${join(REPO, "deno.json")}`, join(REPO, entry)],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const graph = JSON.parse(new TextDecoder().decode(info.stdout)) as {
      roots: string[];
      modules: {
        specifier: string;
        dependencies?: { code?: { specifier: string }; isDynamic?: boolean }[];
      }[];
    };
    const byName = new Map(graph.modules.map((module) => [module.specifier, module]));
    const loaded = new Set<string>();
    const pending = [...graph.roots];
    while (pending.length) {
      const specifier = pending.pop()!;
      if (loaded.has(specifier)) continue;
      loaded.add(specifier);
      for (const dependency of byName.get(specifier)?.dependencies ?? []) {
        if (!dependency.isDynamic && dependency.code) pending.push(dependency.code.specifier);
      }
    }
    assert.ok([...loaded].some((specifier) => specifier.endsWith("relationship_run.ts")));
    assert.ok(!loaded.has("node:sqlite"), `${entry} loads node:sqlite without a flag`);
  }
});
