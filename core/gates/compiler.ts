/**
 * Running a compiler gate: the permission check, the hidden copy beside the target (removed in
 * `finally`), the child with its time limit, and the compiler's findings mapped back onto the
 * user's file as contract diagnostics with `tool_path` and `tool_version`.
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
import type { CheckContext, Checker, ProgramChecker, ProgramOutput } from "./checkers.ts";
import type { NativeDiagnostic } from "./native.ts";
import { lookUp, toolVersion } from "./toolchain.ts";
import { Breather } from "../breather.ts";

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
  /** Find out what the compiler read, for a cache to keep the verdict with (costs a little). */
  collectInputs?: boolean;
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

const decoder = new TextDecoder();

function firstLine(text: string): string | undefined {
  return text.split("\n").map((line) => line.trim()).find((line) => line !== "");
}

/**
 * The version line of the program at `path` (`program` when it could not be looked up): what
 * the check printed when the checker asks its compiler for it with the check, else the first
 * line `--version` prints, kept per program (`toolchain.ts`).
 */
function versionOf(
  checker: ProgramChecker,
  program: string,
  path: string,
): Promise<string | undefined> | undefined {
  if (checker.name === "deno") return Promise.resolve(`deno ${Deno.version.deno}`);
  if (checker.version) return undefined;
  return toolVersion(
    path,
    () =>
      new Deno.Command(program, { args: checker.versionArgs ?? ["--version"], stdin: "null" })
        .output()
        .then((output) =>
          firstLine(decoder.decode(output.stdout)) ?? firstLine(decoder.decode(output.stderr))
        )
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
  const text = decoder.decode(bytes.subarray(start, end));
  if (column > text.length) return undefined;
  return new TextEncoder().encode(text.slice(0, column)).length;
}

/** What maps a checker's findings onto the user's files: the names it gives the candidate. */
interface GateReader extends Partial<GateOutcome> {
  /** The gate's name. */
  name: string;
  /** The names the checker gives the candidate. */
  candidates: Set<string>;
  /** Where it ran. */
  context: CheckContext;
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

/** The contract diagnostic of one native finding. */
function toDiagnostic(
  native: NativeDiagnostic,
  check: CompilerCheck,
  tool: GateReader & { index: LineIndex },
): Diagnostic {
  const file = fileOf(native, tool, check);
  const details: Partial<Diagnostic> = { level: native.level, file, ...pickTool(tool) };
  if (native.nativeCode) details.native_code = native.nativeCode;
  if (native.note) details.note = native.note;
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
  return makeDiagnostic(tool.name, code, native.message, details);
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
    dir: check.dir,
    name,
    filePath: check.filePath,
    text: decoder.decode(check.bytes),
    copyPath: join(check.dir, `.llm-gate-${id}-${name}`),
    scratchDir,
    namesDir: check.dir,
    copied: [],
    collectInputs: check.collectInputs ?? false,
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

/** Starts the program, feeds stdin when asked, and collects its output. */
async function runProgram(
  program: string,
  checker: ProgramChecker,
  context: CheckContext,
  bytes: Uint8Array,
  signal: AbortSignal,
): Promise<ProgramOutput> {
  const child = new Deno.Command(program, {
    args: checker.args(context),
    cwd: checker.input === "crate" ? context.scratchDir : context.dir,
    env: checker.env,
    stdin: checker.input === "stdin" ? "piped" : "null",
    stdout: "piped",
    stderr: "piped",
    signal,
  }).spawn();
  if (checker.input === "stdin") {
    const writer = child.stdin.getWriter();
    try {
      await writer.write(bytes);
      await writer.close();
    } catch (error) {
      // A compiler that stops reading early (it found enough) closes the pipe: not an error.
      if (!(error instanceof Deno.errors.BrokenPipe)) throw error;
    }
  }
  const output = await child.output();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
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
      { name: checker.name, candidates: new Set(), context },
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
  // Asked beside the check rather than after it, when the check does not print it.
  const versionAsked = versionOf(checker, program, path ?? program);
  const timeout = AbortSignal.timeout(check.timeoutMs);
  const signal = check.signal ? AbortSignal.any([check.signal, timeout]) : timeout;
  const created: string[] = [];
  let output: ProgramOutput;
  let inputs: string[] | undefined;
  try {
    const placed = await placeCandidate(checker, context, check.bytes, created, signal);
    if (placed) return skipped(check, checker.name, "contextUnsupported", placed, started, tool);
    output = await runProgram(program, checker, context, check.bytes, signal);
    // A crate's inputs also say whether rustc read the file at all: always asked for.
    if (context.collectInputs || checker.input === "crate") {
      inputs = await checker.inputs?.(context, output);
    }
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
  const found = checker.parse(output);
  const failed = output.code !== 0 && !found.some((native) => native.level === "error");
  if (failed) {
    const said = firstLine(output.stderr) ?? firstLine(output.stdout) ?? "no output";
    const reason =
      `${program} exited with ${output.code} and no diagnostic it could be read from: ${said}`;
    return skipped(check, checker.name, "compilerFailed", reason, started, tool);
  }
  const reader = { name: checker.name, candidates, context, ...tool };
  const result = finish(check, reader, found, started);
  if (inputs) result.inputs = inputs.flatMap((name) => userPath(name, reader) ?? []);
  const read = (name: string) => userPath(name, reader) === undefined;
  if (checker.input === "crate" && result.outcome.status === "passed" && !inputs?.some(read)) {
    const reason = `${program} did not read ${check.filePath}: no target of the crate includes ` +
      "it (a `mod` declaration names it)";
    return skipped(check, checker.name, "contextUnsupported", reason, started, tool);
  }
  return result;
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
      dir: check.dir,
      name,
      filePath: check.filePath,
      text: decoder.decode(check.bytes),
      copyPath: "",
      scratchDir: "",
      namesDir: check.dir,
      copied: [],
      collectInputs: check.collectInputs ?? false,
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
  const outcome: GateOutcome = {
    name: tool.name,
    status: failed ? "failed" : "passed",
    duration_ms: Math.round(performance.now() - started),
    ...pickTool(tool),
  };
  return { outcome, diagnostics };
}
