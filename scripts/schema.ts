/**
 * `deno task schema`: writes `schema/json/*.json` from the zod schemas — the shared ones and,
 * for every tool, `<tool>.input.json` and `<tool>.output.json` (a subcommand's name with `-`
 * for its space: `llm-symbols-find.input.json`) — and the command tables every entrypoint parses
 * its command line by, `core/tables/<program>.json` (`flag_tables.ts`). A test fails when the files
 * are out of date.
 *
 * @module
 */
import { type JsonSchema, SHARED_SCHEMAS, toJsonSchema } from "../schema/json_schema.ts";
import { type Tool, zodSchemas } from "../core/tool.ts";
import { TOOLS } from "../tools/registry.ts";
import { tableFiles } from "./flag_tables.ts";

/**
 * The stem of a tool's JSON Schema files: its name, with `-` for the space of a subcommand.
 *
 * @example
 * ```ts
 * import { schemaStem } from "./schema.ts";
 * schemaStem("llm-symbols find"); // "llm-symbols-find"
 * ```
 */
export function schemaStem(toolName: string): string {
  return toolName.replaceAll(" ", "-");
}

/** Every generated file for `tools` (default: the registry): name → JSON text. */
export function schemaFiles(tools: readonly Tool[] = TOOLS): Map<string, string> {
  const files = new Map<string, JsonSchema>();
  for (const [stem, schema] of Object.entries(SHARED_SCHEMAS)) {
    files.set(`${stem}.json`, toJsonSchema(schema, "output"));
  }
  for (const tool of tools) {
    const { input, output } = zodSchemas(tool);
    const stem = schemaStem(tool.name);
    files.set(`${stem}.input.json`, toJsonSchema(input, "input"));
    files.set(`${stem}.output.json`, toJsonSchema(output, "output"));
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
  const tables = tableFiles();
  const tablesDir = new URL("../core/tables/", import.meta.url);
  Deno.mkdirSync(tablesDir, { recursive: true });
  for (const entry of Deno.readDirSync(tablesDir)) {
    if (entry.name.endsWith(".json")) Deno.removeSync(new URL(entry.name, tablesDir));
  }
  for (const [path, text] of tables) {
    Deno.writeTextFileSync(new URL(`../${path}`, import.meta.url), text);
  }
  console.error(`wrote the command tables to ${[...tables.keys()].join(", ")}`);
}
