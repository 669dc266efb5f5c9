/**
 * The MCP server keeps the repository index in memory and fresh: a search call uses it, a file
 * edited between two calls is searched directly (its stamp changed), and a rebuilt index file
 * is read again.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { buildTrigramIndex } from "../core/trigram/build.ts";
import { makeTree } from "./helpers.ts";
import { connect } from "./mcp_helpers.ts";

interface SearchOutcome {
  structuredContent: {
    data: {
      match_count: number;
      index?: { used: boolean; postings: boolean; files_changed: number };
    };
  };
}

const FILES: Record<string, string> = {
  "src/a.c": "int x = PM_RESUME;\n",
  "src/b.c": "int y = PM_SUSPEND;\n",
  "docs/readme.txt": "nothing here\n",
};

function age(root: string, path: string, secondsAgo = 3600): void {
  const past = Date.now() / 1000 - secondsAgo;
  Deno.utimeSync(join(root, path), past, past);
}

Deno.test("the MCP server searches with the index and sees edits between calls", async () => {
  const root = await makeTree(FILES);
  Deno.mkdirSync(join(root, ".llm"));
  for (const path of [...Object.keys(FILES), "src", "docs", "."]) age(root, path);
  buildTrigramIndex({ root });
  const server = await connect({ root, permissions: [`--allow-read=${root}`] });
  const call = async () =>
    (await server.client.callTool({
      name: "search",
      arguments: { patterns: ["PM_RESUME"], count: true },
    }) as unknown as SearchOutcome).structuredContent.data;
  try {
    const first = await call();
    assert.equal(first.match_count, 1);
    assert.equal(first.index?.postings, true);
    Deno.writeTextFileSync(join(root, "docs/readme.txt"), "now PM_RESUME here\n");
    age(root, "docs/readme.txt", 1800);
    const second = await call();
    assert.equal(second.match_count, 2);
    assert.equal(second.index?.files_changed, 1);
    age(root, "docs/readme.txt");
    buildTrigramIndex({ root });
    const third = await call();
    assert.equal(third.match_count, 2);
    assert.equal(third.index?.files_changed, 0);
  } finally {
    await server.close();
    Deno.removeSync(root, { recursive: true });
  }
});
