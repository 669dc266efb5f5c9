import assert from "node:assert/strict";
import {
  AST_COLUMNS,
  AST_ONE_KIND_COLUMNS,
  type AstMatch,
  CompactAstSearchEnvelopeSchema,
} from "../../schema/ast_search.ts";
import { compactEnvelope } from "../../schema/compact.ts";
import { queryEnvelope } from "../../schema/envelope.ts";
import { LineIndex } from "../../schema/line_index.ts";
import { makeSpan } from "../../schema/span.ts";
import { astSearchCompact } from "./compact.ts";

const TEXT = "int main(void)\n{\n\treturn FOO_SUSPEND;\n}\n" + "x".repeat(300) + "\n";
const index = LineIndex.fromText(TEXT);

const body = TEXT.slice(0, TEXT.indexOf("}") + 1);

function astMatch(name: string, kind: string): AstMatch {
  return {
    match_id: crypto.randomUUID(),
    span: makeSpan("a.c", index, 0, body.length),
    pattern_index: 0,
    text: body,
    name,
    kind,
    captures: [{ name: "name", span: makeSpan("a.c", index, 4, 8), text: name }],
  };
}

function astEnvelope(matches: AstMatch[]) {
  return queryEnvelope("llm-ast-search", {
    count: matches.length,
    mode: "kind" as const,
    match_count: matches.length,
    files_searched: 1,
    files_matched: 1,
    languages: ["c"],
    matches,
  }, []);
}

type CompactAst = {
  data: { kind?: string; columns: readonly string[]; by_file: { rows: unknown[][] }[] };
};

Deno.test("compact ast-search: name, kind, span and the first line, not the body", () => {
  const compact = compactEnvelope(
    astEnvelope([astMatch("main", "function")]),
    astSearchCompact,
  ) as CompactAst;
  assert.ok(CompactAstSearchEnvelopeSchema.safeParse(compact).success);
  // One kind for every match: said once, not on every row.
  assert.equal(compact.data.kind, "function");
  assert.deepEqual(compact.data.columns, AST_ONE_KIND_COLUMNS);
  assert.deepEqual(compact.data.by_file[0].rows[0], [
    "main",
    1,
    4,
    0,
    body.length,
    "int main(void)",
  ]);
  assert.ok(!JSON.stringify(compact).includes("return"));
});

Deno.test("compact ast-search: matches of several kinds keep the kind column", () => {
  const matches = [astMatch("main", "function"), astMatch("point", "struct")];
  const compact = compactEnvelope(astEnvelope(matches), astSearchCompact) as CompactAst;
  const schema = CompactAstSearchEnvelopeSchema;
  assert.ok(schema.safeParse(compact).success);
  assert.equal(compact.data.kind, undefined);
  assert.deepEqual(compact.data.columns, AST_COLUMNS);
  assert.deepEqual(compact.data.by_file[0].rows.map((row) => row.slice(0, 2)), [
    ["main", "function"],
    ["point", "struct"],
  ]);
  // A row that does not follow its columns is refused.
  const mixed = structuredClone(compact);
  mixed.data.kind = "function";
  assert.ok(!schema.safeParse(mixed).success);
});
