/**
 * The command line of an entrypoint with a fast path and a full one whose definition loads by a
 * literal import (`llm-search`, `llm-discover`, `llm-transform`): Deno reads those graphs when the
 * program starts, so the full path needs no read permission for the package, which a run scoped
 * by `--allow-read=<root>` lacks. (`llm-symbols` names its full path by a computed specifier
 * instead, and does not load this module: its fast path reads no graph it does not run.)
 *
 * @module
 */
import { type FastCode, fastCommand, runFast } from "./cli_fast.ts";
import type { Tool } from "./tool.ts";

/**
 * An entrypoint's command line: the fast path when the table of `name` can check `args`, else
 * the full path with the definition `full` loads. An entrypoint passes `full` as a literal
 * `import("./tool.ts")`: Deno reads that module graph when the program starts, so it needs no
 * read permission (which a scoped `--allow-read=<root>` would not give), but runs it, and zod,
 * only when called.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runFastOrFull } from "./cli_entry.ts";
 * import { discoverTool } from "@llm/search";
 * const code = { run: () => Promise.reject(new Error("not run")) };
 * const full = () => Promise.resolve(discoverTool);
 * assert.equal(await runFastOrFull("llm-discover", code, ["--version"], full), 0); // the full path
 * ```
 */
export async function runFastOrFull<T>(
  name: string,
  code: FastCode<T>,
  args: string[],
  full: () => Promise<Tool>,
): Promise<number> {
  const command = fastCommand(name, code);
  const exitCode = command && await runFast(command, args);
  if (exitCode !== undefined) return exitCode;
  const [{ runCli }, tool] = await Promise.all([import("./cli.ts"), full()]);
  return await runCli(tool, args);
}
