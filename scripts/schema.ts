/**
 * `deno task schema`: writes `schema/json/*.json` from the zod schemas — the shared ones and,
 * for every tool, `<tool>.input.json` and `<tool>.output.json`. A test fails when the files
 * are out of date.
 *
 * @module
 */
import { type JsonSchema, SHARED_SCHEMAS, toJsonSchema } from "../schema/json_schema.ts";
import { type Tool, zodSchemas } from "../core/tool.ts";
import { TOOLS } from "../tools/registry.ts";

/** Every generated file for `tools` (default: the registry): name → JSON text. */
export function schemaFiles(tools: readonly Tool[] = TOOLS): Map<string, string> {
  const files = new Map<string, JsonSchema>();
  for (const [stem, schema] of Object.entries(SHARED_SCHEMAS)) {
    files.set(`${stem}.json`, toJsonSchema(schema, "output"));
  }
  for (const tool of tools) {
    const { input, output } = zodSchemas(tool);
    files.set(`${tool.name}.input.json`, toJsonSchema(input, "input"));
    files.set(`${tool.name}.output.json`, toJsonSchema(output, "output"));
  }
  return new Map(
    [...files].map(([name, schema]) => [name, JSON.stringify(schema, null, 2) + "\n"]),
  );
}

if (import.meta.main) {
  const dir = new URL("../schema/json/", import.meta.url);
  Deno.mkdirSync(dir, { recursive: true });
  for (const entry of Deno.readDirSync(dir)) {
    if (entry.name.endsWith(".json")) Deno.removeSync(new URL(entry.name, dir));
  }
  for (const [name, text] of schemaFiles()) Deno.writeTextFileSync(new URL(name, dir), text);
  console.error(`wrote ${schemaFiles().size} JSON Schema files to schema/json/`);
}
