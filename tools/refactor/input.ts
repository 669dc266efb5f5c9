/**
 * The inputs of the `llm-refactor` subcommands, declared once each: their flags, their MCP
 * arguments and their JSON Schema. The fields every edit shares (how the symbol is named, the
 * preview, the gates, the checksums) are declared here once and spread into each.
 *
 * @module
 */
import { z } from "zod";
import { field } from "../../schema/fields.ts";
import { REFACTOR_DEFAULTS } from "./defaults.ts";

/** How an operation names its symbol. */
const symbolFields = {
  symbol: field(
    z.string().min(1).optional().describe(
      "Name (or qualified name, e.g. Parser.parse) of the definition to act on",
    ),
    { aliases: ["name"] },
  ),
  symbol_id: z.string().regex(/^[0-9a-f]{16}$/, "expected 16 hex digits").optional().describe(
    "symbol_id of the definition (from llm-symbols), instead of its name",
  ),
  file: field(
    z.string().min(1).optional().describe("File of the definition, when several have the name"),
    { path: true, aliases: ["file_path", "path"] },
  ),
  kind: z.string().min(1).optional().describe(
    "Kind of the definition (function, method, class, …), when several have the name",
  ),
};

/** What every edit shares: the preview, the gates, the checksums, the root. */
const runFields = {
  dry_run: z.boolean().optional().describe(
    "Preview: a unified diff of every change, nothing written (exit 1 when changes are " +
      "pending) [default: false on the command line, true for MCP clients]",
  ),
  gates: z.enum(["all", "syntax"]).default(REFACTOR_DEFAULTS.gates).describe(
    "Validation before writing: all = syntax gate, then the compiler when the run may start " +
      "it; syntax = the syntax gate only",
  ),
  allow_build_scripts: z.boolean().default(false).describe(
    "Let the compiler gate run the project's own code where its full check needs it (Rust: " +
      "cargo check builds and runs build scripts and proc macros); without it that check is " +
      "skipped with a note",
  ),
  expected_checksums: field(
    z.array(z.string().regex(/^[^=]+=(sha256:)?[0-9a-fA-F]{64}$/, "expected PATH=sha256:<hex>"))
      .default([]).describe("PATH=sha256:… the file must hold before the edit (repeatable)"),
    { aliases: ["expect"] },
  ),
  with_diff: z.boolean().default(false).describe("Include the unified diff in an applied run"),
  refresh: z.enum(["all", "involved"]).default(REFACTOR_DEFAULTS.refresh).describe(
    "Bring the whole symbol index up to date first, or only the files the name involves " +
      "(faster on a large tree)",
  ),
  root: field(
    z.string().optional().describe(
      "Workspace root: paths are relative to it; the index and journal live in <root>/.llm " +
        "[default: the current directory]",
    ),
    { path: true },
  ),
};

/** Where new text comes from: an argument, a file, or standard input. */
const textFields = {
  text: field(
    z.string().optional().describe("The new text itself"),
    { aliases: ["content", "new_text"] },
  ),
  with: field(
    z.string().min(1).optional().describe("File holding the new text, or - for standard input"),
    { path: true },
  ),
};

/** Input schema of `llm-refactor rename`. */
export const RenameInput = z.object({
  ...symbolFields,
  to: field(z.string().min(1).describe("The new name"), { aliases: ["new_name"] }),
  proof: z.boolean().default(false).describe(
    "Check and report the proof: the symbol graph before and after (reference count " +
      "preserved, no orphaned reference, other symbols' ids unchanged)",
  ),
  ...runFields,
});

/** Input schema of `llm-refactor patch`. */
export const PatchInput = z.object({ ...symbolFields, ...textFields, ...runFields });

/** Input schema of `llm-refactor delete`. */
export const DeleteInput = z.object({
  ...symbolFields,
  force: z.boolean().default(false).describe("Delete even when references remain"),
  ...runFields,
});

/** Input schema of `llm-refactor insert`. */
export const InsertInput = z.object({
  ...symbolFields,
  ...textFields,
  before: z.boolean().default(false).describe(
    "Insert before the symbol (with its doc comment) instead of after it",
  ),
  after: z.boolean().default(false).describe("Insert after the symbol (the default)"),
  ...runFields,
});

/** Input schema of `llm-refactor plan`. */
export const PlanInput = z.object({
  plan: field(
    z.string().min(1).optional().describe(
      "Plan JSON file ({steps: [{op, symbol, to|with|force|before}]}), or - for standard input",
    ),
    { path: true },
  ),
  steps: z.union([z.array(z.looseObject({})), z.string()]).optional().describe(
    "The steps inline: [{op: rename|patch|delete|insert, symbol, file?, kind?, to?, with?, " +
      "before?, force?}] (on the command line, as JSON text)",
  ),
  ...runFields,
});

/** Input schema of `llm-refactor undo`. */
export const UndoInput = z.object({
  execution_id: field(
    z.string().min(1).optional().describe(
      "execution_id of the refactor to undo [default: the newest refactor of the root]",
    ),
    { aliases: ["id"] },
  ),
  dry_run: z.boolean().optional().describe(
    "Preview the restoration [default: false on the command line, true for MCP clients]",
  ),
  root: runFields.root,
});

/** Input schema of `llm-refactor recover`. */
export const RecoverInput = z.object({
  dry_run: z.boolean().default(false).describe("List interrupted operations; change nothing"),
  root: runFields.root,
});

/** Input schema of `llm-refactor log`. */
export const LogInput = z.object({
  limit: z.number().int().nonnegative().default(20).describe("Runs to list, newest first (0: all)"),
  root: runFields.root,
});
