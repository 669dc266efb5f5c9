/**
 * The record the walker yields for each file or directory. It lives apart from the walker so
 * that the walker's cache can store entries without importing the walker (no import cycle).
 *
 * @module
 */

/** One walked file or directory. */
export interface WalkEntry {
  /** Absolute path. */
  absPath: string;
  /** Contract path: relative to `cwd` with `/`, or absolute when outside it. */
  filePath: string;
  /** Basename. */
  name: string;
  /** Entry kind (a followed link reports its target's kind). */
  kind: "file" | "dir";
  /** 0 for a named path, 1 for its children, … */
  depth: number;
  /** Size in bytes, when stat'ed. */
  size?: number;
  /** Modification time in ms since the epoch, when stat'ed. */
  mtimeMs?: number;
  /** True for a path named explicitly (it bypasses ignore rules and filters, as in ripgrep). */
  explicit: boolean;
}

/**
 * A plain copy of `entry` that a walker may write to. A spread would do for a plain record, but
 * an entry may compute its fields when read (the repository index's listing does), and a
 * spread copies only the fields an object holds.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { copyEntry } from "./walk_entry.ts";
 * const entry = {
 *   absPath: "/r/a.ts", filePath: "a.ts", name: "a.ts", kind: "file" as const, depth: 1,
 *   explicit: false,
 * };
 * const copy = copyEntry(entry);
 * assert.notEqual(copy, entry);
 * assert.equal(copy.name, "a.ts");
 * ```
 */
export function copyEntry(entry: WalkEntry): WalkEntry {
  const { absPath, filePath, name, kind, depth, size, mtimeMs, explicit } = entry;
  const copy: WalkEntry = { absPath, filePath, name, kind, depth, explicit };
  if (size !== undefined) copy.size = size;
  if (mtimeMs !== undefined) copy.mtimeMs = mtimeMs;
  return copy;
}
