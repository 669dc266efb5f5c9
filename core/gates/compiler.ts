/**
 * Running a compiler gate: the permission check, the hidden copy beside the target (removed in
 * `finally`), the child with its time limit (started as `spawn.ts` says: outside the project
 * unless the checker needs its folder, with code-loading variables emptied), and the
 * compiler's findings mapped back onto the user's file as contract diagnostics with
 * `tool_path` and `tool_version`. A finding located in a file outside the root, and every
 * finding of a check that read such a file (or cannot say what it read), keeps its position
 * and code but not its text (contract §11; `outside.ts`), and a note says so.
 *
 * @module
 */
import { basename, dirname, isAbsolute, join, relative } from "../path_syntax.ts";
import { fromFileUrl } from "../path_syntax.ts";
import { type Diagnostic, makeDiagnostic } from "../../schema/diagnostic.ts";
import { gateCode, type GateCodeName, type GatePrefix } from "../../schema/error_codes.ts";
import type { GateOutcome } from "../../schema/gates.ts";
import { LineIndex } from "../../schema/line_index.ts";
import { makeSpan } from "../../schema/span_build.ts";
import type {
  CheckContext,
  Checker,
  CheckInputs,
  Preflight,
  ProgramChecker,
  ProgramRunner,
} from "./checkers.ts";
import type { NativeDiagnostic } from "./native.ts";
import { ReadScope } from "./outside.ts";
import { neutralFolder, type ProgramOutput, runProgram } from "./spawn.ts";
import { lookUp, toolFact, toolVersion } from "./toolchain.ts";
import { Breather } from "../breather.ts";
import { decodeText, decodeUtf8 } from "../utf8.ts";

/** The file a compiler gate checks. */
export interface CompilerCheck {
  /** Real path of the workspace root. */
  root: string;
  /** Real path of the folder the target is (or will be) in; it exists. */
  dir: string;
  /** The path diagnostics name (root-relative). */
  filePath: string;
  /** The candidate bytes. */
  bytes: Uint8Array;
  /** Prefix of the codes. */
  prefix: GatePrefix;
  /** The child is killed after this many milliseconds. */
  timeoutMs: number;
  /** Stops the gate (and kills the child); the gate then throws the reason. */
  signal?: AbortSignal;
  /** Let the check run the project's build scripts and proc macros (cargo) when it needs to. */
  allowBuildScripts?: boolean;
}

/** A gate's line of the report and its diagnostics. */
export interface GateResult {
  /** The gate's line of the report. */
  outcome: GateOutcome;
  /** Its diagnostics (a note when skipped). */
  diagnostics: Diagnostic[];
  /**
   * The files besides the candidate the verdict rests on (absolute, in the user's tree), when
   * the checker tells them: the verdict holds while none of them changes.
   */
  inputs?: string[];
}

/** The first line of `text` with something on it, lines that match `skip` left out. */
function firstLine(text: string, skip?: RegExp): string | undefined {
  return text.split("\n").map((line) => line.trim()).find((line) =>
    line !== "" && !skip?.test(line)
  );
}

/**
 * The version line of the program at `path` (`program` when it could not be looked up): what
 * the check printed when the checker asks its compiler for it with the check, else the first
 * line `--version` prints, asked as the check runs it (`run`: a shim then picks the same
 * toolchain), kept per program (`toolchain.ts`).
 */
function versionOf(
  checker: ProgramChecker,
  path: string,
  run: ProgramRunner,
): Promise<string | undefined> | undefined {
  if (checker.name === "deno") return Promise.resolve(`deno ${Deno.version.deno}`);
  if (checker.version) return undefined;
  return toolVersion(
    path,
    () =>
      run(checker.versionArgs ?? ["--version"])
        .then((output) => firstLine(output.stdout) ?? firstLine(output.stderr))
        .catch(() => undefined),
  );
}

/** Why a program the run may not start is skipped: absent from PATH, or not allowed. */
function notRunnable(
  check: CompilerCheck,
  name: string,
  program: string,
  found: string | undefined,
  started: number,
) {
  const absent = found === undefined ? ` (or ${program} is not on PATH)` : "";
  const reason = `the run may not start ${program}: add --allow-run=${program}${absent}`;
  return skipped(check, name, "runNotAllowed", reason, started);
}

function skipped(
  check: CompilerCheck,
  name: string,
  code: GateCodeName,
  reason: string,
  started: number,
  extra: Partial<GateOutcome> = {},
): GateResult {
  const note = makeDiagnostic(
    name,
    gateCode(check.prefix, code),
    `compiler gate ${name} skipped: ${reason}`,
    { level: "note", file: check.filePath, ...pickTool(extra) },
  );
  return {
    outcome: {
      name,
      status: "skipped",
      reason,
      duration_ms: Math.round(performance.now() - started),
      ...extra,
    },
    diagnostics: [note],
  };
}

function pickTool(outcome: Partial<GateOutcome>): Partial<Diagnostic> {
  const tool: Partial<Diagnostic> = {};
  if (outcome.tool_path) tool.tool_path = outcome.tool_path;
  if (outcome.tool_version) tool.tool_version = outcome.tool_version;
  return tool;
}

/** Byte column of a UTF-16 column of `line` in the candidate, or `undefined` past its end. */
function byteColumn(index: LineIndex, bytes: Uint8Array, line: number, column: number) {
  if (line < 1 || line > index.lineCount) return undefined;
  const [start, end] = index.lineRange(line);
  const decoded = decodeUtf8(bytes.subarray(start, end));
  if (column > decoded.text.length) return undefined;
  return decoded.byteOffset(column);
}

/**
 * What keeps text of files outside the root out of a gate's findings: why all of them are
 * withheld (the check read such a file, or cannot say what it read), and which files a program
 * names lie outside (a finding located in one, or pointing into one, is withheld).
 */
interface Withholding {
  /** Why every finding's text is withheld, if it is. */
  all?: string;
  /** Whether a file the program names lies outside the root and the toolchain's folders. */
  outside: (name: string) => boolean;
}

/** What maps a checker's findings onto the user's files: the names it gives the candidate. */
interface GateReader extends Partial<GateOutcome> {
  /** The gate's name. */
  name: string;
  /** The names the checker gives the candidate. */
  candidates: Set<string>;
  /** Where it ran. */
  context: CheckContext;
  /** The folder its relative file names are under (the scratch folder for `crate`). */
  base: string;
  /** What of its findings' text is withheld (nothing for an in-process checker). */
  withholding?: Withholding;
}

/**
 * Maps a compiler's file name to the user's: the candidate, a root-relative path (a name in the
 * scratch folder maps to the same name in the user's tree), or as is.
 */
function fileOf(
  native: NativeDiagnostic,
  tool: GateReader,
  check: CompilerCheck,
) {
  if (native.file === undefined) return check.filePath;
  const absolute = userPath(native.file, tool);
  if (absolute === undefined) return check.filePath;
  const fromRoot = relative(check.root, absolute);
  return fromRoot.startsWith("..") || isAbsolute(fromRoot) ? absolute : fromRoot;
}

/**
 * The absolute path in the user's tree of a file a checker names, or `undefined` for the
 * candidate: a name in the scratch folder is the same name in the tree it copies.
 */
function userPath(name: string, tool: Pick<GateReader, "candidates" | "context">) {
  const { candidates, context } = tool;
  if (candidates.has(name)) return undefined;
  const path = name.startsWith("file://") ? fromFileUrl(name) : name;
  if (candidates.has(path)) return undefined;
  const inScratch = context.scratchDir !== "" && path.startsWith(`${context.scratchDir}/`);
  const named = inScratch ? relative(context.scratchDir, path) : path;
  return isAbsolute(named) ? named : join(context.namesDir, named);
}

/**
 * The absolute path at which a checker read a file it names (a relative name is under its
 * `base`; a `file:` URL is a path), or `undefined` for the candidate and for a URL of another
 * scheme (Deno's `asset:` and remote modules: not files of this disk).
 */
function openedPath(name: string, tool: Pick<GateReader, "candidates" | "base">) {
  if (tool.candidates.has(name)) return undefined;
  const path = name.startsWith("file://") ? fromFileUrl(name) : name;
  if (tool.candidates.has(path)) return undefined;
  if (isAbsolute(path)) return path;
  return /^[a-z][a-z0-9+.-]*:/i.test(path) ? undefined : join(tool.base, path);
}

/** The text a withheld finding carries in place of the compiler's. */
const WITHHELD = "message withheld: it may quote a file outside the root (see the note)";

/** Whether the text of `native` is withheld ({@linkcode Withholding}). */
function withheld(native: NativeDiagnostic, withholding: Withholding | undefined): boolean {
  if (!withholding) return false;
  if (withholding.all !== undefined) return true;
  return [native.file, ...native.mentions ?? []].some((name) =>
    name !== undefined && withholding.outside(name)
  );
}

/** The contract diagnostic of one native finding. */
function toDiagnostic(
  native: NativeDiagnostic,
  check: CompilerCheck,
  tool: GateReader & { index: LineIndex },
): Diagnostic {
  const file = fileOf(native, tool, check);
  const hidden = withheld(native, tool.withholding);
  const details: Partial<Diagnostic> = { level: native.level, file, ...pickTool(tool) };
  if (native.nativeCode) details.native_code = native.nativeCode;
  if (native.note && !hidden) details.note = native.note;
  if (native.url) details.remediation = native.url;
  const ours = file === check.filePath;
  let column = native.column;
  if (ours && column !== undefined && native.line !== undefined && native.columnUnit === "utf16") {
    column = byteColumn(tool.index, check.bytes, native.line, column);
  }
  if (ours && native.byteRange && native.byteRange[1] <= check.bytes.length) {
    details.span = makeSpan(file, tool.index, native.byteRange[0], native.byteRange[1]);
    details.line = details.span.start_line;
    details.column = details.span.start_col;
  } else {
    if (native.line !== undefined) details.line = native.line;
    if (column !== undefined) details.column = column;
    if (ours && native.line !== undefined && column !== undefined) {
      const offset = pointOffset(tool.index, native.line, column);
      if (offset !== undefined) details.span = makeSpan(file, tool.index, offset, offset);
    }
  }
  const code = gateCode(
    check.prefix,
    native.level === "error" ? "compilerError" : "compilerWarning",
  );
  return makeDiagnostic(tool.name, code, hidden ? WITHHELD : native.message, details);
}

/** The byte offset of (line, column) when it lies on a character boundary of the candidate. */
function pointOffset(index: LineIndex, line: number, column: number): number | undefined {
  try {
    return index.offset({ line, col: column });
  } catch (error) {
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}

/** Whether the run may start `program`; anything but `granted` counts as no. */
function mayRun(program: string): boolean {
  return Deno.permissions.querySync({ name: "run", command: program }).state === "granted";
}

/** Whether the run may write in `dir` (for the hidden copy). */
function mayWrite(dir: string): boolean {
  return Deno.permissions.querySync({ name: "write", path: dir }).state === "granted";
}

/** The folder a checker's hidden files go in: the crate's for `crate`, else the target's. */
function scratchParent(checker: ProgramChecker, check: CompilerCheck): string {
  return checker.input === "crate" && checker.crateDir ? checker.crateDir : check.dir;
}

/** The hidden paths a checker uses beside the target, each unique to this run. */
function scratchPaths(check: CompilerCheck, checker: ProgramChecker): CheckContext {
  const id = crypto.randomUUID();
  const name = basename(check.filePath);
  const scratchDir = join(scratchParent(checker, check), `.llm-gate-${id}`);
  const context = {
    root: check.root,
    dir: check.dir,
    name,
    filePath: check.filePath,
    text: decodeText(check.bytes),
    copyPath: join(check.dir, `.llm-gate-${id}-${name}`),
    scratchDir,
    namesDir: check.dir,
    copied: [],
    allowBuildScripts: check.allowBuildScripts ?? false,
  };
  if (checker.input === "folder") context.copyPath = join(scratchDir, name);
  if (checker.input === "crate" && checker.crateDir) {
    context.copyPath = join(
      scratchDir,
      relative(checker.crateDir, join(check.root, check.filePath)),
    );
    context.namesDir = checker.crateDir;
  }
  return context;
}

/** Entries a crate's copy leaves out: build output, version control, the toolkit's own. */
const NOT_COPIED = /^(target|\.git|\.llm|\.llm-gate-.*|node_modules)$/;

/** Most bytes copied for a `crate` checker: a bigger context skips the gate. */
export const CRATE_COPY_LIMIT = 64 * 1024 * 1024;

/** How long a crate's copy runs before other work (another MCP call) gets the thread. */
const COPY_BREATH_MS = 10;

/**
 * Copies the regular files and folders of `from` into `to` (links are left out: they may
 * point out of the root), within the byte budget; returns the budget left, negative when the
 * copy stopped for want of it. The file operations are synchronous (a crate of a few files is
 * copied in well under a millisecond, where one awaited operation each took about half of
 * one); `breather` lets the event loop run between entries of a large crate, and stops the
 * copy once the gate's signal aborts.
 */
async function copyTree(
  from: string,
  to: string,
  budget: number,
  copied: string[],
  breather: Breather,
  prefix = "",
): Promise<number> {
  Deno.mkdirSync(to, { recursive: true });
  for (const entry of Deno.readDirSync(from)) {
    if (NOT_COPIED.test(entry.name)) continue;
    await breather.breathe();
    const [source, target] = [join(from, entry.name), join(to, entry.name)];
    const name = `${prefix}${entry.name}`;
    if (entry.isDirectory) {
      budget = await copyTree(source, target, budget, copied, breather, `${name}/`);
    } else if (entry.isFile) {
      budget -= Deno.statSync(source).size;
      if (budget >= 0) Deno.copyFileSync(source, target);
      copied.push(name);
    }
    if (budget < 0) return budget;
  }
  return budget;
}

/**
 * Writes the candidate where the checker reads it, each path to remove afterwards pushed on
 * `created` as soon as it exists; returns why the gate cannot run, if it cannot.
 */
async function placeCandidate(
  checker: ProgramChecker,
  context: CheckContext,
  bytes: Uint8Array,
  created: string[],
  signal: AbortSignal,
): Promise<string | undefined> {
  if (checker.input === "stdin") return;
  // Synchronous up to the spawn (a crate's copy aside): the syntax gate parses only once the
  // compiler is running.
  Deno.mkdirSync(context.scratchDir);
  created.push(context.scratchDir);
  if (checker.input === "crate" && checker.crateDir) {
    const breather = new Breather(signal, COPY_BREATH_MS);
    const left = await copyTree(
      checker.crateDir,
      context.scratchDir,
      CRATE_COPY_LIMIT,
      context.copied,
      breather,
    );
    if (left < 0) {
      return `the context ${checker.crateDir} (Cargo crate, Go module) holds more than ` +
        `${CRATE_COPY_LIMIT} bytes ` +
        "to copy";
    }
    Deno.mkdirSync(dirname(context.copyPath), { recursive: true });
    Deno.writeFileSync(context.copyPath, bytes, { mode: 0o600 });
    return;
  }
  if (checker.input === "copy") created.push(context.copyPath);
  Deno.writeFileSync(context.copyPath, bytes, { createNew: true, mode: 0o600 });
}

async function removeAll(paths: string[]): Promise<void> {
  for (const path of paths) {
    try {
      await Deno.remove(path, { recursive: true });
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
}

/** The folder a checker's program runs in ({@linkcode ProgramChecker.cwd}). */
function folderOf(checker: ProgramChecker, context: CheckContext): string {
  if (checker.cwd === "dir") return context.dir;
  if (checker.cwd === "scratch") return context.scratchDir;
  return neutralFolder(context.root);
}

/** Runs `program` with the checker's environment in `cwd`, killed by `signal`. */
function runnerOf(
  program: string,
  checker: ProgramChecker,
  context: CheckContext,
  cwd: string,
  signal: AbortSignal,
): ProgramRunner {
  const env = checker.env?.(context) ?? {};
  return (args, stdin) =>
    runProgram(program, { args, cwd, env, signal, ...(stdin ? { stdin } : {}) });
}

/**
 * The folders of the toolchain's own files the checker names (its system headers), asked once
 * per program from outside the project; none when it names none or the question failed (then
 * a finding in a system header is withheld too).
 */
function toolchainDirsOf(
  checker: ProgramChecker,
  program: string,
  path: string,
  context: CheckContext,
  timeoutMs: number,
): Promise<string[]> {
  const probe = checker.toolchainDirs;
  if (!probe) return Promise.resolve([]);
  const neutral = neutralFolder(context.root);
  return toolFact(
    "toolchain-dirs",
    path,
    () =>
      probe(runnerOf(program, checker, context, neutral, AbortSignal.timeout(timeoutMs)))
        .catch(() => []),
  );
}

/**
 * What of a check's findings is withheld: all of them when it read a file outside the root and
 * the toolchain's folders, or cannot say what it read (`sources` undefined); else those located
 * in or pointing into such a file.
 */
function withholdingOf(
  gate: string,
  sources: string[] | undefined,
  unknown: string | undefined,
  scope: ReadScope,
  tool: Pick<GateReader, "candidates" | "base">,
): Withholding {
  const outside = (name: string) => {
    const path = openedPath(name, tool);
    return path !== undefined && scope.isOutside(path);
  };
  if (sources === undefined) {
    return {
      all: `which files ${gate} read is not known: ${unknown ?? "it did not say"}`,
      outside,
    };
  }
  const read = sources.find(outside);
  return read === undefined ? { outside } : {
    all: `${gate} read ${openedPath(read, tool)}, which lies (or leads) outside the root`,
    outside,
  };
}

/**
 * Runs `checker` on the candidate. A missing compiler, a missing `--allow-run` (or
 * `--allow-write` for the hidden copy), a context the checker cannot handle, a timeout or a
 * crash skip the gate with a note; an abort of `check.signal` throws its reason.
 */
export async function runChecker(checker: Checker, check: CompilerCheck): Promise<GateResult> {
  const started = performance.now();
  const context = scratchPathsFor(checker, check);
  const why = checker.unsupported?.(context);
  if (why) return skipped(check, checker.name, "contextUnsupported", why, started);
  if ("check" in checker) {
    return finish(
      check,
      { name: checker.name, candidates: new Set(), context, base: context.dir },
      checker.check(context.text),
      started,
    );
  }
  const program = checker.program();
  const path = lookUp(program);
  if (path === null) {
    return skipped(check, checker.name, "compilerMissing", `${program} is not on PATH`, started);
  }
  if (!mayRun(program)) return notRunnable(check, checker.name, program, path, started);
  const parent = scratchParent(checker, check);
  if (checker.input !== "stdin" && !mayWrite(parent)) {
    const reason = `it checks a hidden copy beside the file, and the run may not write in ` +
      `${relative(check.root, parent) || "."} (add --allow-write for it)`;
    return skipped(check, checker.name, "copyNotAllowed", reason, started);
  }
  const tool: Partial<GateOutcome> = { tool_path: path ?? program };
  // Asked beside the check rather than after it, when the check does not print it; from
  // outside the project (the scratch folder is not made yet), as the check's shim would pick.
  const neutral = neutralFolder(check.root);
  const probeSignal = AbortSignal.timeout(check.timeoutMs);
  const probe = runnerOf(program, checker, context, neutral, probeSignal);
  const versionAsked = versionOf(checker, path ?? program, probe);
  const toolchainAsked = toolchainDirsOf(
    checker,
    program,
    path ?? program,
    context,
    check.timeoutMs,
  );
  const timeout = AbortSignal.timeout(check.timeoutMs);
  const signal = check.signal ? AbortSignal.any([check.signal, timeout]) : timeout;
  const created: string[] = [];
  let output: ProgramOutput;
  let preflight: Preflight = {};
  let inputs: CheckInputs | undefined;
  try {
    const placed = await placeCandidate(checker, context, check.bytes, created, signal);
    if (placed) return skipped(check, checker.name, "contextUnsupported", placed, started, tool);
    const run = runnerOf(program, checker, context, folderOf(checker, context), signal);
    preflight = await checker.preflight?.(context, run) ?? {};
    if (preflight.skip) {
      const { code, reason } = preflight.skip;
      return skipped(check, checker.name, code, reason, started, tool);
    }
    const stdin = checker.input === "stdin" ? check.bytes : undefined;
    const running = run(checker.args(context), stdin);
    const reading = checker.inputs?.(context, running, run);
    // A failed check is reported through `running`; `reading` waits on it and fails with it.
    reading?.catch(() => undefined);
    output = await running;
    inputs = await reading;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      const reason = `${program} is not on PATH`;
      return skipped(check, checker.name, "compilerMissing", reason, started);
    }
    check.signal?.throwIfAborted();
    if (timeout.aborted) return timedOut(check, checker.name, program, started, tool);
    const reason = `${program} could not run: ${error instanceof Error ? error.message : error}`;
    return skipped(check, checker.name, "compilerFailed", reason, started, tool);
  } finally {
    await removeAll(created);
  }
  check.signal?.throwIfAborted();
  const version = versionAsked ? await versionAsked : checker.version?.(output);
  if (version) tool.tool_version = version;
  if (timeout.aborted) return timedOut(check, checker.name, program, started, tool);
  const candidates = new Set([context.copyPath, ...(checker.candidateNames?.(context) ?? [])]);
  if (checker.input === "crate") candidates.add(relative(context.scratchDir, context.copyPath));
  const base = checker.input === "crate" ? context.scratchDir : context.dir;
  // Without `inputs`, the check reads the candidate alone.
  const sources = inputs ? inputs.sources : [];
  const scope = new ReadScope(check.root, [
    ...preflight.toolchainDirs ?? [],
    ...await toolchainAsked,
  ]);
  const withholding = withholdingOf(
    checker.name,
    sources && [...sources, ...preflight.sources ?? []],
    inputs?.unknown,
    scope,
    { candidates, base },
  );
  const found = checker.parse(output);
  const failed = output.code !== 0 && !found.some((native) => native.level === "error");
  if (failed) {
    const said = withholding.all === undefined
      ? firstLine(output.stderr, checker.preamble) ?? firstLine(output.stdout) ?? "no output"
      : `its output is withheld: ${withholding.all}`;
    const reason =
      `${program} exited with ${output.code} and no diagnostic it could be read from: ${said}`;
    return skipped(check, checker.name, "compilerFailed", reason, started, tool);
  }
  const reader = { name: checker.name, candidates, context, base, withholding, ...tool };
  const result = finish(check, reader, found, started);
  if (inputs && sources) {
    result.inputs = [...sources, ...inputs.configs, ...preflight.sources ?? []]
      .flatMap((name) => userPath(name, reader) ?? []);
  }
  const read = (name: string) => userPath(name, reader) === undefined;
  const unread = sources !== undefined && !sources.some(read);
  if (checker.input === "crate" && result.outcome.status === "passed" && unread) {
    const reason = `${program} did not read ${check.filePath}: no target of the crate includes ` +
      "it (a `mod` declaration names it)";
    return skipped(check, checker.name, "contextUnsupported", reason, started, tool);
  }
  return result;
}

/** The note that says how many of a gate's findings lost their text, and why. */
function withheldNote(check: CompilerCheck, tool: GateReader, count: number): Diagnostic {
  const why = tool.withholding?.all ??
    "they are located in, or point into, a file outside the root";
  return makeDiagnostic(
    tool.name,
    gateCode(check.prefix, "textWithheld"),
    `compiler gate ${tool.name}: the text of ${count} message(s) is withheld: ${why}; the ` +
      "verdict, positions and codes stand",
    { level: "note", file: check.filePath, ...pickTool(tool) },
  );
}

function timedOut(
  check: CompilerCheck,
  name: string,
  program: string,
  started: number,
  tool: Partial<GateOutcome>,
): GateResult {
  const reason = `${program} ran past ${check.timeoutMs} ms and was stopped`;
  return skipped(check, name, "timeout", reason, started, tool);
}

function scratchPathsFor(checker: Checker, check: CompilerCheck): CheckContext {
  if ("check" in checker) {
    const name = basename(check.filePath);
    return {
      root: check.root,
      dir: check.dir,
      name,
      filePath: check.filePath,
      text: decodeText(check.bytes),
      copyPath: "",
      scratchDir: "",
      namesDir: check.dir,
      copied: [],
      allowBuildScripts: check.allowBuildScripts ?? false,
    };
  }
  return scratchPaths(check, checker);
}

function finish(
  check: CompilerCheck,
  tool: GateReader,
  found: NativeDiagnostic[],
  started: number,
): GateResult {
  const index = new LineIndex(check.bytes);
  const diagnostics = found.map((native) => toDiagnostic(native, check, { ...tool, index }));
  const failed = diagnostics.some((diagnostic) => diagnostic.level === "error");
  const hidden = found.filter((native) => withheld(native, tool.withholding)).length;
  if (hidden > 0) diagnostics.push(withheldNote(check, tool, hidden));
  const outcome: GateOutcome = {
    name: tool.name,
    status: failed ? "failed" : "passed",
    duration_ms: Math.round(performance.now() - started),
    ...pickTool(tool),
  };
  return { outcome, diagnostics };
}
