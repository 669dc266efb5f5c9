/**
 * `llm-validate` as a library function: resolve the file inside the root, take the candidate
 * text (given, or the file's bytes on disk) and run the validation gates on it. Nothing is
 * written, ever: the gates read the text on standard input or from a hidden copy they remove.
 *
 * @module
 */
import { resolve } from "../../core/path_syntax.ts";
import { type GateSelection, validateFile } from "../../core/gates/mod.ts";
import { displayPath, isInside, realPathOf } from "../../core/paths.ts";
import { readInputBytes } from "../../core/input_file.ts";
import { wellFormedInput } from "../../core/text_input.ts";
import type { RunCache } from "../../core/cache.ts";
import { type Diagnostic, ToolError } from "../../schema/diagnostic.ts";
import { gateCode } from "../../schema/error_codes.ts";
import type { ValidateData } from "../../schema/gates.ts";
import { VALIDATE_DEFAULTS } from "./defaults.ts";

/** Options of {@linkcode validate}. */
export interface ValidateOptions {
  /** The root (and the directory a relative `path` starts from). */
  cwd: string;
  /** The file the text is for; it need not exist when `content` is given. */
  path: string;
  /**
   * The candidate text, or its exact bytes (standard input's, which need not be UTF-8);
   * default: the file's bytes on disk.
   */
  content?: string | Uint8Array;
  /** Registry language name or alias; default: from the file name. */
  language?: string;
  /** Which gates run; default `all`. */
  gates?: GateSelection;
  /** Time limit of each gate in milliseconds. */
  timeoutMs?: number;
  /** Let a compiler gate run the project's build scripts and proc macros (cargo). */
  allowBuildScripts?: boolean;
  /** Stops the run and the compiler it started. */
  signal?: AbortSignal;
  /** Cache of a long-lived host. */
  cache?: RunCache;
}

/** What {@linkcode validate} answers. */
export interface ValidateOutcome {
  /** The verdict and each gate's outcome. */
  data: ValidateData;
  /** The gates' diagnostics, in contract order. */
  diagnostics: Diagnostic[];
}

/** The root-relative path of `path`, which must lie inside the root (links resolved). */
function rootRelative(cwd: string, path: string): { root: string; filePath: string } {
  const root = realPathOf(cwd);
  const target = realPathOf(resolve(cwd, path));
  if (!isInside(root, target)) {
    throw new ToolError(gateCode("LMV", "outsideRoot"), `${path} lies outside the root`, {
      file: path,
    });
  }
  return { root, filePath: displayPath(root, target) };
}

/**
 * Runs the validation gates on text meant for `path` and says whether it is approved.
 *
 * @example Check a snippet of Python before writing it
 * ```ts
 * import assert from "node:assert/strict";
 * import { validate } from "./engine.ts";
 * const { data } = await validate({
 *   cwd: Deno.cwd(), path: "snippet.py", content: "def f(:\n  pass\n", gates: "syntax",
 * });
 * assert.equal(data.status, "rejected");
 * ```
 */
export async function validate(options: ValidateOptions): Promise<ValidateOutcome> {
  const { root, filePath } = rootRelative(options.cwd, options.path);
  // The file's own bytes, not its text encoded again: an invalid byte read as U+FFFD would
  // grow to three, and every position after it would miss the file on disk.
  const bytes = options.content === undefined
    ? readInputBytes("LMV", options.cwd, options.path, "file")
    : typeof options.content === "string"
    ? new TextEncoder().encode(wellFormedInput("LMV", options.content, "content"))
    : options.content;
  const report = await validateFile({
    root,
    filePath,
    language: options.language,
    bytes,
    gates: options.gates ?? VALIDATE_DEFAULTS.gates,
    timeoutMs: options.timeoutMs ?? VALIDATE_DEFAULTS.timeoutMs,
    allowBuildScripts: options.allowBuildScripts ?? false,
    signal: options.signal,
    prefix: "LMV",
    cache: options.cache,
  });
  return {
    data: {
      count: report.diagnostics.length,
      file_path: filePath,
      language: report.language,
      status: report.approved ? "approved" : "rejected",
      gates: report.gates,
    },
    diagnostics: report.diagnostics,
  };
}
