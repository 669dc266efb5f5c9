/**
 * The input of `llm-write`, declared once: its flags, its MCP arguments, its JSON Schema and
 * the fields `buildWriteRequest` (request.ts) reads.
 *
 * @module
 */
import { z } from "zod";
import { field } from "../../schema/fields.ts";
import { WRITE_DEFAULTS } from "./defaults.ts";

/** Input schema of `llm-write`. */
export const WriteInput = z.object({
  path: field(
    z.string().min(1).optional().describe(
      "File to create, relative to the root; its content comes from content (or standard input)",
    ),
    { path: true, aliases: ["file", "file_path"] },
  ),
  content: field(
    z.string().optional().describe("The whole content of the file at path (UTF-8)"),
    { aliases: ["text", "contents"] },
  ),
  files: z.union([
    z.array(z.looseObject({
      file_path: z.string().optional(),
      path: z.string().optional(),
      content: z.string().optional(),
      overwrite: z.boolean().optional(),
      expected_checksum: z.string().optional(),
    })),
    z.string(),
  ]).optional().describe(
    "Several files at once, all or nothing: [{file_path, content, overwrite?, " +
      "expected_checksum?}] (on the command line, as JSON text)",
  ),
  plan: field(
    z.string().min(1).optional().describe(
      "Write plan JSON file ({files: [{file_path, content, …}]}), or - for standard input",
    ),
    { path: true },
  ),
  overwrite: z.boolean().default(WRITE_DEFAULTS.overwrite).describe(
    "Replace path when it exists; needs expected_checksum, the sha256 of the file replaced",
  ),
  expected_checksum: field(
    z.string().optional().describe("sha256: the existing file at path must have (overwrite)"),
    { aliases: ["expect"] },
  ),
  validate_only: z.boolean().default(WRITE_DEFAULTS.validate_only).describe(
    "Run the gates and report approved/rejected; write nothing",
  ),
  allow_build_scripts: z.boolean().default(false).describe(
    "Let the compiler gate run the project's own code where its full check needs it (Rust: " +
      "cargo check builds and runs build scripts and proc macros); without it that check is " +
      "skipped with a note and no gate runs code of the project or of the content",
  ),
  undo: z.string().optional().describe(
    "Undo an earlier write (remove the files it created, restore those it overwrote), " +
      "given its execution_id",
  ),
  root: field(
    z.string().optional().describe(
      "Workspace root: paths are relative to it and must stay inside it; the journal lives in " +
        "<root>/.llm/journal [default: the current directory]",
    ),
    { path: true },
  ),
});

/** Input of `llm-write`, as the run receives it after defaults. */
export type WriteInput = z.output<typeof WriteInput>;
