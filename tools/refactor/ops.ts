/**
 * The operations of `llm-refactor` as edits of the code in memory: each step takes the view
 * (the index overlaid with the files edited so far), finds its symbol, and returns the new
 * bytes of every file it changes with the edits that made them. Nothing here writes a file.
 *
 * @module
 */
import { ToolError } from "../../schema/diagnostic.ts";
import { reservedNameReason } from "../../grammars/reserved_words.ts";
import { bomWidth, decodeText } from "../../core/utf8.ts";
import type { LeftOccurrence, RefactorEdit, RefactorEditKind } from "../../schema/refactor.ts";
import { type Occurrence, OccurrenceFinder, type OccurrenceSet } from "./occurrences.ts";
import { resolveTarget, type TargetSpec } from "./target.ts";
import { statementOf } from "./statement.ts";
import { identifiersNamed } from "./tree_names.ts";
import type { Def, FactView, LoadedFile } from "./view.ts";

/** One replacement of bytes `[start, end)` of a file by `text`. */
export interface ByteEdit {
  /** Start byte. */
  start: number;
  /** End byte. */
  end: number;
  /** New text. */
  text: string;
  /** What it is. */
  kind: RefactorEditKind;
}

/** What a step did to the code. */
export interface StepOutcome {
  /** The symbol it acted on. */
  target: Def;
  /** The edits, as reported. */
  edits: RefactorEdit[];
  /** Same-named places left alone. */
  left: LeftOccurrence[];
  /** A rename's occurrences (for its proof). */
  occurrences?: OccurrenceSet;
}

/** One step of an operation. */
export type Step =
  | { op: "rename"; target: TargetSpec; to: string }
  | { op: "patch"; target: TargetSpec; text: string }
  | { op: "delete"; target: TargetSpec; force: boolean }
  | { op: "insert"; target: TargetSpec; text: string; before: boolean };

const encoder = new TextEncoder();
const REPORTED_TEXT_BYTES = 200;

/** `bytes` with `edits` (not overlapping) applied. */
export function applyEdits(bytes: Uint8Array, edits: readonly ByteEdit[]): Uint8Array {
  const sorted = [...edits].sort((a, b) => a.start - b.start);
  const parts: Uint8Array[] = [];
  let at = 0;
  for (const edit of sorted) {
    parts.push(bytes.subarray(at, edit.start), encoder.encode(edit.text));
    at = edit.end;
  }
  parts.push(bytes.subarray(at));
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

function cut(text: string): string {
  const bytes = encoder.encode(text);
  if (bytes.length <= REPORTED_TEXT_BYTES) return text;
  return decodeText(bytes.subarray(0, REPORTED_TEXT_BYTES)).replace(/\uFFFD$/, "") +
    "…";
}

function reportEdit(file: LoadedFile, edit: ByteEdit): RefactorEdit {
  let line = 1;
  let lineStart = 0;
  for (let at = 0; at < edit.start; at++) {
    if (file.bytes[at] === 0x0a) {
      line++;
      lineStart = at + 1;
    }
  }
  return {
    file_path: file.path,
    kind: edit.kind,
    byte_start: edit.start,
    byte_end: edit.end,
    start_line: line,
    start_col: edit.start - lineStart,
    new_text: cut(edit.text),
  };
}

/** Applies `edits` of `file` to the view and reports them. */
function commitToView(view: FactView, file: LoadedFile, edits: ByteEdit[]): RefactorEdit[] {
  view.update(file.path, applyEdits(file.bytes, edits));
  return edits.map((edit) => reportEdit(file, edit)).sort((a, b) => a.byte_start - b.byte_start);
}

/** Runs one step against the view, updating it. */
export async function runStep(view: FactView, step: Step): Promise<StepOutcome> {
  const target = await resolveTarget(view, step.target);
  switch (step.op) {
    case "rename":
      return await rename(view, target, step.to);
    case "patch":
      return await replaceDefinition(view, target, step.text);
    case "delete":
      return await deleteDefinition(view, target, step.force);
    case "insert":
      return await insertBeside(view, target, step.text, step.before);
  }
}

const IDENTIFIER = /^[\p{L}_$][\p{L}\p{N}_$]*$/u;

function checkNewName(target: Def, to: string): void {
  const dollar = /\$/.test(to) && !["javascript", "typescript", "tsx", "java"].includes(
    target.language,
  );
  if (!IDENTIFIER.test(to) || dollar) {
    throw new ToolError(
      "SPL-ARG-011",
      `${JSON.stringify(to)} is not an identifier of ${target.language}`,
    );
  }
  // The syntax gate cannot be trusted with `int int(int x)`: grammars recover from a keyword.
  const reserved = reservedNameReason(target.language, to, target.kind);
  if (reserved !== undefined) {
    throw new ToolError(
      "SPL-ARG-012",
      `${JSON.stringify(to)} is ${reserved}: ${target.qualified_name} cannot be renamed to it; ` +
        "nothing was changed",
      { remediation: `Pick another name for the ${target.kind}; ${to} is ${reserved}.` },
    );
  }
}

function placeOf(occurrence: Occurrence): string {
  return `${occurrence.file.path}:${occurrence.line}:${occurrence.column + 1}`;
}

/**
 * Places where the new name would collide: any identifier spelled so in a file the rename
 * touches (a definition, a local, a use it could capture), and a definition of it in the
 * symbol's own scope anywhere (its file, its class, or C's one namespace).
 */
async function collisions(
  view: FactView,
  target: Def,
  set: OccurrenceSet,
  to: string,
): Promise<string[]> {
  const touched = new Map(
    set.occurrences.map((occurrence) => [occurrence.file.path, occurrence.file]),
  );
  const places: string[] = [];
  for (const file of touched.values()) {
    places.push(...(await identifiersNamed(file, to)).map((leaf) => `${file.path}:${leaf.line}`));
  }
  const global = ["c", "cpp"].includes(target.language) && target.parent === null;
  for (const def of view.definitionsNamed(to)) {
    if (touched.has(def.path)) continue;
    const sameScope = (def.parent ?? null) === target.parent &&
      (def.path === target.path || (global && !/^static\b/.test(def.signature)));
    if (sameScope) places.push(`${def.path}:${def.start_line} (${def.kind} ${def.qualified_name})`);
  }
  return [...new Set(places)].sort();
}

function listed(places: string[]): string {
  const shown = places.slice(0, 20);
  return shown.join("\n") + (places.length > shown.length ? `\n… ${places.length - 20} more` : "");
}

async function rename(view: FactView, target: Def, to: string): Promise<StepOutcome> {
  checkNewName(target, to);
  const set = await new OccurrenceFinder(view, target).find();
  if (to === target.name) {
    return { target, edits: [], left: set.left, occurrences: set };
  }
  if (set.unclear.length > 0) {
    throw new ToolError(
      "SPL-V-007",
      `${set.unclear.length} use(s) of ${target.name} cannot be told apart from another ` +
        `symbol's (first at ${placeOf(set.unclear[0])}); nothing was changed`,
      { note: listed(set.unclear.map(placeOf)), file: set.unclear[0].file.path },
    );
  }
  const clashes = await collisions(view, target, set, to);
  if (clashes.length > 0) {
    throw new ToolError(
      "SPL-V-001",
      `renaming ${target.qualified_name} to ${to} collides with ${clashes.length} place(s) ` +
        `(first ${clashes[0]}); nothing was changed`,
      { note: listed(clashes) },
    );
  }
  const byFile = new Map<LoadedFile, ByteEdit[]>();
  for (const occurrence of set.occurrences) {
    const edits = byFile.get(occurrence.file) ?? [];
    // `{ name }` keeps its key: `{ name: renamed }`.
    const text = occurrence.shorthand ? `${target.name}: ${to}` : to;
    edits.push({ start: occurrence.start, end: occurrence.end, text, kind: occurrence.kind });
    byFile.set(occurrence.file, edits);
  }
  const edits = [...byFile].flatMap(([file, fileEdits]) => commitToView(view, file, fileEdits));
  return { target, edits, left: set.left, occurrences: set };
}

/** Doc comment and attribute lines a definition carries above it, by language. */
function carriedLine(line: string, language: string): boolean {
  const trimmed = line.trim();
  if (trimmed === "") return false;
  if (/^(\/\/|\/\*|\*|#\[|#!\[|@)/.test(trimmed)) return true;
  return language === "python" && trimmed.startsWith("#");
}

/** The start of the line `at` is on; the first line's starts after a BOM (no edit takes it). */
function lineStartOf(bytes: Uint8Array, at: number): number {
  const first = bomWidth(bytes);
  while (at > first && bytes[at - 1] !== 0x0a) at--;
  return at;
}

function blankBetween(bytes: Uint8Array, from: number, to: number): boolean {
  for (let at = from; at < to; at++) if (bytes[at] !== 0x20 && bytes[at] !== 0x09) return false;
  return true;
}

/** The start of a statement at `from` with its doc comment and attributes, at a line start. */
function carriedStart(file: LoadedFile, from: number): number {
  let start = from;
  const lineStart = lineStartOf(file.bytes, start);
  if (!blankBetween(file.bytes, lineStart, start)) return start;
  start = lineStart;
  while (start > bomWidth(file.bytes)) {
    const previous = lineStartOf(file.bytes, start - 1);
    const line = decodeText(file.bytes.subarray(previous, start - 1));
    if (!carriedLine(line, file.language)) break;
    start = previous;
  }
  return start;
}

/** The end of the definition's last line (after its line break) when nothing follows it there. */
function lineEndAfter(file: LoadedFile, end: number): number {
  let at = end;
  while (at < file.bytes.length && (file.bytes[at] === 0x20 || file.bytes[at] === 0x09)) at++;
  if (at < file.bytes.length && file.bytes[at] === 0x0d) at++;
  if (at < file.bytes.length && file.bytes[at] === 0x0a) return at + 1;
  return at === file.bytes.length ? at : end;
}

/** The indentation of the line `at` is on. */
function indentationAt(file: LoadedFile, at: number): string {
  const start = lineStartOf(file.bytes, at);
  let end = start;
  while (end < at && (file.bytes[end] === 0x20 || file.bytes[end] === 0x09)) end++;
  return decodeText(file.bytes.subarray(start, end));
}

/** `text` indented by `indent` on every line but the first when it carries none of its own. */
function indented(text: string, indent: string, first: boolean): string {
  if (indent === "" || /^[ \t]/.test(text)) return text;
  return text.split("\n").map((line, index) =>
    line === "" || (index === 0 && !first) ? line : indent + line
  ).join("\n");
}

async function loadedTarget(view: FactView, target: Def): Promise<LoadedFile> {
  const file = await view.load(target.path);
  if (!file) {
    throw new ToolError("SPL-V-009", `${target.path} has no grammar`, { file: target.path });
  }
  return file;
}

async function replaceDefinition(view: FactView, target: Def, text: string): Promise<StepOutcome> {
  const file = await loadedTarget(view, target);
  let body = text;
  if (body.endsWith("\n") && file.bytes[target.byte_end] === 0x0a) body = body.slice(0, -1);
  body = indented(body, indentationAt(file, target.byte_start), false);
  const edit: ByteEdit = {
    start: target.byte_start,
    end: target.byte_end,
    text: body,
    kind: "patch",
  };
  return { target, edits: commitToView(view, file, [edit]), left: [] };
}

async function deleteDefinition(view: FactView, target: Def, force: boolean): Promise<StepOutcome> {
  const file = await loadedTarget(view, target);
  const set = await new OccurrenceFinder(view, target).find();
  const uses = [...set.occurrences.filter((o) => o.kind === "reference"), ...set.unclear];
  if (uses.length > 0 && !force) {
    throw new ToolError(
      "SPL-V-002",
      `${uses.length} reference(s) to ${target.qualified_name} remain (first at ` +
        `${placeOf(uses[0])}); it was not deleted`,
      { note: listed(uses.map(placeOf)), file: uses[0].file.path },
    );
  }
  // The whole statement: `export`, decorators and attributes go with the definition.
  const statement = await statementOf(file, target);
  if (statement.listed) {
    const edit: ByteEdit = { ...statement.listed, text: "", kind: "delete" };
    return { target, edits: commitToView(view, file, [edit]), left: [] };
  }
  let start = carriedStart(file, statement.start);
  let end = lineEndAfter(file, statement.end);
  // Blank lines left on both sides: take as many of those below as there are above; with
  // none below and the file or the block ending there, take those above.
  const above = blankLinesAbove(file.bytes, start);
  let below = 0;
  for (; below < above; below++) {
    const next = emptyLineEnd(file.bytes, end);
    if (next === end) break;
    end = next;
  }
  if (below === 0 && closesAt(file.bytes, end)) start = blankRunStart(file.bytes, start);
  const whole = start === lineStartOf(file.bytes, start) && file.bytes[end - 1] === 0x0a;
  // A Python block cannot be empty: the one statement it held gives way to `pass`.
  const text = !statement.onlyInBlock
    ? ""
    : whole
    ? `${indentationAt(file, statement.start)}pass\n`
    : "pass";
  const edit: ByteEdit = { start, end, text, kind: "delete" };
  return { target, edits: commitToView(view, file, [edit]), left: [] };
}

/** Whether the line `[from, to)` (its line break left out) holds only spaces and tabs. */
function blankLine(bytes: Uint8Array, from: number, to: number): boolean {
  const end = to > from && bytes[to - 1] === 0x0d ? to - 1 : to;
  return blankBetween(bytes, from, end);
}

/** The start of the blank lines right above the line start `at` (`at` when there are none). */
function blankRunStart(bytes: Uint8Array, at: number): number {
  let line = at;
  while (line > bomWidth(bytes)) {
    const previous = lineStartOf(bytes, line - 1);
    if (!blankLine(bytes, previous, line - 1)) break;
    line = previous;
  }
  return line;
}

/** Blank lines right above the line start `at` (the file's first byte counts as one). */
function blankLinesAbove(bytes: Uint8Array, at: number): number {
  if (at === 0) return 1;
  let count = 0;
  for (let line = at; line > blankRunStart(bytes, at); line = lineStartOf(bytes, line - 1)) {
    count++;
  }
  return count;
}

/** Whether the file ends at `at`, or the line there closes a block (`}`, `]`, `)`). */
function closesAt(bytes: Uint8Array, at: number): boolean {
  while (at < bytes.length && (bytes[at] === 0x20 || bytes[at] === 0x09)) at++;
  return at === bytes.length || bytes[at] === 0x7d || bytes[at] === 0x5d || bytes[at] === 0x29;
}

/** The end of the empty line starting at `at` (after its line break), or `at` when it is none. */
function emptyLineEnd(bytes: Uint8Array, at: number): number {
  if (bytes[at] === 0x0a) return at + 1;
  if (bytes[at] === 0x0d && bytes[at + 1] === 0x0a) return at + 2;
  return at;
}

async function insertBeside(
  view: FactView,
  target: Def,
  text: string,
  before: boolean,
): Promise<StepOutcome> {
  const file = await loadedTarget(view, target);
  const indent = indentationAt(file, target.byte_start);
  const body = indented(text.endsWith("\n") ? text : text + "\n", indent, true);
  const statement = await statementOf(file, target);
  const at = before ? carriedStart(file, statement.start) : lineEndAfter(file, statement.end);
  const ended = at === 0 || file.bytes[at - 1] === 0x0a;
  const inserted = before ? `${body}\n` : `${ended ? "" : "\n"}\n${body}`;
  const edit: ByteEdit = { start: at, end: at, text: inserted, kind: "insert" };
  return { target, edits: commitToView(view, file, [edit]), left: [] };
}
