/**
 * The input fields the `llm-symbols` subcommand definitions share (zod; what their runs share
 * without zod is in `commands.ts`).
 *
 * @module
 */
import { z } from "zod";
import { SYMBOL_KINDS } from "../../schema/ast_search.ts";
import { field } from "../../schema/fields.ts";

/** A non-negative integer. */
export const count = z.number().int().nonnegative();

/** The annotations of every query subcommand. */
export const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true };

/** `db`: the index database. */
export const dbField = field(
  z.string().min(1).optional().describe(
    "Index database, relative to the root [default: .llm/index.db]",
  ),
  { path: true },
);

/** `limit` with its default. */
export const limitField = (fallback: number) =>
  field(
    count.default(fallback).describe(
      "Results to list, 0 for all; cut results set partial and total",
    ),
    { short: "n" },
  );

/** `paths`: files or folders results must lie in. */
export const pathsField = field(
  z.array(z.string()).default([]).describe("Only results in these files or folders"),
  { path: true, aliases: ["path"] },
);

/** `kind`: definition kinds results must have. */
export const kindField = field(
  z.array(z.enum(SYMBOL_KINDS)).default([]).describe(
    "Only definitions of this kind (function, method, class, …); repeat for several",
  ),
  { short: "k", aliases: ["kinds"] },
);

/** `name`: the symbol asked about. */
export const nameField = field(
  z.string().min(1).describe("Symbol name or qualified name (the first positional argument)"),
  { aliases: ["symbol"] },
);
