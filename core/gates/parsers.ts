/**
 * Parsers of each compiler's own output into {@linkcode NativeDiagnostic}s. Where the compiler
 * has a machine-readable format it is used (gcc's and rustc's JSON, the Python checker's JSON
 * lines); otherwise the text layout it has kept for years (node, javac, deno check, bash).
 * Messages are the compiler's words, verbatim.
 *
 * @module
 */
import type { DiagnosticLevel } from "../../schema/diagnostic.ts";
import type { NativeDiagnostic } from "./native.ts";

/** A line that only points at a column: spaces (or tabs) then `^` and `~`s. */
const CARET_LINE = /^[ \t]*\^[~^]*[ \t]*$/;

function levelOf(word: string): DiagnosticLevel {
  if (/warn/i.test(word)) return "warning";
  if (/^(note|help|info)/i.test(word)) return "note";
  return "error";
}

function lines(text: string): string[] {
  return text.replace(/\r\n/g, "\n").split("\n");
}

function parseJsonLines(text: string): unknown[] {
  return lines(text).filter((line) => line.startsWith("{")).map((line) => JSON.parse(line));
}

interface GccLocation {
  caret?: { file?: string; line?: number; "byte-column"?: number };
  finish?: { file?: string };
}

interface GccDiagnostic {
  kind: string;
  message: string;
  option?: string;
  option_url?: string;
  locations?: GccLocation[];
  children?: GccDiagnostic[];
}

function gccWhere(diagnostic: GccDiagnostic): string {
  const caret = diagnostic.locations?.[0]?.caret;
  if (!caret) return "";
  return `${caret.file}:${caret.line}:${caret["byte-column"]}: `;
}

/**
 * gcc's and g++'s `-fdiagnostics-format=json` (GCC 10 and later) on stderr: byte columns
 * (1-based there), the warning option as the native code and its documentation link.
 */
export function parseGccJson(stderr: string): NativeDiagnostic[] {
  // The array is one line; `-H` lists the headers read before it (`. config.h`).
  const array = lines(stderr).find((line) => line.startsWith("["));
  if (array === undefined) return [];
  const found = JSON.parse(array) as GccDiagnostic[];
  return found.map((diagnostic) => {
    const caret = diagnostic.locations?.[0]?.caret;
    const native: NativeDiagnostic = {
      level: levelOf(diagnostic.kind),
      message: diagnostic.message,
    };
    if (caret?.file !== undefined) native.file = caret.file;
    if (caret?.line !== undefined) native.line = caret.line;
    if (caret?.["byte-column"] !== undefined) {
      native.column = caret["byte-column"] - 1;
      native.columnUnit = "byte";
    }
    if (diagnostic.option) native.nativeCode = diagnostic.option;
    if (diagnostic.option_url) native.url = diagnostic.option_url;
    const children = diagnostic.children ?? [];
    if (children.length > 0) {
      native.note = children.map((child) => `${gccWhere(child)}${child.kind}: ${child.message}`)
        .join("\n");
    }
    const mentions = [diagnostic, ...children].flatMap((part) =>
      (part.locations ?? []).flatMap((location) => [location.caret?.file, location.finish?.file])
    ).filter((file): file is string => file !== undefined && file !== native.file);
    if (mentions.length > 0) native.mentions = [...new Set(mentions)];
    return native;
  });
}

/** The headers gcc's `-H` lists on stderr (`. config.h`, `.. /usr/include/x.h`), as named. */
export function parseGccHeaders(stderr: string): string[] {
  return lines(stderr).flatMap((line) => /^\.+ (.+)$/.exec(line)?.[1] ?? []);
}

/**
 * The folders gcc searches for `#include <…>` (its system headers), from what `-v` prints on
 * stderr between `#include <...> search starts here:` and `End of search list.`.
 */
export function parseGccSearchDirs(stderr: string): string[] {
  const text = lines(stderr);
  const start = text.indexOf("#include <...> search starts here:");
  if (start < 0) return [];
  const end = text.indexOf("End of search list.", start);
  return text.slice(start + 1, end < 0 ? undefined : end).map((line) => line.trim())
    .filter((line) => line !== "");
}

/**
 * The sources javac's `-verbose` says it parsed: `[parsing started SimpleFileObject[/abs/A.java]]`
 * and, for a file found on the source path, `DirectoryFileObject[<source path>:<relative>]`.
 */
export function parseJavacSources(stderr: string): string[] {
  return lines(stderr).flatMap((line) => {
    const file = /^\[parsing started (Simple|Directory)FileObject\[(.+)\]\]$/.exec(line);
    if (!file) return [];
    if (file[1] === "Simple") return [file[2]];
    const split = file[2].indexOf(":");
    return [`${file[2].slice(0, split)}/${file[2].slice(split + 1)}`];
  });
}

/** The files a Makefile-style dep-info file (rustc's `*.d`) lists as `path:` lines. */
export function parseDepInfo(text: string): string[] {
  return lines(text).flatMap((line) =>
    line.endsWith(":") && !line.includes(": ") ? [line.slice(0, -1)] : []
  );
}

/**
 * The local files (`file:` modules) of `deno info --json`'s module graph; remote, JSR and npm
 * modules, which Deno keeps in its own cache, are left out.
 */
export function parseDenoInfo(stdout: string): string[] {
  const graph = JSON.parse(stdout) as {
    modules?: { local?: string | null; specifier?: string }[];
  };
  return (graph.modules ?? []).flatMap((module) =>
    typeof module.local === "string" && module.specifier?.startsWith("file:") ? [module.local] : []
  );
}

/** A package of `cargo metadata`'s resolved graph. */
export interface CargoPackage {
  /** Its name. */
  name: string;
  /** Where it comes from (`registry+…`, `git+…`), or `null` for a local (path) package. */
  source: string | null;
  /** Its folder (that of its `Cargo.toml`). */
  dir: string;
  /** Its targets' kinds (`lib`, `bin`, `custom-build` for a build script, `proc-macro`). */
  kinds: string[];
}

/** The packages of `cargo metadata --format-version 1` (every one the resolve holds). */
export function parseCargoMetadata(stdout: string): CargoPackage[] {
  const metadata = JSON.parse(stdout) as {
    packages?: {
      name: string;
      source: string | null;
      manifest_path: string;
      targets: { kind: string[] }[];
    }[];
  };
  return (metadata.packages ?? []).map((found) => ({
    name: found.name,
    source: found.source,
    dir: found.manifest_path.replace(/[\\/]Cargo\.toml$/, ""),
    kinds: [...new Set(found.targets.flatMap((target) => target.kind))],
  }));
}

interface PythonReport {
  kind: "error" | "warning" | "version";
  type: string | null;
  message: string;
  lineno?: number | null;
  offset?: number | null;
}

/** A line of the Python checker that is a finding (not its version line). */
type PythonFinding = PythonReport & { kind: "error" | "warning" };

/**
 * The JSON lines of the Python checker (`python.ts`): the `SyntaxError` (or subclass) that
 * `compile` raised, with its 1-based character offset, and each warning it gave.
 */
export function parsePythonReport(stdout: string): NativeDiagnostic[] {
  const isFinding = (report: PythonReport): report is PythonFinding => report.kind !== "version";
  return (parseJsonLines(stdout) as PythonReport[]).filter(isFinding).map((report) => {
    const native: NativeDiagnostic = { level: report.kind, message: report.message };
    if (report.type) native.nativeCode = report.type;
    if (report.lineno) native.line = report.lineno;
    if (report.offset) {
      native.column = report.offset - 1;
      native.columnUnit = "utf16";
    }
    return native;
  });
}

/** The version line the Python checker printed (`Python 3.11.2`), if it printed one. */
export function parsePythonVersion(stdout: string): string | undefined {
  return (parseJsonLines(stdout) as PythonReport[]).find((report) => report.kind === "version")
    ?.message;
}

/**
 * The version line `javac -version` printed before its check (`javac 17.0.15`): on standard
 * output since JDK 9, on standard error before.
 */
export function parseJavacVersion(output: { stdout: string; stderr: string }): string | undefined {
  const version = /^javac \S+$/;
  return [...lines(output.stdout), ...lines(output.stderr)].find((line) => version.test(line));
}

/**
 * `node --check` on stderr: `FILE:LINE`, the source line, a caret under the column, a blank
 * line, then `SyntaxError: message`.
 */
export function parseNodeCheck(stderr: string): NativeDiagnostic[] {
  const text = lines(stderr);
  const head = text.findIndex((line) => /^.+:\d+$/.test(line));
  const error = text.findIndex((line) => /^[A-Za-z]*Error: /.test(line));
  if (error < 0) return [];
  const [, nativeCode, message] = /^([A-Za-z]*Error): (.*)$/.exec(text[error])!;
  const native: NativeDiagnostic = { level: "error", message, nativeCode };
  if (head >= 0 && head < error) {
    const [, file, line] = /^(.+):(\d+)$/.exec(text[head])!;
    native.file = file;
    native.line = Number(line);
    const caret = text.slice(head + 1, error).findIndex((line) => CARET_LINE.test(line));
    if (caret >= 0) {
      native.column = text[head + 1 + caret].indexOf("^");
      native.columnUnit = "utf16";
    }
  }
  return [native];
}

/**
 * javac's text output: `FILE:LINE: error: message`, the source line, a caret under the column
 * (which counts characters of the line), then detail lines (`symbol:`, `location:`).
 */
export function parseJavac(stderr: string): NativeDiagnostic[] {
  const header = /^(.+?):(\d+): (error|warning|note): (.*)$/;
  const found: NativeDiagnostic[] = [];
  let current: NativeDiagnostic | undefined;
  let details: string[] = [];
  const close = () => {
    if (current && details.length > 0) current.note = details.join("\n");
    details = [];
  };
  for (const line of lines(stderr)) {
    const head = header.exec(line);
    if (head) {
      close();
      current = {
        file: head[1],
        line: Number(head[2]),
        level: levelOf(head[3]),
        message: head[4],
      };
      found.push(current);
    } else if (current && CARET_LINE.test(line)) {
      current.column = line.indexOf("^");
      current.columnUnit = "utf16";
    } else if (current && /^\s+\S/.test(line) && current.column !== undefined) {
      details.push(line.trim());
    } else if (/^\d+ (error|warning)s?$/.test(line)) {
      close();
      current = undefined;
    }
  }
  close();
  return found;
}

interface RustSpan {
  file_name: string;
  byte_start: number;
  byte_end: number;
  line_start: number;
  column_start: number;
  is_primary: boolean;
  label?: string | null;
}

interface RustDiagnostic {
  $message_type?: string;
  message: string;
  code?: { code: string } | null;
  level: string;
  spans: RustSpan[];
  children: RustDiagnostic[];
}

function rustChild(child: RustDiagnostic): string {
  const span = child.spans.find((candidate) => candidate.is_primary);
  const where = span ? ` (${span.file_name}:${span.line_start}:${span.column_start})` : "";
  return `${child.level}: ${child.message}${where}`;
}

/** A rustc diagnostic as a native one, or `undefined` for a closing summary. */
function rustNative(diagnostic: RustDiagnostic): NativeDiagnostic | undefined {
  const span = diagnostic.spans.find((candidate) => candidate.is_primary);
  if (!span && diagnostic.level === "failure-note") return undefined;
  if (!span && /^(aborting due to|\d+ warnings? emitted)/.test(diagnostic.message)) {
    return undefined;
  }
  const native: NativeDiagnostic = {
    level: levelOf(diagnostic.level),
    message: diagnostic.message,
  };
  if (span) {
    native.file = span.file_name;
    native.line = span.line_start;
    native.byteRange = [span.byte_start, span.byte_end];
  }
  const code = diagnostic.code?.code;
  if (code) {
    native.nativeCode = code;
    if (/^E\d{4}$/.test(code)) {
      native.url = `https://doc.rust-lang.org/error_codes/${code}.html`;
    }
  }
  const notes = [
    ...(span?.label ? [span.label] : []),
    ...diagnostic.children.map(rustChild),
  ];
  if (notes.length > 0) native.note = notes.join("\n");
  const mentions = [diagnostic, ...diagnostic.children].flatMap((part) =>
    part.spans.map((other) => other.file_name)
  ).filter((file) => file !== native.file);
  if (mentions.length > 0) native.mentions = [...new Set(mentions)];
  return native;
}

/**
 * rustc's `--error-format=json` on stderr: one object per line, with exact byte ranges of the
 * primary span. The closing summaries (`aborting due to…`, `N warnings emitted`, the
 * `--explain` hint) are left out: they say nothing about the file.
 */
export function parseRustcJson(stderr: string): NativeDiagnostic[] {
  return (parseJsonLines(stderr) as RustDiagnostic[])
    .filter((diagnostic) =>
      diagnostic.$message_type === undefined || diagnostic.$message_type === "diagnostic"
    )
    .flatMap((diagnostic) => rustNative(diagnostic) ?? []);
}

interface CargoMessage {
  reason: string;
  message?: RustDiagnostic;
}

/**
 * `cargo check --message-format=json` on stdout: one object per line; the `compiler-message`
 * ones carry rustc's diagnostics (file names relative to the workspace folder), each reported
 * once even when several targets of the package compile the file.
 */
export function parseCargoJson(stdout: string): NativeDiagnostic[] {
  const seen = new Set<string>();
  const found: NativeDiagnostic[] = [];
  for (const line of parseJsonLines(stdout) as CargoMessage[]) {
    if (line.reason !== "compiler-message" || !line.message) continue;
    const native = rustNative(line.message);
    const key = JSON.stringify(native);
    if (native && !seen.has(key)) found.push(native);
    seen.add(key);
  }
  return found;
}

const DENO_HEADER = /^(TS\d+) \[(ERROR|WARN|INFO)\]: (.*)$/;
const DENO_ERROR = /^error: (.*)$/;
const DENO_AT = /^ {4}at (\S+):(\d+):(\d+)$/;

function denoBlocks(text: string[]): string[][] {
  const blocks: string[][] = [];
  let current: string[] | undefined;
  for (const line of text) {
    if (DENO_HEADER.test(line) || (DENO_ERROR.test(line) && !/Type checking failed/.test(line))) {
      current = [line];
      blocks.push(current);
    } else if (/^(error: Type checking failed|Found \d+ errors?\.|Stack backtrace:)/.test(line)) {
      // The closing summary (and a backtrace when RUST_BACKTRACE is set) ends the last block.
      current = undefined;
    } else current?.push(line);
  }
  return blocks;
}

const CODE_FRAME = /^\s*\d*\s\|/;

/** The level, message and code of a block's first line (`TS2322 [ERROR]: …`, `error: …`). */
function denoHead(line: string): NativeDiagnostic {
  const header = DENO_HEADER.exec(line);
  if (header) return { level: levelOf(header[2]), message: header[3], nativeCode: header[1] };
  const message = DENO_ERROR.exec(line)![1];
  const named = /^([A-Za-z]*Error): (.*)$/.exec(message);
  return named
    ? { level: "error", message: named[2], nativeCode: named[1] }
    : { level: "error", message };
}

function denoDiagnostic(block: string[]): NativeDiagnostic {
  const native = denoHead(block[0]);
  const at = block.findIndex((line) => DENO_AT.test(line));
  // A parse error shows its code in a frame (`1 | code`, `  |   ~`): the position says it.
  const body = (at < 0 ? block.slice(1) : block.slice(1, at)).filter((line) =>
    !CODE_FRAME.test(line)
  );
  const caret = body.findIndex((line) => CARET_LINE.test(line));
  const chain = caret > 0 ? body.slice(0, caret - 1) : body.filter((line) => line.trim() !== "");
  if (chain.length > 0) native.message += `\n${chain.join("\n")}`;
  if (at >= 0) {
    const [, file, line, column] = DENO_AT.exec(block[at])!;
    native.file = file;
    native.line = Number(line);
    native.column = Number(column) - 1;
    native.columnUnit = "utf16";
  }
  const related = block.slice(at + 1).filter((line) =>
    line.trim() !== "" && !CARET_LINE.test(line) && !/^\s+\d+: /.test(line)
  );
  if (at >= 0 && related.length > 0) native.note = related.map((line) => line.trim()).join("\n");
  const mentions = related.flatMap((line) => /\bat (\S+):\d+:\d+$/.exec(line)?.[1] ?? [])
    .filter((file) => file !== native.file);
  if (at >= 0 && mentions.length > 0) native.mentions = [...new Set(mentions)];
  return native;
}

/**
 * `deno check` on stderr (colour off): blocks of `TS2322 [ERROR]: message`, the message chain,
 * the source line, a caret, `    at file:///…:LINE:COL`, then related information, indented.
 */
export function parseDenoCheck(stderr: string): NativeDiagnostic[] {
  return denoBlocks(lines(stderr)).map(denoDiagnostic);
}

/**
 * `bash -n` on stderr: `FILE: line N: message`; a line that only quotes the source
 * (`` FILE: line N: `…' ``) is kept as the note of the message before it.
 */
export function parseBash(stderr: string): NativeDiagnostic[] {
  const found: NativeDiagnostic[] = [];
  for (const line of lines(stderr)) {
    const head = /^(.+?): line (\d+): (.*)$/.exec(line);
    if (!head) continue;
    const [, file, number, message] = head;
    const previous = found.at(-1);
    if (message.startsWith("`") && previous?.line === Number(number)) {
      previous.note = message;
      continue;
    }
    found.push({ file, line: Number(number), level: "error", message });
  }
  return found;
}

/**
 * `go vet` on stderr: `FILE:LINE:COL: message` (1-based byte columns), the file relative to
 * the working folder (`./main.go`, `util/util.go`), a type error of vet's own checker prefixed
 * with `vet: `; the `# package` lines between are headers. Each finding fails `go test` too.
 */
export function parseGoVet(stderr: string): NativeDiagnostic[] {
  return lines(stderr).flatMap((line): NativeDiagnostic[] => {
    const head = /^(?:vet: )?(.+?\.go):(\d+):(\d+): (.*)$/.exec(line);
    if (!head) return [];
    const [, file, number, column, message] = head;
    return [{
      file: file.replace(/^\.\//, ""),
      line: Number(number),
      column: Number(column) - 1,
      columnUnit: "byte",
      level: "error",
      message,
    }];
  });
}
