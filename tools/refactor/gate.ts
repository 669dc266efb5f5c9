/**
 * The validation gates of a refactor: every changed file's new bytes through the syntax gate
 * and (with `all`, when the run may start it) the language's compiler, before anything is
 * written. An operation that spans files is checked where every file holds its new bytes: when
 * the root is small enough, a copy of it under `.llm/stage-<id>/` with the new bytes in place
 * (removed afterwards), so an import of a renamed name resolves; otherwise each file beside the
 * others as they are on disk. A file is refused only for errors its old bytes did not have
 * (compared by message, a rename's new name read as the old one): a file that did not compile
 * before (a kernel file without its build's include paths) is not refused for that. Files are
 * gated several at a time: while a compiler checks one, this thread parses the next.
 *
 * @module
 */
import { dirname, join, relative } from "../../core/path_syntax.ts";
import type { Diagnostic, GateRefusal } from "../../schema/diagnostic.ts";
import { makeDiagnostic } from "../../schema/diagnostic.ts";
import type { GateReport } from "../../schema/gates.ts";
import { LLM_REFACTOR } from "../../schema/tool_names.ts";
import type { RunCache } from "../../core/cache.ts";
import { type GateSelection, validateFile, type ValidateOptions } from "../../core/gates/mod.ts";
import { SYNTAX_ERRORS_LISTED } from "../../core/gates/syntax.ts";
import { gateRefusal, SYNTAX_TOOL } from "../../core/gates/refusal.ts";
import type { FileChange } from "../../core/transaction/mod.ts";
import { eachLimited } from "../../core/transaction/parallel.ts";

/** How the gates run. */
export interface GateRun {
  /** Absolute, symlink-free root. */
  root: string;
  /** Execution id (names the stage folder). */
  executionId: string;
  /** Which gates. */
  gates: GateSelection;
  /** Let a compiler gate run the project's build scripts and proc macros (cargo). */
  allowBuildScripts?: boolean;
  /** Reads an error message of the new bytes as the old bytes would say it (a rename's names). */
  normalize: (message: string) => string;
  /** Syntax errors of a file's old bytes, when known (0: any syntax error is new). */
  parseErrorsBefore?: (filePath: string) => number | undefined;
  /**
   * Every edit puts an identifier in place of an identifier (a rename): the tree keeps its
   * shape, so as many syntax errors as the old bytes had are theirs, not new.
   */
  identifiersOnly?: boolean;
  /** Cache of a long-lived host. */
  cache?: RunCache;
  /** Stops the gates. */
  signal?: AbortSignal;
}

/** What the gates said. */
export interface GateFindings {
  /** `SPL-V-003` of each refused file, with the new gate errors that refused it. */
  refused: GateRefusal[];
  /** The gates' diagnostics. */
  diagnostics: Diagnostic[];
}

/** Files and bytes a stage may copy at most. */
const STAGE_MAX_FILES = 2_000;
const STAGE_MAX_BYTES = 64 * 1024 * 1024;

/** Every regular file of the root (state and VCS folders left out), or `undefined` when too many. */
async function stageableFiles(root: string): Promise<string[] | undefined> {
  const files: string[] = [];
  let bytes = 0;
  const walk = async (dir: string): Promise<boolean> => {
    for await (const entry of Deno.readDir(dir)) {
      if (entry.name === ".llm" || entry.name === ".git") continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory) {
        if (!await walk(path)) return false;
      } else if (entry.isFile) {
        bytes += (await Deno.stat(path)).size;
        files.push(relative(root, path));
        if (files.length > STAGE_MAX_FILES || bytes > STAGE_MAX_BYTES) return false;
      }
    }
    return true;
  };
  return await walk(root) ? files : undefined;
}

/** A copy of the root with the new bytes in place, or `undefined` when the root is too large. */
async function makeStage(
  run: GateRun,
  changes: readonly FileChange[],
): Promise<string | undefined> {
  const files = await stageableFiles(run.root);
  if (!files) return undefined;
  const stage = join(run.root, ".llm", `stage-${run.executionId}`);
  await Deno.mkdir(stage, { recursive: true });
  const changed = new Map(changes.map((change) => [change.file_path, change.after]));
  for (const file of files) {
    const target = join(stage, file);
    await Deno.mkdir(dirname(target), { recursive: true });
    const after = changed.get(file.replaceAll("\\", "/"));
    if (after === undefined) await Deno.copyFile(join(run.root, file), target);
    else if (after !== null) await Deno.writeFile(target, after);
  }
  return stage;
}

/** What `validateFile` is given for `bytes` of `filePath`, checked in `root`. */
function gateOptions(
  run: GateRun,
  root: string,
  filePath: string,
  bytes: Uint8Array,
): ValidateOptions {
  return {
    root,
    filePath,
    bytes,
    gates: run.gates,
    prefix: "SPL",
    allowBuildScripts: run.allowBuildScripts ?? false,
    ...(run.cache ? { cache: run.cache } : {}),
    ...(run.signal ? { signal: run.signal } : {}),
  };
}

/** Error messages of a report, counted. */
function errorCounts(report: GateReport, normalize: (message: string) => string) {
  const counts = new Map<string, number>();
  for (const d of report.diagnostics) {
    if (d.level !== "error") continue;
    const key = `${d.tool}\0${normalize(d.message)}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** The errors of `after` that `before` did not have as often. */
function newErrors(
  after: GateReport,
  before: GateReport,
  normalize: (message: string) => string,
): Diagnostic[] {
  const old = errorCounts(before, (message) => message);
  const fresh: Diagnostic[] = [];
  for (const d of after.diagnostics) {
    if (d.level !== "error") continue;
    const key = `${d.tool}\0${normalize(d.message)}`;
    const left = old.get(key) ?? 0;
    if (left > 0) old.set(key, left - 1);
    else fresh.push(d);
  }
  return fresh;
}

function refusal(change: FileChange, errors: Diagnostic[]): GateRefusal {
  const first = errors[0];
  const where = first.line ? `:${first.line}:${(first.column ?? 0) + 1}` : "";
  const diagnostic = makeDiagnostic(
    LLM_REFACTOR,
    "SPL-V-003",
    `the edit would make ${change.file_path} fail validation (${errors.length} new error(s), ` +
      `first at ${change.file_path}${where}: ${first.message}); nothing was changed`,
    {
      file: change.file_path,
      ...(first.line ? { line: first.line } : {}),
      ...(first.column !== undefined ? { column: first.column } : {}),
    },
  );
  return gateRefusal(diagnostic, errors);
}

/** The 1-based line of the first byte where `after` differs from `before`. */
function firstChangedLine(before: Uint8Array, after: Uint8Array): number {
  let at = 0;
  while (at < before.length && at < after.length && before[at] === after[at]) at++;
  let line = 1;
  for (let i = 0; i < at; i++) if (before[i] === 0x0a) line++;
  return line;
}

/** What a file's errors are: new, the old bytes' own, or unknown without gating the old bytes. */
type Verdict = "new" | "old" | "unknown";

/** The note the syntax gate puts on its last listed error when it found more than it lists. */
const UNLISTED = /^(\d+) more syntax errors are not listed$/;

/**
 * How many syntax errors the new bytes have: those listed, plus the ones the note on the last
 * listed one counts (`undefined` when the gate listed its most and no such note is found).
 */
function syntaxErrorCount(errors: Diagnostic[]): number | undefined {
  if (errors.length < SYNTAX_ERRORS_LISTED) return errors.length;
  const more = errors.map((d) => UNLISTED.exec(d.note ?? "")).find((match) => match !== null);
  return more ? errors.length + Number(more[1]) : undefined;
}

/**
 * The syntax gate's errors without gating the old bytes again (a parse spared): `new` when the
 * old bytes parsed cleanly; `old` when there are none, or when only identifiers changed and
 * there are no more than the old bytes had (counted by the same tree walk, `errorNodes`);
 * `unknown` otherwise.
 */
function syntaxVerdict(run: GateRun, change: FileChange, errors: Diagnostic[]): Verdict {
  if (errors.length === 0) return "old";
  const before = run.parseErrorsBefore?.(change.file_path);
  if (before === undefined) return "unknown";
  if (before === 0) return "new";
  const count = syntaxErrorCount(errors);
  return run.identifiersOnly && count !== undefined && count <= before ? "old" : "unknown";
}

/**
 * A compiler's errors without compiling the old bytes: `old` when there are none, or when they
 * all lie above the first changed line of a C file (C is compiled top down, so they come from
 * the unchanged text before the edits: a kernel header the gate cannot find); else `unknown`.
 */
function compilerVerdict(change: FileChange, language: string, errors: Diagnostic[]): Verdict {
  if (errors.length === 0) return "old";
  if (language !== "c") return "unknown";
  const line = firstChangedLine(change.before!, change.after!);
  return errors.every((d) => d.line !== undefined && d.line < line) ? "old" : "unknown";
}

/** What is known of a failed file's errors, gate by gate, from the old bytes. */
interface Verdicts {
  /** The syntax gate's errors. */
  syntax: Verdict;
  /** The compiler's errors. */
  compiler: Verdict;
}

/** What the new bytes' errors are, gate by gate, from what is known of the old bytes. */
function verdictsOf(run: GateRun, change: FileChange, report: GateReport): Verdicts {
  if (!change.before) return { syntax: "new", compiler: "new" };
  const errors = report.diagnostics.filter((d) => d.level === "error");
  return {
    syntax: syntaxVerdict(run, change, errors.filter((d) => d.tool === SYNTAX_TOOL)),
    compiler: compilerVerdict(
      change,
      report.language,
      errors.filter((d) => d.tool !== SYNTAX_TOOL),
    ),
  };
}

/**
 * The errors of a failed file that its old bytes did not have. When only the syntax gate's
 * errors are in doubt, the old bytes go through the syntax gate alone: their compiler errors
 * are known to be old ones, and a second compiler run would only repeat them.
 */
async function freshErrors(run: GateRun, change: FileChange, report: GateReport) {
  const errors = report.diagnostics.filter((d) => d.level === "error");
  const { syntax, compiler } = verdictsOf(run, change, report);
  if (syntax === "new") return errors;
  if (syntax === "old" && compiler === "old") return [];
  const syntaxOnly = compiler === "old";
  const before = await validateFile({
    ...gateOptions(run, run.root, change.file_path, change.before!),
    ...(syntaxOnly ? { gates: "syntax" as const } : {}),
  });
  const fresh = newErrors(report, before, run.normalize);
  return syntaxOnly ? fresh.filter((d) => d.tool === SYNTAX_TOOL) : fresh;
}

/** What the gates said of one changed file. */
interface FileFindings {
  /** Its refusal, when it has new errors. */
  refused?: GateRefusal;
  /** The gates' diagnostics. */
  diagnostics: Diagnostic[];
}

/** Runs the gates on one change's new bytes; it is refused for errors it did not have. */
async function gateChange(run: GateRun, root: string, change: FileChange): Promise<FileFindings> {
  const report = await validateFile(gateOptions(run, root, change.file_path, change.after!));
  if (report.approved) {
    return { diagnostics: report.diagnostics.filter((d) => d.level !== "error") };
  }
  const fresh = await freshErrors(run, change, report);
  if (fresh.length > 0) return { refused: refusal(change, fresh), diagnostics: fresh };
  return {
    diagnostics: [makeDiagnostic(
      LLM_REFACTOR,
      "SPL-V-010",
      `${change.file_path} failed validation before the edit too, with the same errors; ` +
        "the edit was not refused",
      { level: "warning", file: change.file_path },
    )],
  };
}

/** Files gated at a time: one per core, at least two, at most eight. */
const GATE_LANES = Math.min(8, Math.max(2, navigator.hardwareConcurrency ?? 1));

/**
 * Gates every file, {@linkcode GATE_LANES} at a time: a compiler gate spends most of its time in
 * a child process, during which this thread parses the next file. After a gate throws no file
 * is started, and the ones running are waited for before the stage they read is removed.
 */
async function gateAll(
  run: GateRun,
  root: string,
  changes: readonly FileChange[],
): Promise<FileFindings[]> {
  const results: FileFindings[] = new Array(changes.length);
  await eachLimited(changes, GATE_LANES, async (change, index) => {
    results[index] = await gateChange(run, root, change);
  });
  return results;
}

/** Runs the gates on every change's new bytes; a file is refused for errors it did not have. */
export async function gateChanges(
  changes: readonly FileChange[],
  run: GateRun,
): Promise<GateFindings> {
  const gated = changes.filter((change) => change.after);
  // Only a compiler resolves one file against another: the syntax gate needs no stage.
  const stage = changes.length > 1 && run.gates === "all"
    ? await makeStage(run, changes)
    : undefined;
  try {
    const perFile = await gateAll(run, stage ?? run.root, gated);
    return {
      refused: perFile.flatMap((file) => file.refused ? [file.refused] : []),
      diagnostics: perFile.flatMap((file) => file.diagnostics),
    };
  } finally {
    if (stage) await Deno.remove(stage, { recursive: true });
  }
}
