import assert from "node:assert/strict";
import { mcpToolName } from "../../core/execution_log.ts";
import { parseTime } from "./tool.ts";

Deno.test("llm-log: --since/--until take ISO 8601 or an age, nothing else", () => {
  const now = new Date("2026-11-23T12:00:00Z");
  assert.equal(parseTime("30m", now)?.toISOString(), "2026-11-23T11:30:00.000Z");
  assert.equal(parseTime("7d", now)?.toISOString(), "2026-11-16T12:00:00.000Z");
  assert.equal(parseTime("2026-11-23", now)?.toISOString(), "2026-11-23T00:00:00.000Z");
  assert.equal(
    parseTime("2026-11-23T10:00:00+02:00", now)?.toISOString(),
    "2026-11-23T08:00:00.000Z",
  );
  for (const bad of ["yesterday", "5", "2h ago", "1w", "2026-13-45", ""]) {
    assert.equal(parseTime(bad, now), undefined, bad);
  }
});

Deno.test("llm-log: --tool takes the command name or the MCP name", () => {
  assert.equal(mcpToolName("llm-transform"), "transform");
  assert.equal(mcpToolName("llm-ast-search"), "ast_search");
  assert.equal(mcpToolName("ast_search"), "ast_search");
  assert.equal(mcpToolName("get_execution"), "get_execution");
});
