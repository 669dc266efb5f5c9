/**
 * The validation gates: given a file's path, language and candidate bytes, say whether the
 * bytes may land, with diagnostics an agent can fix from (contract §7). `llm-write`,
 * `llm-transform --validate` and the `validate` tool all call {@linkcode validateFile}.
 *
 * The syntax gate (tree-sitter, no permission) runs for every language with a grammar; the
 * compiler gate runs the language's own checker where it is on PATH and `--allow-run` allows
 * it. A gate that cannot run is `skipped` with a `note` diagnostic saying why; it neither
 * approves nor rejects.
 *
 * @module
 */
import { basename } from "node:path";
import { languageByName, languageForFile } from "../../grammars/languages.ts";
import { type Diagnostic, makeDiagnostic, ToolError } from "../../schema/diagnostic.ts";
import { gateCode, type GatePrefix } from "../../schema/error_codes.ts";
import type { GateOutcome, GateReport } from "../../schema/gates.ts";
import { sha256 } from "../../schema/checksum.ts";
import type { RunCache } from "../cache.ts";
import { SYNTAX_TOOL, syntaxGate, type SyntaxOutcome } from "./syntax.ts";

/** Default time limit of one gate, in milliseconds. */
export const GATE_TIMEOUT_MS = 30_000;

/** Which gates to run: the syntax gate only, or every gate of the language. */
export type GateSelection = "syntax" | "all";

/** What {@linkcode validateFile} checks. */
export interface ValidateOptions {
  /** The workspace root, absolute. */
  root: string;
  /** The target file, relative to `root` with `/` separators (it need not exist). */
  filePath: string;
  /** Registry language name or alias; default: from the file name. */
  language?: string;
  /** The candidate bytes. */
  bytes: Uint8Array;
  /** Which gates run; default `all`. */
  gates?: GateSelection;
  /** Time limit of each gate in milliseconds; default {@linkcode GATE_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** Stops the run (and kills a running compiler): the call then rejects with the reason. */
  signal?: AbortSignal;
  /** Prefix of the codes: the tool that asks (default `LFW`). */
  prefix?: GatePrefix;
  /** Cache of a long-lived host: gate results by content hash. */
  cache?: RunCache;
}

/** Diagnostics in contract order: (file, line, column, level, message). */
export function sortDiagnostics(diagnostics: Diagnostic[]): Diagnostic[] {
  const levelRank = { error: 0, warning: 1, note: 2 };
  const key = (d: Diagnostic) =>
    [d.file ?? "", d.line ?? 0, d.column ?? 0, levelRank[d.level], d.message] as const;
  return diagnostics.sort((a, b) => {
    const [ka, kb] = [key(a), key(b)];
    for (let i = 0; i < ka.length; i++) {
      if (ka[i] < kb[i]) return -1;
      if (ka[i] > kb[i]) return 1;
    }
    return 0;
  });
}

/** The registry name of the file's language, or `undefined` when none is known. */
function resolveLanguage(options: ValidateOptions, prefix: GatePrefix): string | undefined {
  if (options.language === undefined) return languageForFile(basename(options.filePath))?.name;
  const info = languageByName(options.language);
  if (!info) {
    throw new ToolError(
      gateCode(prefix, "unknownLanguage"),
      `unknown language: ${options.language}`,
      { file: options.filePath },
    );
  }
  return info.name;
}

/** The syntax gate's outcome, from the cache when the same bytes were checked before. */
async function cachedSyntaxGate(
  options: ValidateOptions,
  language: string,
  prefix: GatePrefix,
): Promise<SyntaxOutcome> {
  const checksum = sha256(options.bytes);
  const namespace = `gate:syntax:${language}:${prefix}:${options.filePath}`;
  const stamp = { size: options.bytes.length, mtimeMs: 0, checksum };
  const hit = options.cache?.get<SyntaxOutcome>(namespace, checksum, stamp);
  if (hit) return hit;
  const outcome = await syntaxGate({
    language,
    filePath: options.filePath,
    bytes: options.bytes,
    prefix,
    timeoutMs: options.timeoutMs ?? GATE_TIMEOUT_MS,
  });
  options.cache?.set(namespace, checksum, stamp, outcome);
  return outcome;
}

/** A `note` diagnostic saying a gate did not run and why. */
function skipNote(
  prefix: GatePrefix,
  filePath: string,
  tool: string,
  reason: string,
): Diagnostic {
  return makeDiagnostic(tool, gateCode(prefix, "syntaxSkipped"), `syntax gate skipped: ${reason}`, {
    level: "note",
    file: filePath,
  });
}

/**
 * Runs the gates on candidate bytes for `filePath` and answers whether they are approved. It
 * never writes the target file; a compiler gate checks a hidden temporary copy beside it (so
 * includes and imports resolve) and removes it. Bad input (an unknown `language`) throws a
 * {@linkcode ToolError}; a gate that cannot run is reported, not thrown.
 *
 * @example Reject a C file with a missing parenthesis
 * ```ts
 * import { validateFile } from "./mod.ts";
 * const report = await validateFile({
 *   root: "/repo", filePath: "src/main.c", gates: "syntax",
 *   bytes: new TextEncoder().encode("int main( { return 0; }\n"),
 * });
 * report.approved; // false
 * ```
 */
export async function validateFile(options: ValidateOptions): Promise<GateReport> {
  const prefix = options.prefix ?? "LFW";
  options.signal?.throwIfAborted();
  const language = resolveLanguage(options, prefix);
  if (language === undefined) {
    const reason = `no language is known for ${basename(options.filePath)}`;
    return {
      language: "unknown",
      approved: true,
      diagnostics: [skipNote(prefix, options.filePath, SYNTAX_TOOL, reason)],
      gates: [{ name: "syntax", status: "skipped", reason, duration_ms: 0 }],
    };
  }
  const started = performance.now();
  const syntax = await cachedSyntaxGate(options, language, prefix);
  const outcome: GateOutcome = {
    name: "syntax",
    status: syntax.status,
    duration_ms: Math.round(performance.now() - started),
  };
  const diagnostics = syntax.status === "skipped"
    ? [skipNote(prefix, options.filePath, SYNTAX_TOOL, syntax.reason)]
    : [...syntax.diagnostics];
  if (syntax.status === "skipped") outcome.reason = syntax.reason;
  const gates = [outcome];
  return {
    language,
    approved: gates.every((gate) => gate.status !== "failed"),
    diagnostics: sortDiagnostics(diagnostics),
    gates,
  };
}
