/**
 * The input schema of `llm-discover` (which is also its flag set): the definition (`tool.ts`) takes
 * it, the run (`run.ts`) its type.
 *
 * @module
 */
import { z } from "zod";
import { walkInputShape } from "../../core/walk/walk_input.ts";
import { field } from "../../schema/fields.ts";
import { DISCOVER_DEFAULTS } from "./defaults.ts";

const count = z.number().int().nonnegative();

/** Input schema of `llm-discover`. */
export const DiscoverInput = z.object({
  query: field(
    z.string().default("").describe(
      "fzf extended-syntax query (the first positional argument); empty lists paths in path order",
    ),
    { aliases: ["pattern"] },
  ),
  paths: field(
    z.array(z.string()).default([]).describe("Files or directories to walk [default: the root]"),
    { path: true, aliases: ["path"] },
  ),
  kind: z.enum(["file", "dir"]).default("file").describe("Find files or directories"),
  extension: field(
    z.array(z.string().min(1)).default([]).describe(
      "Only names with this extension (case-insensitive, e.g. ts); repeat for several",
    ),
    { short: "e", aliases: ["extensions", "ext"] },
  ),
  limit: field(
    count.default(DISCOVER_DEFAULTS.limit).describe(
      "Results to list, 0 for all; cut results set partial and total",
    ),
    { short: "n" },
  ),
  case: z.enum(["smart", "sensitive", "insensitive"]).default("smart").describe(
    "Case rule: smart (a term with an upper-case letter is case-sensitive, like fzf)",
  ),
  no_index: z.boolean().default(false).describe(
    "Do not use the repository index's file list (.llm/trigram.idx from `llm-symbols index`); walk the folders. Results are the same either way",
  ),
  ...walkInputShape,
  hidden: field(walkInputShape.hidden.clone(), { short: "H" }),
  no_ignore: field(walkInputShape.no_ignore.clone(), { short: "I" }),
});

/** Input of `llm-discover`, as the engine receives it after defaults. */
export type DiscoverInput = z.output<typeof DiscoverInput>;
