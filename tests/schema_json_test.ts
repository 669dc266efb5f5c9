import assert from "node:assert/strict";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { tableFiles } from "../scripts/flag_tables.ts";
import { schemaFiles } from "../scripts/schema.ts";
import { REPO } from "./helpers.ts";

Deno.test("schema/json is up to date with the zod schemas (run `deno task schema`)", () => {
  const dir = join(REPO, "schema", "json");
  const expected = schemaFiles();
  const onDisk = new Set([...Deno.readDirSync(dir)].map((entry) => entry.name));
  assert.deepEqual([...onDisk].sort(), [...expected.keys()].sort());
  for (const [name, text] of expected) {
    assert.equal(Deno.readTextFileSync(join(dir, name)), text, `${name} is stale`);
  }
});

Deno.test("core/tables is up to date with the input schemas (run `deno task schema`)", () => {
  const expected = tableFiles();
  const dir = join(REPO, "core", "tables");
  const onDisk = [...Deno.readDirSync(dir)].map((entry) => `core/tables/${entry.name}`);
  assert.deepEqual(onDisk.sort(), [...expected.keys()].sort());
  for (const [path, text] of expected) {
    assert.equal(Deno.readTextFileSync(join(REPO, path)), text, `${path} is stale`);
  }
});

Deno.test("every generated file is a valid JSON Schema (draft 2020-12)", () => {
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  for (const [name, text] of schemaFiles()) {
    assert.doesNotThrow(() => ajv.compile(JSON.parse(text)), name);
  }
});
