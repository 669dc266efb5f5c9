/**
 * Each tool is declared once: a field added to a tool's input schema (with its metadata) shows
 * in the command line, `--help`, MCP `tools/list` (path-scoped, its alias accepted) and the JSON
 * Schema files, with no other edit. Proven on a throwaway tool, before and after the field.
 *
 * @module
 */
import assert from "node:assert/strict";
import { z } from "zod";
import { helpText, parseCommandLine, runCli } from "../core/cli.ts";
import { defineTool, type Tool } from "../core/tool.ts";
import { queryEnvelope, queryEnvelopeSchema } from "../schema/envelope.ts";
import { field } from "../schema/fields.ts";
import { schemaFiles, schemaStem } from "../scripts/schema.ts";
import { ExecutionLog } from "../core/execution_log.ts";
import { queryScope } from "../tools/mcp/scope.ts";
import { ToolServer } from "../tools/mcp/server.ts";
import { TOOLS } from "../tools/registry.ts";
import { DEFAULT_TOOLS } from "../tools/mcp/surface.ts";

const BASE_SHAPE = {
  word: field(z.string().default("").describe("A word to echo"), { short: "w" }),
};

/** The throwaway tool over an input shape; its run echoes the input it was given. */
function throwaway(shape: z.ZodRawShape): Tool {
  return defineTool({
    name: "llm-throwaway",
    mcpName: "throwaway",
    title: "Throwaway",
    description: "Echoes its input.",
    example: { word: "hi" },
    prefix: "LMS",
    kind: "query",
    permissions: [],
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
    input: z.object(shape),
    output: queryEnvelopeSchema(z.object({ count: z.number(), echo: z.unknown() })),
    cli: { usage: "[FLAGS]", examples: ["llm-throwaway -w hi"] },
    run: (input, context) =>
      Promise.resolve({
        envelope: queryEnvelope("llm-throwaway", { count: 1, echo: input }, [], {
          executionId: context.executionId,
        }),
      }),
  });
}

/** Runs the tool as a command in this process, returning its exit code and stdout. */
async function cli(tool: Tool, args: string[]): Promise<{ code: number; stdout: string }> {
  let stdout = "";
  const decoder = new TextDecoder();
  const write = Deno.stdout.writeSync;
  Deno.stdout.writeSync = (bytes: Uint8Array) => {
    stdout += decoder.decode(bytes);
    return bytes.length;
  };
  try {
    // Not logged: an in-process run under `deno test -A` would log into the repository.
    const code = await runCli(tool, args, { log: false });
    return { code, stdout };
  } finally {
    Deno.stdout.writeSync = write;
  }
}

interface Listed {
  name: string;
  inputSchema: { properties: Record<string, { description?: string }> };
}

function server(tool: Tool): ToolServer {
  return new ToolServer({ tools: [tool], scope: queryScope(Deno.cwd()), log: new ExecutionLog() });
}

function listed(tool: Tool): Listed {
  const found = server(tool).listTools().tools.find((entry) => entry.name === tool.mcpName);
  assert.ok(found, "the tool is listed");
  return found as unknown as Listed;
}

function inputJson(tool: Tool): { properties: Record<string, unknown> } {
  return JSON.parse(schemaFiles([tool]).get(`${schemaStem(tool.name)}.input.json`)!);
}

Deno.test("a field added to a tool's input schema appears in the CLI, --help, tools/list and the JSON Schema, path-scoped in MCP", async () => {
  const before = throwaway(BASE_SHAPE);
  const after = throwaway({
    ...BASE_SHAPE,
    dirs: field(z.array(z.string()).default([]).describe("Directories to look in"), {
      short: "D",
      aliases: ["dir"],
      path: true,
    }),
  });

  // Command line: the flag, its letter and its alias exist only once the field does.
  const refused = await cli(before, ["--dirs", "src"]);
  assert.equal(refused.code, 2);
  const accepted = await cli(after, ["-w", "hi", "--dirs", "src", "-D", "lib", "--dir", "docs"]);
  assert.equal(accepted.code, 0, accepted.stdout);
  assert.deepEqual(JSON.parse(accepted.stdout).data.echo, {
    word: "hi",
    dirs: ["src", "lib", "docs"],
  });

  // --help.
  assert.doesNotMatch(helpText(before), /--dirs/);
  assert.match(helpText(after), /-D, --dirs, --dir <PATH>\.\.\.\s+Directories to look in/);

  // MCP tools/list, and a call by the alias. The listing names the field only (its aliases are
  // accepted, not listed, and its empty default, which an argument left out means, is not said:
  // issue 33 keeps what the model reads small).
  assert.ok(!("dirs" in listed(before).inputSchema.properties));
  assert.deepEqual(listed(after).inputSchema.properties.dirs, {
    type: "array",
    items: { type: "string" },
    description: "Directories to look in",
  });
  const call = await server(after).callTool("throwaway", { word: "x", dir: "src" });
  assert.notEqual(call.isError, true, JSON.stringify(call.structuredContent));
  assert.deepEqual((call.structuredContent.data as { echo: unknown }).echo, {
    word: "x",
    dirs: ["src"],
  });
  const unknown = await server(before).callTool("throwaway", { dir: "src" });
  assert.equal(unknown.isError, true, "before the field, the alias is an unknown argument");

  // Path scoping: the field's values are confined to the root, under either name.
  for (const args of [{ dirs: ["/etc"] }, { dir: "../.." }]) {
    const outside = await server(after).callTool("throwaway", args);
    assert.equal(outside.isError, true, JSON.stringify(args));
    const [diagnostic] = outside.structuredContent.diagnostics as { code: string }[];
    assert.equal(diagnostic.code, "MCP-PERM-010");
  }

  // JSON Schema files.
  assert.ok(!("dirs" in inputJson(before).properties));
  assert.deepEqual(inputJson(after).properties.dirs, {
    default: [],
    description: "Directories to look in",
    type: "array",
    items: { type: "string" },
  });
});

Deno.test("every tool's MCP description names arguments, not flags, and ends with an example its schema accepts", () => {
  // The registry's definitions (served by their own names with --tools) and the default surface
  // as listed (its MCP descriptions, and the merged symbols, graph and refactor).
  for (const tool of [...TOOLS, ...DEFAULT_TOOLS]) {
    const descriptor = listed(tool);
    const full = server(tool).listTools().tools[0].description;
    assert.doesNotMatch(tool.description, /(^|\s)--?[a-z]/i, `${tool.mcpName} names a flag`);
    const example = /\nExample: (.*)$/.exec(full);
    assert.ok(example, `${tool.mcpName} has a one-line example`);
    assert.ok(tool.input.safeParse(JSON.parse(example[1])).success, `${tool.mcpName} example`);
    assert.equal(descriptor.name, tool.mcpName);
  }
});

Deno.test("no two flags of a tool share a name or a letter (aliases included)", () => {
  for (const tool of TOOLS) {
    assert.doesNotThrow(() => parseCommandLine(tool, ["--help"]), tool.name);
  }
});
