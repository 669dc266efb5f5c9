/**
 * The `llm-transform` tool definition: its input schema (also its flag set and its MCP
 * arguments), its output schema, and the run function that calls the engine.
 *
 * @module
 */
import { z } from "zod";
import { defineTool, type Tool } from "../../core/tool.ts";
import { type MutationEnvelope, mutationEnvelopeSchema } from "../../schema/envelope.ts";
import {
  CompactTransformEnvelopeSchema,
  type TransformOutput,
  TransformOutputSchema,
} from "../../schema/transform.ts";
import { transformCompact } from "./compact.ts";
import { TransformInput } from "./input.ts";
import { renderText, runTransform } from "./run.ts";
import { LLM_TRANSFORM } from "../../schema/tool_names.ts";

/** Output schema of `llm-transform`. */
export const TransformEnvelopeSchema: z.ZodType<MutationEnvelope<TransformOutput>> =
  mutationEnvelopeSchema(TransformOutputSchema);

/**
 * The `llm-transform` tool.
 *
 * @example See what llm-transform needs
 * ```ts
 * import assert from "node:assert/strict";
 * import { transformTool } from "@llm/search";
 * assert.equal(transformTool.kind, "mutation");
 * assert.deepEqual(transformTool.permissions, ["read", "write"]);
 * ```
 */
export const transformTool: Tool = defineTool({
  name: LLM_TRANSFORM,
  mcpName: "transform",
  title: "Checksummed span edits and guarded replacements",
  description:
    "Change files safely: apply byte-span edits (from llm-search / llm-ast-search spans) or " +
    "replace an exact text that must occur exactly once (str_replace), verified against " +
    "sha256 checksums, all or nothing across files, with a journal for undo and recover. " +
    "Every result reports each edit's status and its new span in the new file (the full " +
    'form, detail: "full", adds the old spans and the checksums); its execution_id is what ' +
    "undo takes. Use dry_run to preview a unified diff.",
  example: { file: "src/main.ts", old: "let x = 1;", new: "const x = 1;", dry_run: true },
  mcp: {
    description: "Edits files: replace a text that occurs once, or apply byte-span edits from " +
      "search, checksum-checked, all or nothing, undoable. Prefer it to the " +
      "client's edit for multi-file or span-exact changes.",
    unlisted: [
      "root",
      "allow_build_scripts",
      "plan",
      "recover",
      "file_checksums",
      "expect",
      "all",
      "count",
    ],
  },
  prefix: "LMT",
  kind: "mutation",
  operationType: "edit",
  permissions: ["read", "write"],
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
  input: TransformInput,
  output: TransformEnvelopeSchema,
  text: (envelope) => renderText(envelope),
  compact: { form: transformCompact, output: CompactTransformEnvelopeSchema },
  cli: {
    usage: "--plan FILE|-\n" +
      "  llm-transform --file P --span START:END --with TEXT [--expect sha256:…]\n" +
      "  llm-transform --file P --old TEXT --new TEXT [--count N | --all] [--expect sha256:…]\n" +
      "  llm-transform --recover | --undo EXECUTION_ID",
    examples: [
      "llm-transform --plan edits.json --dry-run --format text",
      "llm-search -F --with-checksums 'oldName' --format json | my-agent > plan.json && " +
      "llm-transform --plan plan.json",
      "llm-transform --file src/main.ts --span 120:127 --with newName --expect sha256:…",
      "llm-transform --file src/main.ts --old 'let x = 1;' --new 'const x = 1;'",
      "llm-transform --file README.md --old 'colour' --new 'color' --all",
      "llm-transform --undo 0b7c6a1e-5f0e-4c3e-9a57-2b8f2f0d7c11",
      "deno run --allow-read=. --allow-write=. jsr:@llm/search/transform --recover",
    ],
  },
  run: runTransform,
});
