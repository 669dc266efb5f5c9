/**
 * Soundness of the kind-restricted definition query (`definitionQuery(language, grammar,
 * kinds)`): for every fixture of every language with a definition query and every kind, the
 * definitions of that kind found with the patterns of other kinds disabled are exactly those
 * the full query finds. Disabling a pattern must never change which pattern claims a name, nor
 * a definition's parent.
 */
import type { Query } from "web-tree-sitter";
import assert from "node:assert/strict";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createParser, loadLanguage } from "../grammars/loader.ts";
import { languageForFile } from "../grammars/languages.ts";
import { definitionQuery } from "../grammars/query.ts";
import { DEFINITION_QUERIES } from "../grammars/wasm/queries.ts";
import { SYMBOL_KINDS } from "../schema/ast_search.ts";
import { collectDefinitions, CONTAINER_KINDS, type Definition } from "../grammars/definitions.ts";

const FIXTURES = fileURLToPath(new URL("./fixtures/ast/", import.meta.url));

function fixtureFiles(): string[] {
  const files: string[] = [];
  for (const dir of [FIXTURES, join(FIXTURES, "samples")]) {
    for (const entry of Deno.readDirSync(dir)) {
      if (entry.isFile) files.push(join(dir, entry.name));
    }
  }
  return files.sort();
}

Deno.test("definitionQuery with kinds: the same definitions of those kinds as the full query", async () => {
  let compared = 0;
  for (const file of fixtureFiles()) {
    const language = languageForFile(basename(file));
    if (!language || DEFINITION_QUERIES[language.name] === undefined) continue;
    const grammar = await loadLanguage(language.name);
    const parser = await createParser(language.name);
    const tree = parser.parse(Deno.readTextFileSync(file));
    assert.ok(tree, file);
    const full = collectDefinitions(definitionQuery(language.name, grammar)!, tree.rootNode);
    for (const kind of SYMBOL_KINDS) {
      const kinds = new Set([kind, ...CONTAINER_KINDS]);
      const restricted: Query = definitionQuery(language.name, grammar, kinds)!;
      const found: Definition[] = collectDefinitions(restricted, tree.rootNode).filter((d) =>
        d.kind === kind
      );
      const expected = full.filter((d) => d.kind === kind);
      assert.deepEqual(
        found.map(({ patternIndex: _, ...definition }) => definition),
        expected.map(({ patternIndex: _, ...definition }) => definition),
        `${basename(file)} --kind ${kind}`,
      );
      compared += expected.length;
    }
    tree.delete();
    parser.delete();
  }
  assert.ok(compared > 200, `only ${compared} definitions compared`);
});
