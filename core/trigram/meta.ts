/**
 * The JSON part of the repository index: where and when it was built, and the walk that listed
 * its entries (its options, its diagnostics and the stamps that tell whether it still holds).
 *
 * @module
 */
import type { Diagnostic } from "../../schema/diagnostic.ts";

/** The walk settings that shape a list of entries, normalised (absent = false or empty). */
export interface WalkShape {
  /** The root the walk ran from (its `cwd`). */
  cwd: string;
  /** The absolute paths it walked. */
  named: string[];
  /** Hidden entries included. */
  hidden: boolean;
  /** Ignore files not applied. */
  noIgnore: boolean;
  /** Links followed. */
  follow: boolean;
  /** Deepest level, or null. */
  maxDepth: number | null;
  /** Globs. */
  globs: string[];
  /** Types kept. */
  types: string[];
  /** Types dropped. */
  typesNot: string[];
}

/** The walk that listed the index's entries. */
export interface IndexedWalk {
  /** Its settings. */
  shape: WalkShape;
  /**
   * Whether its stamps may be trusted: false when a directory or ignore file changed within the
   * clock's resolution of the walk (the list is then used for postings only, never as a walk).
   */
  trusted: boolean;
  /** Its diagnostics, with the search's codes (`LMS-`) and tool. */
  diagnostics: Diagnostic[];
  /** Directory and ignore-file modification times (ms; -1: absent) of the walked tree. */
  stamps: [string, number][];
  /** The same for the root's ancestors (their ignore files and `.git`). */
  ancestorStamps: [string, number][];
}

/** The meta JSON of the index. */
export interface IndexMeta {
  /** The real path of the root the index describes. */
  root: string;
  /** When the build started (ms since the epoch). */
  builtAtMs: number;
  /** The walk. */
  walk: IndexedWalk;
}

/** The normalised shape of walk options (for comparing a requested walk with the indexed one). */
export function walkShape(options: {
  cwd: string;
  named: readonly string[];
  hidden?: boolean;
  noIgnore?: boolean;
  follow?: boolean;
  maxDepth?: number;
  globs?: readonly string[];
  types?: readonly string[];
  typesNot?: readonly string[];
}): WalkShape {
  return {
    cwd: options.cwd,
    named: [...options.named],
    hidden: !!options.hidden,
    noIgnore: !!options.noIgnore,
    follow: !!options.follow,
    maxDepth: options.maxDepth ?? null,
    globs: [...(options.globs ?? [])],
    types: [...(options.types ?? [])],
    typesNot: [...(options.typesNot ?? [])],
  };
}

/** Whether two shapes list the same entries. */
export function sameShape(a: WalkShape, b: WalkShape): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
