/**
 * `llm-transform`: checksummed span edits and guarded replacements, all or nothing, with a
 * journal for `--undo` and `--recover`.
 *
 * ```sh
 * deno run --allow-read=. --allow-write=. jsr:@llm/search/transform \
 *   --file src/main.ts --old 'let x = 1;' --new 'const x = 1;'
 * ```
 *
 * @example
 * ```ts
 * import { applySpanEdits } from "@llm/search/transform";
 * const bytes = new TextEncoder().encode("hello world");
 * const { placed } = applySpanEdits(bytes, [{ index: 0, byte_start: 0, byte_end: 5, new_text: "hi" }]);
 * placed[0].new_end; // 2
 * ```
 *
 * @module
 */
import { runCli } from "../../core/cli.ts";
import { transformTool } from "./tool.ts";

export { transform } from "./engine.ts";
export {
  exitOf,
  TOOL_NAME,
  TRANSACTION_CODES,
  transformDiagnostic,
  type TransformOptions,
  type TransformReport,
} from "./report.ts";
export {
  applySpanEdits,
  type EditProblem,
  type PlacedEdit,
  sameBytes,
  type SpanEdit,
  type SpanEditResult,
} from "./spans.ts";
export {
  type ClosestLine,
  closestLine,
  describeOccurrences,
  findOccurrences,
  missNote,
} from "./replace.ts";
export {
  buildRequest,
  checkPlan,
  jsonPath,
  parseJsonText,
  type PlanRequest,
  type PlanSource,
  type ReplaceRequest,
  type RequestInput,
  type TransformRequest,
} from "./request.ts";
export { type ChangedRegion, unifiedDiff } from "./diff.ts";
export { type ResolvedPath, Workspace } from "./workspace.ts";
export { TransformEnvelopeSchema, transformTool } from "./tool.ts";

if (import.meta.main) Deno.exit(await runCli(transformTool, Deno.args));
