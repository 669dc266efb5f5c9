/**
 * The options of `llm-mcp` (the server process), declared once as a zod input schema: its flags,
 * its `--help` and their checks come from it, written into the command tables by `deno task
 * schema` (`main.ts` parses by the table and does not load this module).
 *
 * @module
 */
import { z } from "zod";
import type { CommandSpec } from "../../core/tool.ts";
import { DEFAULT_LOG_MAX_BYTES } from "../../core/execution_log.ts";
import { field } from "../../schema/fields.ts";
import { LLM_MCP } from "../../schema/tool_names.ts";
import {
  DEFAULT_CALL_TIMEOUT_MS,
  DEFAULT_MAX_OUTPUT_BYTES,
  MIN_MAX_OUTPUT_BYTES,
} from "./server.ts";

/** A whole-number option, its message written to follow the flag's name. */
function wholeNumber(unit: string, min: number) {
  const message = `takes a whole number of ${unit} of at least ${min}`;
  return z.number().int(message).min(min, message);
}

/** The server's options, after defaults. */
export interface McpServerInput {
  /** Workspace root. */
  root: string;
  /** Budget of one response in bytes. */
  max_output_bytes: number;
  /** Directory of the execution log. */
  log_dir?: string;
  /** Size cap of the log file in bytes. */
  log_max_bytes: number;
  /** Time limit of one call in ms. */
  call_timeout_ms: number;
  /** Stack traces in internal-error diagnostics. */
  debug: boolean;
  /** Only these tools (MCP names); empty: the default surface the permissions allow. */
  tools: string[];
  /** List each tool's outputSchema in tools/list. */
  output_schemas: boolean;
}

/** The server's options: the flags of `llm-mcp`, its `--help`, parsed by the tools' machinery. */
const McpServerSchema: z.ZodType<McpServerInput> & z.ZodObject = z.object({
  root: field(
    z.string().default(".").describe("Workspace root; tools run there, paths outside are refused"),
    { path: true },
  ),
  max_output_bytes: wholeNumber("bytes", MIN_MAX_OUTPUT_BYTES).default(DEFAULT_MAX_OUTPUT_BYTES)
    .describe("Budget of one response; longer results come in pages"),
  log_dir: field(
    z.string().optional().describe(
      "Append every call to DIR/executions.jsonl (needs --allow-write=DIR) [default: " +
        "<root>/.llm/log when --allow-write covers it, else memory only]",
    ),
    { path: true },
  ),
  log_max_bytes: wholeNumber("bytes", 1).default(DEFAULT_LOG_MAX_BYTES).describe(
    "Size cap of the log file; it is rotated once",
  ),
  call_timeout_ms: wholeNumber("milliseconds", 1).default(DEFAULT_CALL_TIMEOUT_MS).describe(
    "Stop a call still running after N ms (MCP-QRY-011)",
  ),
  debug: z.boolean().default(false).describe("Stack traces in internal-error diagnostics"),
  tools: z.array(z.string()).default([]).describe(
    "Serve only these tools (MCP names, comma-separated or repeated; get_execution is always " +
      "served); also names the tools outside the default surface (symbols_index, " +
      "symbols_verify, and each symbols, graph and refactor member by its own name, e.g. " +
      "symbols_find) [default: the default surface the permissions allow]",
  ),
  output_schemas: z.boolean().default(false).describe(
    "List each tool's outputSchema in tools/list (left out by default: most clients never " +
      "use it; structuredContent is there either way)",
  ),
});

/** The `llm-mcp` command as the command-line machinery of the tools reads it. */
export const MCP_COMMAND: CommandSpec = {
  name: LLM_MCP,
  title: "every @llm/search tool as an MCP server on stdio",
  description: "Serves the tools of the registry over the Model Context Protocol on " +
    "stdin/stdout; logs go to stderr.",
  prefix: "MCP",
  input: McpServerSchema,
  cli: {
    usage: "[FLAGS]                          serve MCP on stdin/stdout (logs on stderr)\n" +
      "  llm-mcp log list|show ID [FLAGS]         the execution log (the same as llm-log)",
    notes: "The tools offered follow the Deno permissions of the process: with --allow-read only " +
      "the\nread-only tools; with --allow-write for the root too, the mutating ones as well.",
    examples: [
      "deno run -R jsr:@llm/search/mcp --root ~/src/app",
      "deno run -R --allow-write=.llm jsr:@llm/search/mcp --root .   # read-only, logged in .llm/log",
      "deno run -R jsr:@llm/search/mcp --tools context,search,symbols   # a subset",
      "deno run -R jsr:@llm/search/mcp log show 4d1c2f9e-0b7a-4c55-9a51-2f0f6f4c1e11",
    ],
    exitCodes:
      "  0 stdin closed  2 bad arguments  4 no read permission for the root  5 internal error",
    outputFlags: false,
  },
};
