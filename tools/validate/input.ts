/**
 * The input schema of `llm-validate` (which is also its flag set): the definition (`tool.ts`)
 * takes it, the run (`run.ts`) its type.
 *
 * @module
 */
import { z } from "zod";
import { field } from "../../schema/fields.ts";
import { VALIDATE_DEFAULTS } from "./defaults.ts";

/** Input schema of `llm-validate`. */
export const ValidateInput = z.object({
  path: field(
    z.string().min(1).describe(
      "The file the text is for (the first positional argument); its name gives the language " +
        "and its folder the context of includes and imports; it need not exist",
    ),
    { path: true, aliases: ["file", "file_path"] },
  ),
  content: field(
    z.string().optional().describe("The text to check [default: the file's bytes on disk]"),
    { aliases: ["text", "new_content"] },
  ),
  stdin: z.boolean().default(false).describe(
    "Read the text to check from standard input (command line only)",
  ),
  language: field(
    z.string().optional().describe("Language name or alias [default: from the file name]"),
    { short: "l" },
  ),
  gates: z.enum(["syntax", "all"]).default(VALIDATE_DEFAULTS.gates).describe(
    "syntax: the tree-sitter gate only; all: also the language's compiler where it may run",
  ),
  timeout_ms: z.number().int().positive().default(VALIDATE_DEFAULTS.timeoutMs).describe(
    "Time limit of each gate in milliseconds",
  ),
  allow_build_scripts: z.boolean().default(false).describe(
    "Let the compiler gate run the project's own code where its full check needs it (Rust: " +
      "cargo check builds and runs build scripts and proc macros); without it that check is " +
      "skipped with a note and no gate runs code of the project or of the text",
  ),
});

/** Input of `llm-validate`, as the engine receives it after defaults. */
export type ValidateInput = z.output<typeof ValidateInput>;
