/**
 * The walker's flags as input-schema fields, shared by every tool that walks (search,
 * ast-search, discover), so the flags read the same everywhere and are defined once.
 *
 * @module
 */
import { z } from "zod";
import { field } from "../../schema/fields.ts";

export { parseSize, type WalkInput, walkOptionsFrom } from "./walk_options.ts";

const count = z.number().int().nonnegative();

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

/**
 * The walk fields an MCP client rarely needs (the walk's tuning): accepted, and left out of what
 * the model reads of a tool (its definition's `mcp.unlisted`).
 */
export const WALK_TUNING_FIELDS: readonly string[] = [
  "type_not",
  "hidden",
  "no_ignore",
  "follow",
  "max_depth",
  "max_filesize",
];
