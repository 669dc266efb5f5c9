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
import { basename, dirname, join } from "../path_syntax.ts";
import { languageByName, languageForFile } from "../../grammars/languages.ts";
import { type Diagnostic, makeDiagnostic, ToolError } from "../../schema/diagnostic.ts";
import { gateCode, type GatePrefix } from "../../schema/error_codes.ts";
import type { GateOutcome, GateReport } from "../../schema/gates.ts";
import { sha256 } from "../../schema/checksum.ts";
import type { RunCache } from "../cache.ts";
import { isInside, realPathOf } from "../paths.ts";
import { parse as parseToml, TomlError } from "smol-toml";
import { syntaxGate, type SyntaxOutcome } from "./syntax.ts";
import { SYNTAX_TOOL } from "./refusal.ts";
import { type Checker, checkerFor } from "./checkers.ts";
import { type GateResult, runChecker } from "./compiler.ts";

/**
 * Default time limit of one gate, in milliseconds: a cold `javac` or `deno check` takes seconds.
 *
 * @example Give a slow compiler longer
 * ```ts
 * import assert from "node:assert/strict";
 * import { GATE_TIMEOUT_MS } from "@llm/search";
 * assert.equal(GATE_TIMEOUT_MS, 30_000);
 * ```
 */
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
  /**
   * Let a compiler gate run the project's own code where its full check needs it (cargo
   * builds and runs build scripts and proc macros); without it such a check is skipped with a
   * note. Default false: no gate runs code of the project or of the text.
   */
  allowBuildScripts?: boolean;
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
  const check = {
    language,
    filePath: options.filePath,
    bytes: options.bytes,
    prefix,
    timeoutMs: options.timeoutMs ?? GATE_TIMEOUT_MS,
  };
  if (!options.cache) return syntaxGate(check);
  const checksum = sha256(options.bytes);
  const namespace = `gate:syntax:${language}:${prefix}:${options.filePath}`;
  const version = { size: options.bytes.length, mtimeMs: 0, checksum };
  const hit = options.cache.get<SyntaxOutcome>(namespace, checksum, version);
  if (hit) return hit;
  const outcome = await syntaxGate(check);
  options.cache.set(namespace, checksum, version, outcome);
  return outcome;
}

/** A `note` diagnostic saying the syntax gate did not run and why. */
function skipNote(prefix: GatePrefix, filePath: string, reason: string): Diagnostic {
  return makeDiagnostic(
    SYNTAX_TOOL,
    gateCode(prefix, "syntaxSkipped"),
    `syntax gate skipped: ${reason}`,
    { level: "note", file: filePath },
  );
}

/** The syntax gate's line of the report and its diagnostics. */
async function syntaxResult(
  options: ValidateOptions,
  language: string,
  prefix: GatePrefix,
): Promise<GateResult> {
  const started = performance.now();
  const syntax = await cachedSyntaxGate(options, language, prefix);
  const outcome: GateOutcome = {
    name: "syntax",
    status: syntax.status,
    duration_ms: Math.round(performance.now() - started),
  };
  if (syntax.status !== "skipped") return { outcome, diagnostics: syntax.diagnostics };
  outcome.reason = syntax.reason;
  return { outcome, diagnostics: [skipNote(prefix, options.filePath, syntax.reason)] };
}

/**
 * The syntax gate's result once a compiler that ran has accepted the file: the compiler is the
 * authority on its language and tree-sitter grammars lag behind theirs (`for x in; do` is valid
 * bash that tree-sitter-bash rejects), so its errors become warnings and it no longer rejects.
 */
function overruled(syntax: GateResult, compiler: GateOutcome): GateResult {
  if (syntax.outcome.status !== "failed") return syntax;
  const reason = `overruled: ${compiler.name} accepts the file`;
  return {
    outcome: { ...syntax.outcome, status: "passed", reason },
    diagnostics: syntax.diagnostics.map((diagnostic) => ({
      ...diagnostic,
      level: "warning",
      note: [
        diagnostic.note,
        `${compiler.name} accepts this; the grammar may lag behind the language`,
      ]
        .filter((part) => part !== undefined).join("\n"),
    })),
  };
}

/** Whether `path` exists (links followed); errors other than a missing entry are thrown. */
function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

/**
 * The real path of the nearest existing folder of the target (its own folder, or the closest
 * parent when the folders are still to be created), or `undefined` when it lies outside the
 * root (a link out of it).
 */
function contextFolder(root: string, filePath: string): string | undefined {
  let folder = realPathOf(dirname(join(root, filePath)));
  while (!exists(folder) && isInside(root, folder) && folder !== root) folder = dirname(folder);
  return isInside(root, folder) ? folder : undefined;
}

/** Whether the Cargo manifest in `folder` declares a workspace (an unreadable one does not). */
function declaresWorkspace(folder: string): boolean {
  try {
    return "workspace" in parseToml(Deno.readTextFileSync(join(folder, "Cargo.toml")));
  } catch (error) {
    if (error instanceof TomlError) return false;
    throw error;
  }
}

/**
 * The folder `cargo check` needs for a Rust file in `dir`: the nearest folder inside `root` with
 * a `Cargo.toml` (its package), or the workspace folder above it that declares
 * `[workspace]`; `undefined` outside any Cargo package.
 */
function crateFolder(root: string, dir: string): string | undefined {
  let crate: string | undefined;
  for (let folder = dir; isInside(root, folder); folder = dirname(folder)) {
    if (exists(join(folder, "Cargo.toml"))) {
      crate ??= folder;
      if (declaresWorkspace(folder)) return folder;
    }
    if (folder === root) break;
  }
  return crate;
}

/** The folder of the Go module a file in `dir` belongs to: the nearest with a `go.mod`. */
function moduleFolder(root: string, dir: string): string | undefined {
  for (let folder = dir; isInside(root, folder); folder = dirname(folder)) {
    if (exists(join(folder, "go.mod"))) return folder;
    if (folder === root) break;
  }
  return undefined;
}

/** A compiler gate that did not run for a reason known before starting anything. */
function compilerSkipped(
  options: ValidateOptions,
  prefix: GatePrefix,
  name: string,
  code: "noCompilerGate" | "contextUnsupported",
  reason: string,
): GateResult {
  const note = makeDiagnostic(name, gateCode(prefix, code), `compiler gate skipped: ${reason}`, {
    level: "note",
    file: options.filePath,
  });
  return { outcome: { name, status: "skipped", reason, duration_ms: 0 }, diagnostics: [note] };
}

/**
 * The compiler gate of the language, cached by content hash: a verdict that depends on other
 * files is kept with their identities and holds while they are unchanged.
 */
async function compilerResult(
  options: ValidateOptions,
  language: string,
  prefix: GatePrefix,
): Promise<GateResult> {
  const root = realPathOf(options.root);
  const dir = contextFolder(root, options.filePath);
  const crate = dir === undefined
    ? undefined
    : language === "rust"
    ? crateFolder(root, dir)
    : language === "go"
    ? moduleFolder(root, dir)
    : undefined;
  const checker = checkerFor(language, crate);
  if (!checker) {
    const reason = `the toolkit has no compiler gate for ${language}`;
    return compilerSkipped(options, prefix, "compiler", "noCompilerGate", reason);
  }
  if (dir === undefined) {
    const reason = `the folder of ${options.filePath} lies outside the root`;
    return compilerSkipped(options, prefix, checker.name, "contextUnsupported", reason);
  }
  const check = {
    root,
    dir,
    filePath: options.filePath,
    bytes: options.bytes,
    prefix,
    timeoutMs: options.timeoutMs ?? GATE_TIMEOUT_MS,
    signal: options.signal,
    allowBuildScripts: options.allowBuildScripts ?? false,
  };
  if (!options.cache) return runChecker(checker, check);
  const checksum = sha256(options.bytes);
  // A verdict reached by running build scripts is not the answer of a run that may not.
  const allowed = check.allowBuildScripts ? ":build-scripts" : "";
  const namespace = `gate:${checker.name}${allowed}:${prefix}:${options.filePath}`;
  const version = { size: options.bytes.length, mtimeMs: 0, checksum };
  const hit = options.cache.get<StoredVerdict>(namespace, checksum, version);
  if (hit && hit.identities.every(([path, known]) => identityOf(path) === known)) {
    return hit.result;
  }
  const result = await runChecker(checker, check);
  const identities = verdictIdentities(root, dir, checker, result);
  if (identities) options.cache.set(namespace, checksum, version, { result, identities });
  return result;
}

/** A compiler gate's verdict as cached: the result and the identities of what it rests on. */
interface StoredVerdict {
  result: GateResult;
  identities: [string, string][];
}

/** `mtime:size` of `path`, or `absent`: a changed identity means the entry may have changed. */
function identityOf(path: string): string {
  try {
    const info = Deno.statSync(path);
    return `${info.mtime?.getTime()}:${info.size}`;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return "absent";
    throw error;
  }
}

/**
 * The identities of what a verdict rests on, or `undefined` when it may not be kept: a skipped
 * gate (no permission, a timeout) may run next time, and a context-dependent checker that could not say
 * what it read cannot be trusted later. A verdict rests on the inputs inside the root and the
 * folders that hold them or the target (a file added there may be read next time: a header
 * that shadows another, a module an import now finds); files outside the root (system headers,
 * Deno's cache) change with the toolchain only.
 */
function verdictIdentities(
  root: string,
  dir: string,
  checker: Checker,
  result: GateResult,
): [string, string][] | undefined {
  if (result.outcome.status === "skipped") return undefined;
  if ("check" in checker || !checker.inputs) return [];
  if (!result.inputs) return undefined;
  const paths = new Set<string>();
  const addFolders = (from: string) => {
    for (let folder = from; isInside(root, folder); folder = dirname(folder)) {
      paths.add(folder);
      if (folder === root) break;
    }
  };
  addFolders(dir);
  for (const input of result.inputs) {
    if (!isInside(root, input)) continue;
    paths.add(input);
    addFolders(dirname(input));
  }
  return [...paths].map((path) => [path, identityOf(path)]);
}

/**
 * Runs the gates on candidate bytes for `filePath` and answers whether they are approved. It
 * never writes the target file: a compiler gate reads the bytes on its standard input, or checks
 * a hidden copy beside the target (so includes and imports resolve) that it removes at once.
 * Bad input (an unknown `language`) throws a {@linkcode ToolError}; a gate that cannot run is
 * reported with a note, not thrown; an abort of `signal` rejects with its reason.
 *
 * @example Reject a C file with a missing parenthesis
 * ```ts
 * import assert from "node:assert/strict";
 * import { validateFile } from "./mod.ts";
 * const report = await validateFile({
 *   root: Deno.cwd(), filePath: "src/main.c", gates: "syntax",
 *   bytes: new TextEncoder().encode("int main( { return 0; }\n"),
 * });
 * assert.equal(report.approved, false);
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
      diagnostics: [skipNote(prefix, options.filePath, reason)],
      gates: [{ name: "syntax", status: "skipped", reason, duration_ms: 0 }],
    };
  }
  // The compiler starts first and the syntax gate parses while it runs: its child is already
  // spawned when the parse takes the thread.
  const compiling = (options.gates ?? "all") === "all"
    ? compilerResult(options, language, prefix)
    : undefined;
  // Its failure is awaited below; meanwhile it must not count as an unhandled rejection.
  compiling?.catch(() => undefined);
  const results = [await syntaxResult(options, language, prefix)];
  if (compiling) {
    const compiler = await compiling;
    if (compiler.outcome.status === "passed") results[0] = overruled(results[0], compiler.outcome);
    results.push(compiler);
  }
  const gates = results.map((result) => result.outcome);
  return {
    language,
    approved: gates.every((gate) => gate.status !== "failed"),
    diagnostics: sortDiagnostics(results.flatMap((result) => [...result.diagnostics])),
    gates,
  };
}
