/**
 * The MCP surface an agent pays for before its first question (issue 33): the server started with
 * every permission on a small fixture lists at most 12 tools, what the model reads of them (name,
 * description, inputSchema as compact JSON) stays within 16,000 bytes, the whole `tools/list`
 * answer within 24,000, every description and the server's instructions within 2,048 characters.
 * The figures are printed so that they can be quoted.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { FIXTURE, initialize, spawnRaw } from "./mcp_helpers.ts";

const MAX_TOOLS = 12;
const MAX_MODEL_BYTES = 16_000;
const MAX_LIST_BYTES = 24_000;
const MAX_TEXT = 2_048;

interface Listed {
  name: string;
  description: string;
  inputSchema: unknown;
  outputSchema?: unknown;
}

function bytes(value: unknown): number {
  return new TextEncoder().encode(JSON.stringify(value)).length;
}

Deno.test("the default MCP surface stays small (tools, model-visible bytes, tools/list, descriptions)", async () => {
  const root = Deno.makeTempDirSync({ prefix: "llm-mcp-surface-" });
  for (const [path, text] of Object.entries(FIXTURE)) {
    Deno.mkdirSync(join(root, path, ".."), { recursive: true });
    Deno.writeTextFileSync(join(root, path), text);
  }
  const server = spawnRaw({ permissions: ["--allow-all"], root });
  try {
    const init = await initialize(server);
    const instructions = String(
      (init.message.result as { instructions?: string }).instructions ?? "",
    );
    const answer = await server.request("tools/list");
    const tools = (answer.message.result as { tools: Listed[] }).tools;
    const model = tools.reduce(
      (sum, tool) =>
        sum + bytes({
          name: tool.name,
          description: tool.description,
          inputSchema: tool.inputSchema,
        }),
      0,
    );
    const list = bytes(answer.message.result);
    const longest = Math.max(...tools.map((tool) => tool.description.length));
    console.log(
      `mcp surface: ${tools.length} tools, model-visible ${model} B, tools/list ${list} B, ` +
        `longest description ${longest} chars, instructions ${instructions.length} chars`,
    );
    assert.ok(tools.length <= MAX_TOOLS, `${tools.length} tools: ${tools.map((t) => t.name)}`);
    assert.ok(model <= MAX_MODEL_BYTES, `model-visible bytes ${model}`);
    assert.ok(list <= MAX_LIST_BYTES, `tools/list bytes ${list}`);
    assert.ok(longest <= MAX_TEXT, `longest description ${longest}`);
    assert.ok(instructions.length > 0 && instructions.length <= MAX_TEXT, "instructions");
    assert.ok(tools.every((tool) => tool.outputSchema === undefined), "no outputSchema by default");
    assert.deepEqual(tools.map((tool) => tool.name), [
      "context",
      "search",
      "ast_search",
      "discover",
      "symbols",
      "graph",
      "repo_map",
      "validate",
      "transform",
      "write",
      "refactor",
      "get_execution",
    ]);
  } finally {
    await server.close();
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("--output-schemas lists each tool's outputSchema", async () => {
  const root = Deno.makeTempDirSync({ prefix: "llm-mcp-surface-" });
  const server = spawnRaw({ permissions: [`--allow-read`], root, args: ["--output-schemas"] });
  try {
    await initialize(server);
    const answer = await server.request("tools/list");
    const tools = (answer.message.result as { tools: Listed[] }).tools;
    assert.ok(tools.length > 0 && tools.every((tool) => tool.outputSchema !== undefined));
  } finally {
    await server.close();
    Deno.removeSync(root, { recursive: true });
  }
});
