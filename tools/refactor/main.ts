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
import { definitionCode } from "../../core/cli.ts";
import { runSubcommand, type SubcommandProgram, subcommandsHelp } from "../../core/subcommands.ts";
import { LLM_REFACTOR } from "../../schema/tool_names.ts";
import { REFACTOR_SUBCOMMANDS } from "./tool.ts";
import TABLES from "../../core/tables/refactor.json" with { type: "json" };

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

/** `llm-refactor` as a program of subcommands. */
const REFACTOR_PROGRAM: SubcommandProgram = {
  name: LLM_REFACTOR,
  summary: "symbol-level edits that compile afterwards or never land",
  // Parsed by their command tables; run by the definitions this module exports anyway.
  subcommands: Object.fromEntries(
    Object.entries(REFACTOR_SUBCOMMANDS).map(([name, tool]) => [name, definitionCode(tool)]),
  ),
  tables: TABLES,
  column: 9,
  notes: [
    "Edits need --allow-read --allow-write=<root> (the index and journal live in <root>/.llm);",
    "--allow-run=<compilers> turns the compiler gates on.",
  ],
  kind: "mutation",
  unknownCode: "SPL-ARG-001",
};

/** The `--help` of `llm-refactor` without a subcommand. */
export function refactorHelp(): string {
  return subcommandsHelp(REFACTOR_PROGRAM);
}

/** Runs `llm-refactor` with `args` (subcommand first) and returns the exit code. */
export async function runRefactor(args: string[]): Promise<number> {
  return await runSubcommand(REFACTOR_PROGRAM, args);
}

if (import.meta.main) Deno.exit(await runRefactor(Deno.args));
