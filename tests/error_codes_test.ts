import assert from "node:assert/strict";
import { join } from "node:path";
import { ERROR_CODES, explainCode } from "../schema/mod.ts";
import { parseJson, REPO, runEntry } from "./helpers.ts";

const PREFIXES = ["LMS", "LMA", "LMD", "LMT", "MAG", "SPL", "LFW", "MCP"];
const SOURCE_DIRS = ["schema", "core", "tools", "grammars"];

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of Deno.readDirSync(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory && entry.name !== "wasm" && entry.name !== "json") {
      yield* sourceFiles(path);
    } else if (entry.isFile && entry.name.endsWith(".ts")) yield path;
  }
}

function allSources(): { path: string; text: string }[] {
  const files = [join(REPO, "mod.ts")];
  for (const dir of SOURCE_DIRS) files.push(...sourceFiles(join(REPO, dir)));
  return files.map((path) => ({ path, text: Deno.readTextFileSync(path) }));
}

Deno.test("every literal error code in the source is in the registry", () => {
  const literal = new RegExp(`\\b(?:${PREFIXES.join("|")})-[A-Z]+-\\d{3}\\b`, "g");
  const missing: string[] = [];
  let seen = 0;
  for (const { path, text } of allSources()) {
    for (const code of text.match(literal) ?? []) {
      seen++;
      if (!ERROR_CODES.has(code)) missing.push(`${code} (${path.slice(REPO.length + 1)})`);
    }
  }
  assert.ok(seen > 20, "the scan found the codes the engines use");
  assert.deepEqual(missing, []);
});

Deno.test("every code built from a prefix exists for every prefix", () => {
  const template = /\$\{[^}]*\}-([A-Z]+-\d{3})\b/g;
  const suffixes = new Set<string>();
  for (const { text } of allSources()) {
    for (const found of text.matchAll(template)) suffixes.add(found[1]);
  }
  assert.ok(suffixes.has("ARG-001") && suffixes.has("PERM-001") && suffixes.has("INT-001"));
  const missing = [...suffixes].flatMap((suffix) =>
    PREFIXES.map((prefix) => `${prefix}-${suffix}`).filter((code) => !ERROR_CODES.has(code))
  );
  assert.deepEqual(missing, []);
});

Deno.test("registry entries are complete and exit codes follow the contract", () => {
  for (const entry of ERROR_CODES.values()) {
    assert.match(entry.code, /^[A-Z]{3}-[A-Z]+-\d{3}$/);
    assert.ok(entry.meaning && entry.cause && entry.remediation, entry.code);
    assert.ok([0, 1, 2, 3, 4, 5].includes(entry.exit), entry.code);
    if (entry.code.includes("-PERM-")) assert.equal(entry.exit, 4, entry.code);
    if (entry.code.includes("-INT-")) assert.equal(entry.exit, 5, entry.code);
  }
  assert.equal(explainCode(" lms-qry-001 ")?.code, "LMS-QRY-001");
});

Deno.test("--explain CODE prints the registry entry as JSON; an unknown code is exit 2", async () => {
  const known = await runEntry("tools/search/main.ts", ["--explain", "LMS-PERM-001"]);
  assert.equal(known.code, 0);
  assert.deepEqual(parseJson(known), ERROR_CODES.get("LMS-PERM-001"));
  const unknown = await runEntry("tools/search/main.ts", ["--explain", "LMS-NOPE-999"]);
  assert.equal(unknown.code, 2);
  const envelope = parseJson(unknown) as { status: string; diagnostics: { code: string }[] };
  assert.equal(envelope.status, "error");
  assert.equal(envelope.diagnostics[0].code, "LMS-ARG-002");
});
