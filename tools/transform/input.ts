/**
 * The input of `llm-transform`, declared once: its flags, its MCP arguments, its JSON Schema
 * and the fields `buildRequest` (request.ts) reads.
 *
 * @module
 */
import { z } from "zod";
import { EditArgumentSchema } from "../../schema/edit_plan.ts";
import { field } from "../../schema/fields.ts";
import { VALIDATION_MODES } from "./report.ts";

/** Input schema of `llm-transform`. */
export const TransformInput = z.object({
  plan: field(
    z.string().min(1).optional().describe(
      "Edit plan JSON file ({edits, file_checksums}), or - to read it from standard input",
    ),
    { path: true },
  ),
  edits: z.union([z.array(EditArgumentSchema), z.string()]).optional().describe(
    "Edits inline: [{file_path, byte_start, byte_end, new_text, expected_checksum?}] " +
      "(on the command line, as JSON text)",
  ),
  file_checksums: z.union([z.record(z.string(), z.string()), z.string()]).optional().describe(
    "Whole-file sha256: checksums the files must have, by file_path (on the command line, JSON)",
  ),
  file: field(z.string().min(1).optional().describe("File of a span edit or a replacement"), {
    path: true,
    aliases: ["path", "file_path"],
  }),
  span: z.string().optional().describe("Byte range START:END to replace (with file, with)"),
  with: z.string().optional().describe("New text for span (empty deletes)"),
  old: field(z.string().optional().describe("Exact text to replace (with file, new)"), {
    aliases: ["old_string", "old_str"],
  }),
  new: field(z.string().optional().describe("Text to put in place of old (empty deletes)"), {
    aliases: ["new_string", "new_str"],
  }),
  count: z.number().int().positive().optional().describe(
    "old must occur exactly N times; all are replaced [default: exactly once]",
  ),
  all: z.boolean().default(false).describe("Replace every occurrence of old (at least one)"),
  expect: z.string().optional().describe(
    "sha256: checksum the file must have (with span, the span's checksum is accepted too)",
  ),
  dry_run: z.boolean().default(false).describe(
    "Write nothing; show the unified diff and the would-be result (exit 1 when changes are pending)",
  ),
  validate: field(
    z.enum(VALIDATION_MODES).default("none").describe(
      "Gates on each changed file's new bytes before anything is written: syntax refuses an " +
        "edit that breaks a file's parse (tree-sitter, fast, no permission); all adds the " +
        "language's compiler (gcc, node --check, …) where it may run and refuses any failure; " +
        "none skips them",
    ),
    { bare: "all" },
  ),
  allow_build_scripts: z.boolean().default(false).describe(
    "With validate all, let the compiler gate run the project's own code where its full " +
      "check needs it (Rust: cargo check builds and runs build scripts and proc macros); " +
      "without it that check is skipped with a note",
  ),
  recover: z.boolean().default(false).describe(
    "Roll back (or finish) operations in the root that were killed midway",
  ),
  undo: z.string().optional().describe(
    "Restore the exact prior bytes of an earlier operation, given its execution_id",
  ),
  root: field(
    z.string().optional().describe(
      "Workspace root: relative paths start here and the journal lives in <root>/.llm/journal " +
        "[default: the current directory]",
    ),
    { path: true },
  ),
});

/** Input of `llm-transform`, as the run receives it after defaults. */
export type TransformInput = z.output<typeof TransformInput>;
