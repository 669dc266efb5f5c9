/**
 * The gold of the localization bench (`localize_bench.ts`), from an instance's `patch` (a
 * unified diff, as SWE-bench gives it) and the original files at `base_commit`:
 *
 * - **files**: the files the patch changes or deletes, named by their original (`a/`) side. A
 *   file the patch adds did not exist: it is listed apart (`added`) and has no gold lines.
 * - **where**: a hunk's header may be off: SWE-bench's patches are applied with `git apply`, which
 *   finds a hunk's original lines (context and removed) near the line its header names, at any
 *   offset. So does the gold ({@linkcode locateHunks}), when it has the original text; a hunk
 *   found nowhere keeps its header's place and is counted (`unmatchedHunks`).
 * - **lines**: the changed lines of the original file: every line the patch removes (a modified
 *   line is a removed one followed by its replacement). A pure insertion (added lines with no
 *   removed line among them) changes no original line, so it stands for the line before and
 *   the line after the insertion point (whichever exist: at the top of a file only the line
 *   after, at its end only the line before). Such lines are marked as what they are.
 * - **functions**: for each gold line, the innermost function or method enclosing it, in the
 *   definitions of the original file (`localize_parse.ts`). A line that no function encloses
 *   (module level, or a class body outside its methods) is the file's own: it has no gold
 *   function. Note that the line after an insertion point can be the first line of the next
 *   function (a new method inserted before it), which then counts as a gold function too.
 *
 * Pure: no file system, no parser. The caller parses the original files.
 *
 * @module
 */

/** One definition of an original file, as the parser adapter (`localize_parse.ts`) gives it. */
export interface SourceDefinition {
  /** Its name as written. */
  name: string;
  /** Its name qualified by the enclosing definitions, e.g. `Class.method`. */
  qualified_name: string;
  /** Normalised kind: `function`, `method`, `class`, `constant`, `variable`, … */
  kind: string;
  /** UTF-8 byte offset of its first byte. */
  byte_start: number;
  /** UTF-8 byte offset just past its last byte. */
  byte_end: number;
  /** 1-based first line. */
  start_line: number;
  /** 1-based last line. */
  end_line: number;
}

/** One hunk of a file's diff. */
export interface Hunk {
  /** `s` of `-s,c`: the first original line (the line before the hunk when `oldCount` is 0). */
  oldStart: number;
  /** `c` of `-s,c` (1 when omitted). */
  oldCount: number;
  /** `s` of `+s,c`. */
  newStart: number;
  /** `c` of `+s,c` (1 when omitted). */
  newCount: number;
  /** The hunk's lines, each with its marker (` `, `-`, `+`); `\ No newline` lines dropped. */
  lines: string[];
}

/** What a patch does to one file. */
export interface FilePatch {
  /** Path on the original side (`a/`), or `null` for a file the patch adds. */
  oldPath: string | null;
  /** Path on the new side (`b/`), or `null` for a file the patch deletes. */
  newPath: string | null;
  /** `modified`, `added`, `deleted` or `renamed` (renamed, with or without changes). */
  status: "modified" | "added" | "deleted" | "renamed";
  /** Its hunks, in order. */
  hunks: Hunk[];
}

/** Why a line is gold. */
export type LineKind = "removed" | "before_insertion" | "after_insertion";

/** One gold line of an original file. */
export interface ChangedLine {
  /** 1-based line of the original file. */
  line: number;
  /** `removed` (removed or modified), or a neighbour of a pure insertion. */
  kind: LineKind;
}

/** A gold line with its file. */
export interface GoldLine extends ChangedLine {
  /** Original path of the file. */
  file_path: string;
}

/** A function or method that encloses gold lines (the innermost one for each of them). */
export interface GoldFunction {
  /** Original path of its file. */
  file_path: string;
  /** Its name as written. */
  name: string;
  /** Its qualified name. */
  qualified_name: string;
  /** `function` or `method`. */
  kind: string;
  /** Its first line. */
  start_line: number;
  /** Its last line. */
  end_line: number;
  /** The gold lines it is the innermost function of, ascending. */
  lines: number[];
}

/** The gold of one instance. */
export interface Gold {
  /** Original paths of the files the patch changes or deletes, in patch order. */
  files: string[];
  /** New paths of the files the patch adds (not gold files: they have no original). */
  added: string[];
  /** Every gold line of every gold file, by file in patch order, then by line. */
  lines: GoldLine[];
  /** The gold functions, by file in patch order, then by position. */
  functions: GoldFunction[];
  /** Gold lines that no function encloses (module level, class bodies). */
  fileLevelLines: GoldLine[];
  /** Hunks found in the original at another line than their header's. */
  movedHunks: number;
  /** Hunks whose original lines were not found in the original text (kept at their header). */
  unmatchedHunks: number;
}

/** What the gold needs to know of an original file. */
export interface OriginalFile {
  /** How many lines it has (a last line without a newline counts). */
  lineCount: number;
  /** Its definitions (any kinds; only functions and methods are used). */
  definitions: readonly SourceDefinition[];
  /**
   * Its lines (the text split at `\n`, without the empty string after a last newline): when
   * given, each hunk is placed where its original lines are ({@linkcode locateHunks}).
   */
  lines?: readonly string[];
}

/** Kinds that can be gold functions. */
const GOLD_KINDS: ReadonlySet<string> = new Set(["function", "method"]);

/** A path of a diff header: C-quoted (`"a/x\tb"`) or plain, `a/`/`b/` prefix removed. */
function headerPath(raw: string, prefix: string): string | null {
  let path = raw.trim();
  if (path.startsWith('"')) path = unquote(path);
  else {
    // `--- a/x.py\t2020-01-01 …`: a timestamp after a tab.
    const tab = path.indexOf("\t");
    if (tab >= 0) path = path.slice(0, tab);
  }
  if (path === "/dev/null") return null;
  return path.startsWith(prefix) ? path.slice(prefix.length) : path;
}

const ESCAPES: Record<string, string> = { n: "\n", t: "\t", '"': '"', "\\": "\\" };

/** Git's C-quoted path, octal escapes read as UTF-8 bytes. */
function unquote(quoted: string): string {
  const body = quoted.slice(1, quoted.lastIndexOf('"'));
  const bytes: number[] = [];
  const encoder = new TextEncoder();
  for (let i = 0; i < body.length; i++) {
    const char = body[i];
    if (char !== "\\") {
      bytes.push(...encoder.encode(char));
      continue;
    }
    const next = body[i + 1];
    if (/[0-7]/.test(next)) {
      bytes.push(parseInt(body.slice(i + 1, i + 4), 8));
      i += 3;
    } else {
      bytes.push(...encoder.encode(ESCAPES[next] ?? next));
      i += 1;
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

/** The two paths of `diff --git a/x b/y` when they can be told apart (no quotes, same name). */
function gitHeaderPaths(rest: string): [string, string] | undefined {
  if (rest.startsWith('"')) return undefined;
  // Without renames both sides are the same path: `a/P b/P`.
  const half = (rest.length - 1) / 2;
  if (Number.isInteger(half) && rest[half] === " ") {
    const a = rest.slice(0, half);
    const b = rest.slice(half + 1);
    if (a.startsWith("a/") && b.startsWith("b/") && a.slice(2) === b.slice(2)) {
      return [a.slice(2), b.slice(2)];
    }
  }
  return undefined;
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/**
 * The files of a unified diff (git's extended headers understood: new and deleted file modes,
 * renames, binary files), each with its hunks. Hunk bodies are read by their line counts, so a
 * removed line that starts with `-- ` is never taken for a header.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parsePatch } from "./localize_gold.ts";
 * const patch = "diff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n";
 * const [file] = parsePatch(patch);
 * assert.equal(file.oldPath, "x.py");
 * assert.deepEqual(file.hunks[0].lines, [" a", "-b", "+c"]);
 * ```
 */
export function parsePatch(patch: string): FilePatch[] {
  const lines = patch.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const files: FilePatch[] = [];
  let current: FilePatch | undefined;
  let sawHeaderPaths = false;
  const start = (oldPath: string | null, newPath: string | null) => {
    current = { oldPath, newPath, status: "modified", hunks: [] };
    files.push(current);
    sawHeaderPaths = false;
  };
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (line.startsWith("diff --git ")) {
      const paths = gitHeaderPaths(line.slice("diff --git ".length));
      start(paths?.[0] ?? null, paths?.[1] ?? null);
      i++;
      continue;
    }
    if (line.startsWith("--- ") && lines[i + 1]?.startsWith("+++ ")) {
      if (!current || sawHeaderPaths || current.hunks.length > 0) start(null, null);
      const file = current!;
      file.oldPath = headerPath(line.slice(4), "a/");
      file.newPath = headerPath(lines[i + 1].slice(4), "b/");
      sawHeaderPaths = true;
      i += 2;
      continue;
    }
    const hunk = HUNK_HEADER.exec(line);
    if (hunk && current) {
      const parsed: Hunk = {
        oldStart: Number(hunk[1]),
        oldCount: hunk[2] === undefined ? 1 : Number(hunk[2]),
        newStart: Number(hunk[3]),
        newCount: hunk[4] === undefined ? 1 : Number(hunk[4]),
        lines: [],
      };
      let oldLeft = parsed.oldCount;
      let newLeft = parsed.newCount;
      i++;
      while (i < lines.length && (oldLeft > 0 || newLeft > 0 || lines[i].startsWith("\\"))) {
        const body = lines[i];
        i++;
        if (body.startsWith("\\")) continue; // "\ No newline at end of file"
        const marker = body === "" ? " " : body[0]; // an empty context line lost its space
        if (marker === "-") oldLeft--;
        else if (marker === "+") newLeft--;
        else if (marker === " ") {
          oldLeft--;
          newLeft--;
        } else break;
        parsed.lines.push(body === "" ? " " : body);
      }
      current.hunks.push(parsed);
      continue;
    }
    if (current) {
      if (line.startsWith("new file mode")) current.oldPath = null;
      else if (line.startsWith("deleted file mode")) current.newPath = null;
      else if (line.startsWith("rename from ")) {
        current.oldPath = headerPath(line.slice("rename from ".length), "");
      } else if (line.startsWith("rename to ")) {
        current.newPath = headerPath(line.slice("rename to ".length), "");
      }
    }
    i++;
  }
  for (const file of files) {
    if (file.oldPath === null) file.status = "added";
    else if (file.newPath === null) file.status = "deleted";
    else if (file.oldPath !== file.newPath) file.status = "renamed";
  }
  return files.filter((file) => file.oldPath !== null || file.newPath !== null);
}

/**
 * The gold lines of one file's patch, ascending, each once (a removed line wins over an
 * insertion's neighbour): every removed line, and for each pure insertion the line before and
 * the line after it. `oldLineCount` (the original file's line count) bounds the line after;
 * without it, the line after is kept only when it lies within the hunk.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { changedLines, parsePatch } from "./localize_gold.ts";
 * const patch = "--- a/x.py\n+++ b/x.py\n@@ -1,4 +1,5 @@\n a\n-b\n+B\n c\n+new\n d\n";
 * assert.deepEqual(changedLines(parsePatch(patch)[0]), [
 *   { line: 2, kind: "removed" },
 *   { line: 3, kind: "before_insertion" },
 *   { line: 4, kind: "after_insertion" },
 * ]);
 * ```
 */
export function changedLines(file: FilePatch, oldLineCount?: number): ChangedLine[] {
  if (file.oldPath === null) return [];
  const found = new Map<number, LineKind>();
  const add = (line: number, kind: LineKind) => {
    if (found.get(line) !== "removed") found.set(line, kind);
  };
  for (const hunk of file.hunks) {
    let oldLine = hunk.oldCount === 0 ? hunk.oldStart + 1 : hunk.oldStart;
    const lastInHunk = hunk.oldStart + hunk.oldCount - 1;
    const bound = oldLineCount ?? lastInHunk;
    let removedInRun = false;
    let addedInRun = false;
    let runStart = oldLine;
    const closeRun = () => {
      if (addedInRun && !removedInRun) {
        if (runStart - 1 >= 1) add(runStart - 1, "before_insertion");
        if (runStart <= bound) add(runStart, "after_insertion");
      }
      removedInRun = false;
      addedInRun = false;
    };
    for (const line of hunk.lines) {
      const marker = line[0];
      if (marker === " ") {
        closeRun();
        oldLine++;
        runStart = oldLine;
      } else if (marker === "-") {
        removedInRun = true;
        add(oldLine, "removed");
        oldLine++;
      } else if (marker === "+") {
        if (!addedInRun && !removedInRun) runStart = oldLine;
        addedInRun = true;
      }
    }
    closeRun();
  }
  return [...found].sort((a, b) => a[0] - b[0]).map(([line, kind]) => ({ line, kind }));
}

/** What {@linkcode locateHunks} found. */
export interface LocatedPatch {
  /** The file's patch, each hunk's `oldStart` where its original lines are. */
  file: FilePatch;
  /** Hunks found at another line than their header's. */
  moved: number;
  /** Hunks not found (kept at their header's line). */
  unmatched: number;
}

/**
 * Places each hunk of a file's patch where `git apply` would: at the line nearest its header's
 * (shifted by the offset of the hunk before it) where the original text holds the hunk's
 * original lines (context and removed), exactly, after the hunk before it. A hunk with no
 * original line (an insertion without context) moves by the offset of the hunk before it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { locateHunks, parsePatch } from "./localize_gold.ts";
 * const [file] = parsePatch("--- a/x.py\n+++ b/x.py\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n");
 * const located = locateHunks(file, ["new", "new", "a", "b"]);
 * assert.equal(located.file.hunks[0].oldStart, 3);
 * assert.equal(located.moved, 1);
 * ```
 */
export function locateHunks(file: FilePatch, original: readonly string[]): LocatedPatch {
  let offset = 0;
  let after = 0; // 0-based index of the first line a later hunk may start at
  let moved = 0;
  let unmatched = 0;
  const hunks = file.hunks.map((hunk): Hunk => {
    const old = hunk.lines.filter((line) => line[0] !== "+").map((line) => line.slice(1));
    if (old.length === 0) {
      if (offset !== 0) moved++;
      return { ...hunk, oldStart: hunk.oldStart + offset };
    }
    const wanted = hunk.oldStart - 1 + offset; // 0-based
    const fits = (at: number) =>
      at >= after && at + old.length <= original.length &&
      old.every((line, i) => original[at + i] === line);
    const reach = Math.max(wanted - after, original.length - wanted);
    for (let distance = 0; distance <= reach; distance++) {
      for (const at of distance === 0 ? [wanted] : [wanted - distance, wanted + distance]) {
        if (!fits(at)) continue;
        offset = at + 1 - hunk.oldStart;
        after = at + old.length;
        if (offset !== 0) moved++;
        return { ...hunk, oldStart: at + 1 };
      }
    }
    unmatched++;
    return hunk;
  });
  return { file: { ...file, hunks }, moved, unmatched };
}

/**
 * The innermost function or method enclosing `line` (by lines; nested definitions are nested
 * spans, so the shortest enclosing one), or `undefined` at module level.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { innermostFunction } from "./localize_gold.ts";
 * const def = (qualified_name: string, start_line: number, end_line: number) => ({
 *   name: qualified_name, qualified_name, kind: "function", byte_start: start_line * 100,
 *   byte_end: end_line * 100 + 50, start_line, end_line,
 * });
 * const definitions = [def("f", 1, 9), def("f.g", 3, 5)];
 * assert.equal(innermostFunction(definitions, 4)?.qualified_name, "f.g");
 * assert.equal(innermostFunction(definitions, 7)?.qualified_name, "f");
 * assert.equal(innermostFunction(definitions, 10), undefined);
 * ```
 */
export function innermostFunction(
  definitions: readonly SourceDefinition[],
  line: number,
): SourceDefinition | undefined {
  let best: SourceDefinition | undefined;
  for (const definition of definitions) {
    if (!GOLD_KINDS.has(definition.kind)) continue;
    if (definition.start_line > line || definition.end_line < line) continue;
    if (!best || definition.byte_end - definition.byte_start < best.byte_end - best.byte_start) {
      best = definition;
    }
  }
  return best;
}

/**
 * The gold of a patch: its files, their gold lines and the functions enclosing them.
 * `original(path)` gives what is known of the original file at `path` (undefined when it is
 * not known: then its hunks stay at their headers' lines, bounded by themselves, and it has no
 * gold function; without its `lines`, its hunks stay at their headers' lines).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { goldOf } from "./localize_gold.ts";
 * const patch = "--- a/m.py\n+++ b/m.py\n@@ -2,2 +2,2 @@\n def f():\n-    return 1\n+    return 2\n";
 * const f = {
 *   name: "f", qualified_name: "f", kind: "function", byte_start: 4, byte_end: 29,
 *   start_line: 2, end_line: 3,
 * };
 * const gold = goldOf(patch, () => ({ lineCount: 3, definitions: [f] }));
 * assert.deepEqual(gold.files, ["m.py"]);
 * assert.deepEqual(gold.functions.map((g) => [g.qualified_name, g.lines]), [["f", [3]]]);
 * ```
 */
export function goldOf(
  patch: string,
  original: (path: string) => OriginalFile | undefined,
): Gold {
  const gold: Gold = {
    files: [],
    added: [],
    lines: [],
    functions: [],
    fileLevelLines: [],
    movedHunks: 0,
    unmatchedHunks: 0,
  };
  for (const parsed of parsePatch(patch)) {
    let file = parsed;
    if (file.oldPath === null) {
      if (file.newPath !== null) gold.added.push(file.newPath);
      continue;
    }
    const path = file.oldPath;
    if (!gold.files.includes(path)) gold.files.push(path);
    const known = original(path);
    if (known?.lines) {
      const located = locateHunks(file, known.lines);
      file = located.file;
      gold.movedHunks += located.moved;
      gold.unmatchedHunks += located.unmatched;
    }
    const changed = changedLines(file, known?.lineCount);
    const functions = new Map<SourceDefinition, number[]>();
    for (const { line, kind } of changed) {
      const goldLine = { file_path: path, line, kind };
      gold.lines.push(goldLine);
      const enclosing = known && innermostFunction(known.definitions, line);
      if (!enclosing) {
        gold.fileLevelLines.push(goldLine);
        continue;
      }
      const lines = functions.get(enclosing) ?? [];
      lines.push(line);
      functions.set(enclosing, lines);
    }
    const ordered = [...functions].sort((a, b) => a[0].byte_start - b[0].byte_start);
    for (const [definition, lines] of ordered) {
      gold.functions.push({
        file_path: path,
        name: definition.name,
        qualified_name: definition.qualified_name,
        kind: definition.kind,
        start_line: definition.start_line,
        end_line: definition.end_line,
        lines,
      });
    }
  }
  return gold;
}

/**
 * How many lines a text has: its newlines, plus one for a last line without a newline.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lineCount } from "./localize_gold.ts";
 * assert.equal(lineCount("a\nb\n"), 2);
 * assert.equal(lineCount("a\nb"), 2);
 * assert.equal(lineCount(""), 0);
 * ```
 */
export function lineCount(text: string): number {
  let count = 0;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) count++;
  return text.length > 0 && !text.endsWith("\n") ? count + 1 : count;
}
