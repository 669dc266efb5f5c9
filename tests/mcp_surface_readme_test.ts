/**
 * The README's account of the MCP surface (its figures and the table of the default tools) is
 * the one `deno task surface` writes from a server of this checkout: regenerate it when a tool,
 * a description or an argument changes.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { currentBlock, MARKERS } from "../scripts/mcp_surface.ts";
import { REPO } from "./helpers.ts";

/** Markdown as text: `deno fmt` pads tables and rewraps prose, which says nothing new. */
function normalized(text: string): string {
  return text.replace(/-{3,}/g, "---").replace(/\s+/g, " ").trim();
}

Deno.test("the README shows the MCP surface as the server lists it (run `deno task surface`)", async () => {
  const readme = Deno.readTextFileSync(join(REPO, "README.md"));
  const start = readme.indexOf(MARKERS[0]);
  const end = readme.indexOf(MARKERS[1]);
  assert.ok(start >= 0 && end > start, "README.md has the mcp-surface markers");
  const shown = readme.slice(start + MARKERS[0].length, end);
  assert.equal(normalized(shown), normalized(await currentBlock()));
});
