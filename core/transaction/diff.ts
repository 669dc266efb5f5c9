/**
 * Unified diffs for `--dry-run` (npm `diff`), over the files' text as decoded from UTF-8.
 * When the changed byte ranges are known, only the lines around them are diffed, so a preview
 * of a few edits in a large file costs what the edits cost, not what the file costs.
 *
 * @module
 */
import { createTwoFilesPatch, FILE_HEADERS_ONLY, formatPatch, structuredPatch } from "diff";
import type { StructuredPatchHunk } from "diff";
import { LineIndex } from "../../schema/line_index.ts";
import { decodeText } from "../utf8.ts";
import type { FileChange } from "./types.ts";

const CONTEXT = 3;

/** A changed region: bytes `[old_start, old_end)` before became `[new_start, new_end)` after. */
export interface ChangedRegion {
  /** Start in the old bytes. */
  old_start: number;
  /** End in the old bytes. */
  old_end: number;
  /** Start in the new bytes. */
  new_start: number;
  /** End in the new bytes. */
  new_end: number;
}

/**
 * The unified diffs of `changes`, one after the other in their order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { changesDiff } from "./diff.ts";
 * const encode = (text: string) => new TextEncoder().encode(text);
 * const diff = changesDiff([{ file_path: "a.txt", path: "/r/a.txt", before: null, after: encode("x\n") }]);
 * assert.equal(diff, "--- /dev/null\n+++ b/a.txt\n@@ -0,0 +1,1 @@\n+x\n");
 * ```
 */
export function changesDiff(changes: readonly FileChange[]): string {
  return changes.map((change) => unifiedDiff(change.file_path, change.before, change.after))
    .join("");
}

/**
 * The unified diff of one file, `a/PATH` → `b/PATH`, with three lines of context. A file that
 * does not exist on one side is `/dev/null` there. With `regions` (every change between the
 * two, in order), only windows of lines around them are compared.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { unifiedDiff } from "./diff.ts";
 * const encode = (text: string) => new TextEncoder().encode(text);
 * const diff = unifiedDiff("a.txt", encode("one\n"), encode("two\n"));
 * assert.equal(diff, "--- a/a.txt\n+++ b/a.txt\n@@ -1,1 +1,1 @@\n-one\n+two\n");
 * ```
 */
export function unifiedDiff(
  filePath: string,
  before: Uint8Array | null,
  after: Uint8Array | null,
  regions?: readonly ChangedRegion[],
): string {
  const oldName = before ? `a/${filePath}` : "/dev/null";
  const newName = after ? `b/${filePath}` : "/dev/null";
  if (!before || !after || !regions?.length) {
    return createTwoFilesPatch(
      oldName,
      newName,
      before ? decodeText(before) : "",
      after ? decodeText(after) : "",
      undefined,
      undefined,
      // `---`/`+++` headers without the `Index:`/`====` lines git apply and patch do not need.
      { context: CONTEXT, headerOptions: FILE_HEADERS_ONLY },
    );
  }
  const hunks = windows(new LineIndex(before), new LineIndex(after), regions).flatMap((w) =>
    structuredPatch("", "", w.oldText, w.newText, undefined, undefined, { context: CONTEXT })
      .hunks.map((hunk): StructuredPatchHunk => ({
        ...hunk,
        oldStart: hunk.oldStart + w.oldLine,
        newStart: hunk.newStart + w.newLine,
      }))
  );
  return formatPatch(
    { oldFileName: oldName, newFileName: newName, oldHeader: "", newHeader: "", hunks },
    FILE_HEADERS_ONLY,
  );
}

interface Window {
  /** Lines of the file before the window (0-based line of its first line), old side. */
  oldLine: number;
  /** Same, new side. */
  newLine: number;
  oldText: string;
  newText: string;
}

/**
 * Windows of whole lines around the regions, merged when their context would touch. Lines
 * between two windows are unchanged, so each window starts the same number of lines after the
 * previous one on both sides.
 */
function windows(
  oldIndex: LineIndex,
  newIndex: LineIndex,
  regions: readonly ChangedRegion[],
): Window[] {
  const spans = regions.map((region) => ({
    oldFirst: oldIndex.lineOf(region.old_start) - 1,
    oldLast: oldIndex.lineOf(region.old_end) - 1,
    newFirst: newIndex.lineOf(region.new_start) - 1,
    newLast: newIndex.lineOf(region.new_end) - 1,
  }));
  const merged: typeof spans = [];
  for (const span of spans) {
    const last = merged.at(-1);
    if (last && span.oldFirst <= last.oldLast + 2 * CONTEXT + 1) {
      last.oldLast = Math.max(last.oldLast, span.oldLast);
      last.newLast = Math.max(last.newLast, span.newLast);
    } else merged.push({ ...span });
  }
  const slice = (index: LineIndex, first: number, last: number) => {
    const end = index.lineStarts[last + 1] ?? index.bytes.length;
    return decodeText(index.bytes.subarray(index.lineStarts[first], end));
  };
  return merged.map((span) => {
    const before = Math.min(CONTEXT, span.oldFirst, span.newFirst);
    const after = Math.min(
      CONTEXT,
      oldIndex.lineCount - 1 - span.oldLast,
      newIndex.lineCount - 1 - span.newLast,
    );
    const oldLine = span.oldFirst - before;
    const newLine = span.newFirst - before;
    return {
      oldLine,
      newLine,
      oldText: slice(oldIndex, oldLine, span.oldLast + after),
      newText: slice(newIndex, newLine, span.newLast + after),
    };
  });
}
