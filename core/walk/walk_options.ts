/**
 * A tool's walk fields (see `walk_input.ts`) as the walker's options: plain code without zod,
 * which a command line runs without loading zod.
 *
 * @module
 */
import { ToolError } from "../../schema/diagnostic.ts";
import type { CodePrefix } from "../../schema/error_codes.ts";
import type { WalkOptions } from "./walker.ts";

/** The walk fields of a tool's input, after defaults. */
export interface WalkInput {
  /** ripgrep-style globs. */
  glob: string[];
  /** File types to keep. */
  type: string[];
  /** File types to drop. */
  type_not: string[];
  /** Include hidden entries. */
  hidden: boolean;
  /** Ignore no ignore files. */
  no_ignore: boolean;
  /** Follow symbolic links inside the root. */
  follow: boolean;
  /** Deepest level to enter. */
  max_depth?: number;
  /** Largest file to read: bytes, or a number with K, M or G. */
  max_filesize?: number | string;
}

/** ripgrep's size syntax: digits and an optional upper-case K, M or G, nothing else. */
const SIZE = /^(\d+)([KMG]?)$/;
const SCALE: Record<string, number> = { "": 1, K: 1 << 10, M: 1 << 20, G: 1 << 30 };

/**
 * Bytes of a `--max-filesize` value: a number, or digits with a K, M or G suffix (ripgrep's
 * syntax, strictly: no sign, blank, fraction or lower-case suffix). A size beyond what a number
 * holds exactly (2^53 bytes) is refused rather than rounded.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseSize } from "./walk_options.ts";
 * assert.equal(parseSize("10K", "LMS"), 10240);
 * ```
 */
export function parseSize(value: number | string, prefix: CodePrefix): number {
  if (typeof value === "number") return value;
  const found = SIZE.exec(value);
  if (!found) {
    throw new ToolError(`${prefix}-ARG-002`, `invalid size '${value}'`, {
      remediation: "Give bytes, or a number with K, M or G, e.g. 10M.",
    });
  }
  const bytes = Number(found[1]) * SCALE[found[2]];
  if (!Number.isSafeInteger(bytes)) {
    throw new ToolError(`${prefix}-ARG-002`, `size '${value}' is out of range`, {
      note: `the largest size is ${Number.MAX_SAFE_INTEGER} bytes`,
      remediation: "Give a smaller size, e.g. 10M.",
    });
  }
  return bytes;
}

/**
 * The walker options of a tool's walk fields.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { walkOptionsFrom } from "./walk_options.ts";
 * const options = walkOptionsFrom({
 *   glob: ["*.ts"], type: [], type_not: [], hidden: false, no_ignore: false, follow: false,
 * }, "LMS");
 * assert.deepEqual(options.globs, ["*.ts"]);
 * ```
 */
export function walkOptionsFrom(
  input: WalkInput,
  prefix: CodePrefix,
): Pick<
  WalkOptions,
  "globs" | "types" | "typesNot" | "hidden" | "noIgnore" | "follow" | "maxDepth" | "maxFilesize"
> {
  return {
    globs: input.glob,
    types: input.type,
    typesNot: input.type_not,
    hidden: input.hidden,
    noIgnore: input.no_ignore,
    follow: input.follow,
    maxDepth: input.max_depth,
    maxFilesize: input.max_filesize === undefined
      ? undefined
      : parseSize(input.max_filesize, prefix),
  };
}
