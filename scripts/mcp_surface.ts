/**
 * `deno task surface`: starts `llm-mcp` with every permission on an empty folder, reads its
 * `tools/list` answer and instructions, and writes their account (`surfaceBlock`) into the
 * README between the `mcp-surface` markers. `tests/mcp_surface_test.ts` fails while it is stale.
 *
 * @module
 */
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { type ListedTool, surfaceBlock } from "../tools/mcp/surface.ts";

const REPO = new URL("..", import.meta.url).pathname;
const README = join(REPO, "README.md");
/** The markers around the generated block in the README. */
export const MARKERS = ["<!-- mcp-surface:start -->", "<!-- mcp-surface:end -->"] as const;

/** The block the README should hold now, from a server of this checkout. */
export async function currentBlock(): Promise<string> {
  const root = Deno.makeTempDirSync({ prefix: "llm-mcp-surface-" });
  const transport = new StdioClientTransport({
    command: "deno",
    args: [
      "run",
      "--quiet",
      `--config=${join(REPO, "deno.json")}`,
      "--allow-all",
      join(REPO, "tools/mcp/main.ts"),
      "--root",
      root,
    ],
    cwd: root,
    stderr: "pipe",
  });
  const client = new Client({ name: "surface", version: "1.0.0" });
  try {
    await client.connect(transport);
    const listing = await client.listTools() as { tools: ListedTool[] };
    return surfaceBlock(listing, client.getInstructions() ?? "");
  } finally {
    await client.close();
    Deno.removeSync(root, { recursive: true });
  }
}

if (import.meta.main) {
  const text = Deno.readTextFileSync(README);
  const start = text.indexOf(MARKERS[0]);
  const end = text.indexOf(MARKERS[1]);
  if (start < 0 || end < start) throw new Error(`README.md has no ${MARKERS.join(" … ")} block`);
  const block = await currentBlock();
  Deno.writeTextFileSync(
    README,
    `${text.slice(0, start + MARKERS[0].length)}\n\n${block}\n\n${text.slice(end)}`,
  );
  console.log("wrote the MCP surface into README.md");
}
