/**
 * `llm-refactor`: symbol-level rename, patch, delete, insert and plans of them, resolved
 * through the symbol index, checked by the syntax and compiler gates, and written all or
 * nothing with a journal (`undo EXECUTION_ID` restores the exact bytes).
 *
 * @example Preview a rename from a program
 * ```ts
 * import assert from "node:assert/strict";
 * import { refactor } from "@llm/search/refactor";
 * const root = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${root}/a.py`, "def f():\n    return 1\n\nprint(f())\n");
 * const report = await refactor(
 *   { kind: "edit", operation: "rename", steps: [{ op: "rename", target: { symbol: "f" }, to: "g" }] },
 *   { root, cwd: root, executionId: crypto.randomUUID(), dryRun: true, gates: "syntax", refresh: "all" },
 * );
 * assert.equal(report.exitCode, 1); // a dry run: the rename is pending, no file changed
 * await Deno.remove(root, { recursive: true });
 * ```
 *
 * @module
 */
import { runCli } from "../../core/cli.ts";
import { failureEnvelope } from "../../core/failure.ts";
import { closestNames } from "../../grammars/query.ts";
import { ToolError } from "../../schema/diagnostic.ts";
import { newId } from "../../schema/ids.ts";
import { VERSION } from "../../core/version.ts";
import { LLM_REFACTOR } from "../../schema/tool_names.ts";
import { REFACTOR_SUBCOMMANDS } from "./tool.ts";

export {
  refactor,
  type RefactorOptions,
  type RefactorReport,
  type RefactorRequest,
} from "./engine.ts";
export {
  REFACTOR_SUBCOMMANDS,
  refactorDeleteTool,
  refactorInsertTool,
  refactorLogTool,
  refactorPatchTool,
  refactorPlanTool,
  refactorRecoverTool,
  refactorRenameTool,
  refactorUndoTool,
} from "./tool.ts";
export type { Step } from "./ops.ts";
export type { TargetSpec } from "./target.ts";

/** The `--help` of `llm-refactor` without a subcommand. */
export function refactorHelp(): string {
  const rows = Object.entries(REFACTOR_SUBCOMMANDS).map(([name, tool]) =>
    `  ${name.padEnd(9)} ${tool.title}`
  );
  return [
    `${LLM_REFACTOR} ${VERSION} — symbol-level edits that compile afterwards or never land`,
    "",
    "USAGE:",
    `  ${LLM_REFACTOR} SUBCOMMAND [FLAGS] [ARGS]`,
    `  ${LLM_REFACTOR} SUBCOMMAND --help`,
    "",
    "SUBCOMMANDS:",
    ...rows,
    "",
    "Edits need --allow-read --allow-write=<root> (the index and journal live in <root>/.llm);",
    "--allow-run=<compilers> turns the compiler gates on.",
    "",
  ].join("\n");
}

/** Runs `llm-refactor` with `args` (subcommand first) and returns the exit code. */
export async function runRefactor(args: string[]): Promise<number> {
  const [first, ...rest] = args;
  const tool = first === undefined ? undefined : REFACTOR_SUBCOMMANDS[first];
  if (tool) return await runCli(tool, rest);
  if (first === undefined || first === "--help" || first === "-h" || first === "help") {
    await Deno.stdout.write(new TextEncoder().encode(refactorHelp()));
    return first === undefined ? 2 : 0;
  }
  if (first === "--version" || first === "-V") {
    await Deno.stdout.write(new TextEncoder().encode(`${LLM_REFACTOR} ${VERSION}\n`));
    return 0;
  }
  const names = Object.keys(REFACTOR_SUBCOMMANDS);
  const close = closestNames(first, names, 1);
  const error = new ToolError(
    "SPL-ARG-001",
    `unknown subcommand '${first}'${close.length ? `; did you mean '${close[0]}'?` : ""}`,
    { note: `subcommands: ${names.join(", ")}` },
  );
  const info = { name: LLM_REFACTOR, kind: "mutation" as const, mcpName: LLM_REFACTOR };
  const envelope = failureEnvelope(info, error, newId());
  await Deno.stdout.write(new TextEncoder().encode(JSON.stringify(envelope) + "\n"));
  console.error(`${LLM_REFACTOR}: ${error.code}: ${error.message}`);
  return error.exitCode;
}

if (import.meta.main) Deno.exit(await runRefactor(Deno.args));
