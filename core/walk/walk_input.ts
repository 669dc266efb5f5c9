/**
 * The walker's flags as input-schema fields, shared by every tool that walks (search,
 * ast-search, discover), so the flags read the same everywhere and are defined once.
 *
 * @module
 */
import { z } from "zod";
import { ToolError } from "../../schema/diagnostic.ts";
import type { CodePrefix } from "../../schema/error_codes.ts";
import { field } from "../../schema/fields.ts";
import type { WalkOptions } from "./walker.ts";

const count = z.number().int().nonnegative();

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

/**
 * zod fields of {@linkcode WalkInput}, to spread into a tool's input object; their short flags
 * are ripgrep's letters.
 */
export const walkInputShape: {
  glob: z.ZodDefault<z.ZodArray<z.ZodString>>;
  type: z.ZodDefault<z.ZodArray<z.ZodString>>;
  type_not: z.ZodDefault<z.ZodArray<z.ZodString>>;
  hidden: z.ZodDefault<z.ZodBoolean>;
  no_ignore: z.ZodDefault<z.ZodBoolean>;
  follow: z.ZodDefault<z.ZodBoolean>;
  max_depth: z.ZodOptional<z.ZodNumber>;
  max_filesize: z.ZodOptional<z.ZodUnion<readonly [z.ZodNumber, z.ZodString]>>;
} = {
  glob: field(
    z.array(z.string()).default([]).describe("Include or (with !) exclude paths; later globs win"),
    { short: "g", aliases: ["globs"] },
  ),
  type: field(
    z.array(z.string()).default([]).describe("Only files of this type (e.g. ts, rust, md)"),
    { short: "t" },
  ),
  type_not: field(z.array(z.string()).default([]).describe("Skip files of this type"), {
    short: "T",
  }),
  hidden: z.boolean().default(false).describe("Include hidden files and directories"),
  no_ignore: z.boolean().default(false).describe("Do not respect .gitignore, .ignore, .llmignore"),
  follow: field(z.boolean().default(false).describe("Follow symbolic links (within the root)"), {
    short: "L",
  }),
  max_depth: field(count.optional().describe("Descend at most N directory levels"), { short: "d" }),
  max_filesize: z.union([count, z.string()]).optional().describe(
    "Skip files larger than this (bytes, or with K/M/G)",
  ),
};

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
 * import { parseSize } from "./walk_input.ts";
 * parseSize("10K", "LMS"); // 10240
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
 * import { walkOptionsFrom } from "./walk_input.ts";
 * walkOptionsFrom({ glob: ["*.ts"], type: [], type_not: [], hidden: false, no_ignore: false, follow: false }, "LMS")
 *   .globs; // ["*.ts"]
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
