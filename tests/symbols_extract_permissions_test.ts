/**
 * `extractFacts` needs no permission: the grammars and queries are embedded, so an indexer may
 * run it in a process or worker granted nothing but what it reads itself.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO } from "./helpers.ts";

Deno.test("extractFacts: runs with no permission at all, on the main thread", async () => {
  const extract = join(REPO, "core/symbol_index/extract.ts");
  const script = `import { extractFacts } from ${JSON.stringify(`file://${extract}`)};
const facts = await extractFacts("rust", "use std::fs;\\nfn main() { helper(); }\\n");
console.log(JSON.stringify([facts.symbols[0].name, facts.references.at(-1).name, facts.imports[0].target]));`;
  const output = await new Deno.Command("deno", {
    args: ["eval", "--no-prompt", `--config=${join(REPO, "deno.json")}`, "--ext=ts", script],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(output.stderr);
  assert.equal(output.code, 0, stderr);
  assert.deepEqual(JSON.parse(new TextDecoder().decode(output.stdout)), [
    "main",
    "helper",
    "std::fs",
  ]);
});
