/**
 * A command-line run whose reader goes away (`llm-mcp log show ID | head -1`) stops quietly:
 * no BrokenPipe stack trace on stderr and exit status 0, as ripgrep does. Tested through a
 * real shell pipe, with an output far larger than the pipe's buffer.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type ExecutionRecord, queryEnvelope } from "../schema/mod.ts";
import { ExecutionLog } from "../core/execution_log.ts";
import { REPO } from "./helpers.ts";

/** A logged search call whose envelope is about `bytes` long. */
function bigRecord(bytes: number): ExecutionRecord {
  const matches = Array.from(
    { length: bytes / 1_000 },
    (_, line) => ({ line, text: "x".repeat(990) }),
  );
  const envelope = queryEnvelope("llm-search", { count: matches.length, matches }, []);
  return {
    execution_id: envelope.execution_id,
    tool: "search",
    arguments: { patterns: ["x"] },
    timestamp: envelope.timestamp,
    duration_ms: 1,
    status: envelope.status,
    envelope,
  };
}

/** Runs `llm-mcp log show … | reader` in bash; the writer's exit status and stderr. */
async function pipeTo(reader: string, args: string[]): Promise<{ code: number; stderr: string }> {
  // As a user types it: Deno finds the checkout's deno.json from the entrypoint's folder.
  const entry = join(REPO, "tools", "mcp", "main.ts");
  const writer = ["deno", "run", "--quiet", "-R", entry, "log", "show", ...args]
    .map((word) => `'${word}'`).join(" ");
  const script = `${writer} 2>"$ERRORS" | ${reader} >/dev/null; echo "\${PIPESTATUS[0]}"`;
  const errors = await Deno.makeTempFile();
  try {
    const output = await new Deno.Command("bash", {
      args: ["-c", script],
      env: { ERRORS: errors },
      stdout: "piped",
      stderr: "inherit",
    }).output();
    return {
      code: Number(new TextDecoder().decode(output.stdout).trim()),
      stderr: await Deno.readTextFile(errors),
    };
  } finally {
    await Deno.remove(errors);
  }
}

Deno.test("cli: `llm-mcp log show ID | head` stops quietly when the reader closes the pipe", async (t) => {
  const dir = await Deno.makeTempDir();
  try {
    const record = bigRecord(2_000_000);
    new ExecutionLog({ dir, maxFileBytes: 16_000_000, warn: (d) => assert.fail(d.message) })
      .record(record);
    const show = [record.execution_id, "--log-dir", dir];
    for (
      const [reader, args] of [
        ["head -1", [...show, "--format", "jsonl"]],
        ["head -1", [...show, "--format", "text"]],
        ["head -c 100", show],
      ] as const
    ) {
      await t.step(`${args.slice(3).join(" ") || "json"} | ${reader}`, async () => {
        const { code, stderr } = await pipeTo(reader, [...args]);
        assert.equal(stderr, "", "nothing on stderr");
        assert.equal(code, 0, "exit status");
      });
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
