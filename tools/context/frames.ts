/**
 * Traceback frames in a task text: Python's (`File "x.py", line 3, in f`, IPython's two forms,
 * pytest's `x.py:3: in f`), Node's (`at f (x.js:3:5)`), Java's (`at pkg.C.m(C.java:3)`), Rust's
 * (`panicked at src/main.rs:3:5`, a backtrace's `at ./src/x.rs:3:5`) and Go's (`/p/x.go:3 +0x1f`).
 * Each frame keeps its path as written, a repository-relative guess of it
 * ({@linkcode pathSuffix}), its line and its function; frames that follow each other make one
 * traceback, and each frame's `distance` counts the frames between it and the error (Python
 * prints the innermost frame last, the others first). Pure, line by line, linear in the text.
 *
 * @module
 */

/** The family of a traceback, by the format of its frames. */
export type TracebackLanguage = "python" | "javascript" | "java" | "rust" | "go";

/** One frame of a traceback. */
export interface Frame {
  /** The path as written in the task. */
  path: string;
  /** The path from its likely repository root (see {@linkcode pathSuffix}). */
  suffix: string;
  /** 1-based line, when the frame gives one. */
  line?: number;
  /** 1-based column, when the frame gives one. */
  column?: number;
  /**
   * The function as the frame writes it, when it names one (`Plot._plot`, `Class.method`,
   * `pkg.(*T).Method`, `crate::module::f`), without arguments, a Go import path or a Rust hash.
   */
  function?: string;
  /** Code-unit offset of `function` in the task text. */
  function_offset?: number;
  /** Code-unit offset of `path` in the task text. */
  offset: number;
  /** Frames between this one and the error: 0 for the innermost. */
  distance: number;
}

/** Frames that follow each other in a task: one traceback, in the order written. */
export interface Traceback {
  /** The format its frames are in. */
  language: TracebackLanguage;
  /** Its frames in the order of the text. */
  frames: Frame[];
}

/** A traceback found in a text, and the lines its frames' headers took. */
export interface FoundTracebacks {
  /** The tracebacks, in the order of the text. */
  tracebacks: Traceback[];
  /** `[start, end)` code-unit ranges of the frame header lines, in order. */
  consumed: [number, number][];
  /** True when more than `maxFrames` frames were found and the rest left out. */
  cut: boolean;
}

/** A frame as parsed from its line, before grouping. */
interface RawFrame {
  language: TracebackLanguage;
  /** Python prints the innermost frame last. */
  innermostLast: boolean;
  path: string;
  /** The repository-relative path, when the format gives it (Java). */
  suffix?: string;
  line?: number;
  column?: number;
  function?: string;
  functionOffset?: number;
  offset: number;
  lineIndex: number;
  start: number;
  end: number;
}

/** Lines longer than this are read only this far by the frame patterns. */
const LINE_CAP = 1_000;
/** Lines between two frames of one traceback at most (IPython shows context lines). */
const MAX_GAP = 40;

const PY_FRAME = /^\s*File "([^"]+)", line (\d+|unknown)(?:, in ([^\s(]+))?/d;
const IPY_FRAME = /^\s*File (\S+?):(\d+), in ([^\s(]+)/d;
const IPY_OLD_FRAME = /^(\S+\.py[xi]?) in ([^\s(]+)\(/d;
const IPY_ARROW = /^\s*-+>\s*(\d+)/;
const PYTEST_FRAME =
  /^(\S+\.py):(\d+): (?:in ([^\s(]+)\s*$|[A-Z]\w*(?:Error|Exception|Warning)\b)/d;
const AT_FRAME =
  /^\s*at (?:async )?(?:([^()]+) \()?((?:file:\/\/)?[^\s()]+?):(\d+)(?::(\d+))?\)?\s*$/d;
const JAVA_FRAME = /^\s*at ((?:[\w$]+\.)+)([\w$<>]+)\(([\w$]+\.(?:java|kt|scala|groovy)):(\d+)\)/d;
const RUST_PANIC = /panicked at (?:'[^']*', |"[^"]*", )?([^\s:'"]+\.rs):(\d+):(\d+)/d;
const RUST_BT_FN = /^\s*\d+: (\S+?)(?:::h[0-9a-f]{16})?\s*$/d;
const GO_FRAME = /^\s*(\S+\.go):(\d+)(?: \+0x[0-9a-f]+)?\s*$/d;
/** A Go frame's function line: the import path up to its last `/` left out, then the name. */
const GO_FN = /^\s*(?:\S*\/)?([^\s/(]*(?:\(\*?\w+\))?[^\s/(]*)\(.*\)\s*$/d;
/** Lines that end one traceback (and an exception line, {@linkcode parseExceptionLine}). */
const BREAK =
  /^\s*(?:Traceback \(most recent call last\)|During handling of the above exception|The above exception was the direct cause|goroutine \d+ \[|```|~~~)/;
/** An exception line's head: its type (maybe qualified), a code in brackets, the message. */
const EXCEPTION_HEAD = /^([A-Za-z_][\w.]{0,200})(\[[A-Z]?\d{1,6}\])?: +(\S.*)$/d;

/**
 * The tracebacks of a text, by its lines. `lineStarts` are the code-unit offsets where each line
 * starts (the first is 0); a line ends before its `\n` (and a `\r` before that). At most
 * `maxFrames` frames are kept.
 *
 * @example A Python traceback: the innermost frame (last) has distance 0
 * ```ts
 * import assert from "node:assert/strict";
 * import { findTracebacks } from "./frames.ts";
 * const text = 'Traceback (most recent call last):\n  File "/u/lib/python3.9/site-packages/' +
 *   'pkg/a.py", line 3, in run\n    go()\n  File "pkg/b.py", line 9, in go\nValueError: no';
 * const starts = [0, ...[...text.matchAll(/\n/g)].map((m) => m.index + 1)];
 * const [traceback] = findTracebacks(text, starts).tracebacks;
 * assert.deepEqual(
 *   traceback.frames.map((f) => [f.suffix, f.line, f.function, f.distance]),
 *   [["pkg/a.py", 3, "run", 1], ["pkg/b.py", 9, "go", 0]],
 * );
 * ```
 */
export function findTracebacks(
  text: string,
  lineStarts: readonly number[],
  maxFrames = 500,
): FoundTracebacks {
  const raw: RawFrame[] = [];
  const breaks = new Set<number>();
  let cut = false;
  const lineAt = (index: number): TextLine | undefined => {
    if (index < 0 || index >= lineStarts.length) return undefined;
    const start = lineStarts[index];
    let end = index + 1 < lineStarts.length ? lineStarts[index + 1] - 1 : text.length;
    if (end > start && text.charCodeAt(end - 1) === 13) end--;
    return { start, end, body: text.slice(start, Math.min(end, start + LINE_CAP)) };
  };
  for (let index = 0; index < lineStarts.length; index++) {
    const line = lineAt(index)!;
    const frame = parseFrame(line, (n) => lineAt(index + n));
    if (frame === undefined) {
      if (BREAK.test(line.body) || parseExceptionLine(line.body) !== undefined) breaks.add(index);
      continue;
    }
    if (raw.length >= maxFrames) {
      cut = true;
      break;
    }
    raw.push({ ...frame, lineIndex: index, start: line.start, end: line.end });
  }
  const tracebacks: Traceback[] = [];
  let group: RawFrame[] = [];
  const close = () => {
    const kept = group.filter((f) => !isPseudoPath(f.path));
    if (kept.length > 0) {
      const last = kept.length - 1;
      tracebacks.push({
        language: kept[0].language,
        frames: kept.map((f, i) => ({
          path: f.path,
          suffix: f.suffix ?? pathSuffix(f.path),
          ...(f.line === undefined ? {} : { line: f.line }),
          ...(f.column === undefined ? {} : { column: f.column }),
          ...(f.function === undefined
            ? {}
            : { function: f.function, function_offset: f.functionOffset }),
          offset: f.offset,
          distance: f.innermostLast ? last - i : i,
        })),
      });
    }
    group = [];
  };
  for (const frame of raw) {
    const previous = group.at(-1);
    if (previous !== undefined) {
      let broken = previous.language !== frame.language ||
        frame.lineIndex - previous.lineIndex > MAX_GAP;
      for (let i = previous.lineIndex + 1; !broken && i < frame.lineIndex; i++) {
        broken = breaks.has(i);
      }
      if (broken) close();
    }
    group.push(frame);
  }
  close();
  return { tracebacks, consumed: raw.map((f) => [f.start, f.end]), cut };
}

/** One line of the text: where it starts and ends, and its first {@linkcode LINE_CAP} units. */
interface TextLine {
  start: number;
  end: number;
  body: string;
}

type ParsedFrame = Omit<RawFrame, "lineIndex" | "start" | "end">;

/** A frame parsed from one line (`near(n)`: the line n below, or above when n < 0). */
function parseFrame(
  line: TextLine,
  near: (n: number) => TextLine | undefined,
): ParsedFrame | undefined {
  const { body, start } = line;
  // `<module>`, `<listcomp>`, `<genexpr>`: no function of the code.
  const fn = (m: RegExpExecArray, group: number, at = start) =>
    m[group] === undefined || m[group].startsWith("<")
      ? {}
      : { function: m[group], functionOffset: at + groupStart(m, group) };
  let m = PY_FRAME.exec(body);
  if (m === null) {
    m = IPY_FRAME.exec(body);
    if (m !== null && m[1].startsWith("<")) m = null;
  }
  if (m === null) m = PYTEST_FRAME.exec(body);
  if (m !== null) {
    return {
      language: "python",
      innermostLast: true,
      path: m[1],
      ...(m[2] === "unknown" ? {} : { line: Number(m[2]) }),
      ...fn(m, 3),
      offset: start + groupStart(m, 1),
    };
  }
  m = IPY_OLD_FRAME.exec(body);
  if (m !== null) {
    let lineNumber: number | undefined;
    for (let n = 1; n <= MAX_GAP; n++) {
      const next = near(n)?.body;
      if (next === undefined || next.trim() === "" || IPY_OLD_FRAME.test(next)) break;
      const arrow = IPY_ARROW.exec(next);
      if (arrow !== null) {
        lineNumber = Number(arrow[1]);
        break;
      }
    }
    return {
      language: "python",
      innermostLast: true,
      path: m[1],
      ...(lineNumber === undefined ? {} : { line: lineNumber }),
      ...fn(m, 2),
      offset: start + groupStart(m, 1),
    };
  }
  m = JAVA_FRAME.exec(body);
  if (m !== null) {
    const qualifier = m[1].slice(0, -1).split(".");
    const className = qualifier.at(-1)!;
    return {
      language: "java",
      innermostLast: false,
      path: m[3],
      suffix: [...qualifier.slice(0, -1), m[3]].join("/"),
      line: Number(m[4]),
      function: `${className}.${m[2]}`,
      functionOffset: start + groupStart(m, 2) - className.length - 1,
      offset: start + groupStart(m, 3),
    };
  }
  m = RUST_PANIC.exec(body);
  if (m !== null) {
    return {
      language: "rust",
      innermostLast: false,
      path: m[1],
      line: Number(m[2]),
      column: Number(m[3]),
      offset: start + groupStart(m, 1),
    };
  }
  m = AT_FRAME.exec(body);
  if (m !== null) {
    const path = m[2];
    const position = {
      path,
      line: Number(m[3]),
      ...(m[4] === undefined ? {} : { column: Number(m[4]) }),
      offset: start + groupStart(m, 2),
    };
    if (path.endsWith(".rs")) {
      const previous = near(-1);
      const caller = previous === undefined ? null : RUST_BT_FN.exec(previous.body);
      return {
        language: "rust",
        innermostLast: false,
        ...position,
        ...(caller === null ? {} : fn(caller, 1, previous!.start)),
      };
    }
    if (/^(?:node:|internal\/)|<anonymous>/.test(path)) return undefined;
    const name = m[1] === undefined ? undefined : jsFunction(m[1]);
    return {
      language: "javascript",
      innermostLast: false,
      ...position,
      ...(name === undefined
        ? {}
        : { function: name, functionOffset: start + groupStart(m, 1) + m[1].indexOf(name) }),
    };
  }
  m = GO_FRAME.exec(body);
  if (m !== null) {
    const previous = near(-1);
    const caller = previous === undefined ? null : GO_FN.exec(previous.body);
    return {
      language: "go",
      innermostLast: false,
      path: m[1],
      line: Number(m[2]),
      ...(caller === null ? {} : fn(caller, 1, previous!.start)),
      offset: start + groupStart(m, 1),
    };
  }
  return undefined;
}

/** Where group `group` of a match made with the `d` flag starts in the matched string. */
function groupStart(m: RegExpExecArray, group: number): number {
  return m.indices?.[group]?.[0] ?? 0;
}

/** `Foo.bar [as baz]`, `new Foo`, `async fn` → `Foo.bar`, `Foo`, `fn`. */
function jsFunction(raw: string): string | undefined {
  const name = raw.replace(/ \[as [^\]]*\]$/, "").replace(/^(?:new|async) /, "").trim();
  return /^[\w$.]+$/.test(name) ? name : undefined;
}

/**
 * `<stdin>`, `<string>`, `<ipython-input-3-…>`, `<__array_function__ internals>`, a URL, or a
 * name with no letter or digit before its extension (`***.py`, redacted): no file.
 */
function isPseudoPath(path: string): boolean {
  const name = path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);
  return path.startsWith("<") || /^\w+:\/\/(?!\/)/.test(path) ||
    !/[\p{L}\p{N}]/u.test(name.replace(/\.[^.]*$/, ""));
}

/** Folder names a path's owner puts repositories in, after the home folder. */
const CONTAINERS = new Set(
  "code src source projects project repos repo git github work workspace dev desktop documents"
    .split(" "),
);

/**
 * The part of a path from its likely repository root, slashes forward: after the last
 * `site-packages/`, `dist-packages/` or `node_modules/` (and an `.egg` folder after it), after
 * `lib/pythonX.Y/` (the standard library), from the folder that repeats its parent's name
 * (`~/code/seaborn/seaborn/x.py`, `sympy-master/sympy/x.py`), else the path without `./`, a
 * drive, a home folder and the folders people keep repositories in (`Documents/`, `code/`).
 * Only a guess: the ranking matches it, and its shorter suffixes, against the repository.
 *
 * @example Installed, checked out and relative paths
 * ```ts
 * import assert from "node:assert/strict";
 * import { pathSuffix } from "./frames.ts";
 * assert.equal(
 *   pathSuffix("/u/.pyenv/lib/python2.7/site-packages/requests-2.3.0-py2.7.egg/requests/models.py"),
 *   "requests/models.py",
 * );
 * assert.equal(pathSuffix("~/code/seaborn/seaborn/_core/plot.py"), "seaborn/_core/plot.py");
 * assert.equal(pathSuffix("C:\\Users\\E\\sympy-master\\sympy\\core\\mul.py"), "sympy/core/mul.py");
 * assert.equal(pathSuffix("./sympy/geometry/util.py"), "sympy/geometry/util.py");
 * ```
 */
export function pathSuffix(path: string): string {
  let p = path.replace(/\\/g, "/").replace(/^file:\/\//, "").replace(/\/{2,}/g, "/");
  for (const marker of ["/site-packages/", "/dist-packages/", "/node_modules/"]) {
    const at = p.lastIndexOf(marker);
    if (at >= 0) {
      p = p.slice(at + marker.length);
      if (marker !== "/node_modules/") p = p.replace(/^[^/]+\.egg\//, "");
      return p;
    }
  }
  const stdlib = /\/lib\/python\d+(?:\.\d+)?\/(?!.*\/lib\/python\d)/.exec(p);
  if (stdlib) return p.slice(stdlib.index + stdlib[0].length);
  const parts = p.split("/");
  for (let i = 0; i + 2 < parts.length; i++) {
    const here = parts[i].toLowerCase();
    const next = parts[i + 1].toLowerCase();
    if (
      next.length > 1 && !next.startsWith(".") &&
      (here === next || here.startsWith(`${next}-`) || here.startsWith(`${next}_`) ||
        here.startsWith(`${next}.`))
    ) {
      return parts.slice(i + 1).join("/");
    }
  }
  const relative = p.replace(/^(?:\.\.?\/)+/, "");
  const home = /^(?:[A-Za-z]:)?(?:~\/|\/(?:home|Users|users)\/[^/]+\/|\/root\/)/.exec(relative);
  if (home === null) return relative.replace(/^(?:[A-Za-z]:)?\//, "");
  let rest = relative.slice(home[0].length).split("/");
  while (rest.length > 1 && CONTAINERS.has(rest[0].toLowerCase())) rest = rest.slice(1);
  return rest.join("/");
}

/** An exception line of a task: the error's type and its message. */
export interface ExceptionLine {
  /** The type as written (`ValueError`, `socket.error`, `error[E0308]`, `panic`). */
  type: string;
  /** The message after the type, trimmed. */
  message: string;
  /** Code-unit offset of the message in the line. */
  offset: number;
}

/**
 * The exception a line reports, if it is an exception line: `ValueError: msg`,
 * `requests.exceptions.ConnectionError: msg`, `socket.error: msg`, pytest's `E   TypeError: msg`,
 * Rust's `error[E0308]: msg`, Go's `panic: msg`, Java's `Exception in thread "main"
 * java.lang.IllegalStateException: msg`, Node's `Uncaught TypeError: msg`, and one in a comment
 * of a code sample (`# MergeError: msg`, `// raises TypeError: msg`).
 *
 * @example Python, Rust and prose
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseExceptionLine } from "./frames.ts";
 * assert.deepEqual(parseExceptionLine("ValueError: could not convert"), {
 *   type: "ValueError",
 *   message: "could not convert",
 *   offset: 12,
 * });
 * assert.equal(parseExceptionLine("error[E0308]: mismatched types")?.type, "error[E0308]");
 * assert.equal(parseExceptionLine("Note: this is prose"), undefined);
 * ```
 */
export function parseExceptionLine(line: string): ExceptionLine | undefined {
  const lead =
    /^\s*(?:E {2,}|Uncaught |Exception in thread "[^"]{0,100}" |(?:#+|\/\/) ?(?:raises )?)?/
      .exec(line)![0].length;
  const m = EXCEPTION_HEAD.exec(line.slice(lead, lead + LINE_CAP));
  if (m === null) return undefined;
  const name = m[1];
  const last = name.slice(name.lastIndexOf(".") + 1);
  const typed = /^[A-Z]\w*(?:Error|Exception|Warning|Exit|Interrupt|Fault|Failure)$/.test(last) ||
    (last === "error" && (name !== last || m[2] !== undefined || lead === 0)) ||
    ((name === "panic" || name === "fatal") && m[2] === undefined);
  if (!typed) return undefined;
  const message = m[3].trim();
  if (message.startsWith("Traceback (")) return undefined;
  return { type: name + (m[2] ?? ""), message, offset: lead + groupStart(m, 3) };
}
