/**
 * One decoding of file content for the whole toolkit (`core/utf8.ts`): a BOM stays in the text
 * as U+FEFF, so that no position derived from the text misses the bytes on disk. These tests
 * hold the package to it: no module decodes text with a decoder of its own outside the
 * allow-list below, and tree-sitter reads the text with its BOM as it reads it without one, in
 * every grammar of the registry (so no tool needs to hide the BOM from its parser).
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import type { Node } from "web-tree-sitter";
import { createParser } from "../grammars/loader.ts";
import { languageForFile } from "../grammars/languages.ts";
import { decodeUtf8 } from "../core/utf8.ts";
import { REPO } from "./helpers.ts";

/** Where the package may decode bytes without `core/utf8.ts`: none of it is a file's content. */
const OWN_DECODERS: Record<string, string> = {
  "core/utf8.ts": "the one decoding itself",
  "core/gates/spawn.ts": "the checkers' stdout and stderr",
  "tools/mcp/stdio.ts": "the JSON-RPC stream on standard input",
  "core/symbol_index/schema_sql.ts": "the SQLite header's magic string",
};

/** Where the package may read a file as text: its own files and configuration, never code. */
const TEXT_READS: Record<string, string> = {
  "core/walk/ignore_rules.ts": "ignore files (patterns, no positions)",
  "core/execution_log.ts": "the run log the package writes",
  "core/transaction/journal.ts": "the journal the package writes",
  "core/gates/checkers.ts": "dep-info files, go.mod, sources scanned for a pattern",
  "core/gates/mod.ts": "Cargo.toml, for its [workspace] table",
  "core/gates/rust.ts": "rust-toolchain files, for the channel",
};

/** The package's modules (tests and doc comments aside), path relative to the repository. */
async function packageModules(): Promise<Map<string, string[]>> {
  const modules = new Map<string, string[]>();
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(dir)) {
      const path = join(dir, entry.name);
      if (entry.isDirectory) await walk(path);
      else if (entry.name.endsWith(".ts") && !entry.name.endsWith("_test.ts")) {
        const code = (await Deno.readTextFile(path)).split("\n")
          .filter((line) => !/^\s*(\*|\/\/|\/\*)/.test(line));
        modules.set(relative(REPO, path), code);
      }
    }
  };
  for (const folder of ["core", "tools", "grammars", "schema"]) await walk(join(REPO, folder));
  return modules;
}

Deno.test("the package decodes file content only through core/utf8.ts", async () => {
  const decoders: string[] = [];
  const textReads: string[] = [];
  const allowedUsed = new Set<string>();
  for (const [path, lines] of await packageModules()) {
    lines.forEach((line, index) => {
      const at = `${path}:${index + 1}: ${line.trim()}`;
      if (line.includes("new TextDecoder(")) {
        if (path in OWN_DECODERS) allowedUsed.add(`decoder ${path}`);
        else decoders.push(at);
      }
      if (/Deno\.readTextFile(Sync)?\(/.test(line)) {
        if (path in TEXT_READS) allowedUsed.add(`read ${path}`);
        else textReads.push(at);
      }
    });
  }
  assert.deepEqual(decoders, [], "decode with decodeUtf8, decodeFile or decodeText instead");
  assert.deepEqual(textReads, [], "read the bytes and decode them with core/utf8.ts instead");
  // An entry whose module no longer needs it goes, so the lists stay the exceptions they are.
  const allowed = [
    ...Object.keys(OWN_DECODERS).map((path) => `decoder ${path}`),
    ...Object.keys(TEXT_READS).map((path) => `read ${path}`),
  ];
  assert.deepEqual(allowed.filter((entry) => !allowedUsed.has(entry)), []);
});

/** Every node of a tree in document order: its type and its extent in code units. */
function nodesOf(root: Node): string[] {
  const found: string[] = [];
  const visit = (node: Node) => {
    found.push(`${node.type}@${node.startIndex}-${node.endIndex}`);
    for (const child of node.children) if (child) visit(child);
  };
  visit(root);
  return found;
}

Deno.test("tree-sitter skips a leading U+FEFF in every grammar and counts its code unit", async () => {
  const samples = join(REPO, "tests", "fixtures", "ast", "samples");
  const bom = new Uint8Array([0xef, 0xbb, 0xbf]);
  let languages = 0;
  for await (const entry of Deno.readDir(samples)) {
    const language = languageForFile(entry.name)!.name;
    const bytes = await Deno.readFile(join(samples, entry.name));
    const plain = decodeUtf8(bytes).text;
    const withBom = decodeUtf8(new Uint8Array([...bom, ...bytes])).text;
    assert.equal(withBom, `\ufeff${plain}`, entry.name);
    const parser = await createParser(language);
    const before = parser.parse(plain)!;
    const after = parser.parse(withBom)!;
    try {
      assert.equal(after.rootNode.hasError, before.rootNode.hasError, language);
      const shifted = nodesOf(before.rootNode).map((node) =>
        node.replace(/@(\d+)-(\d+)$/, (_, start, end) => `@${+start + 1}-${+end + 1}`)
      );
      // The root too starts after the BOM: no node covers it, so no span a tool reports does.
      assert.deepEqual(nodesOf(after.rootNode), shifted, language);
    } finally {
      before.delete();
      after.delete();
      parser.delete();
    }
    languages++;
  }
  assert.equal(languages, 33);
});
