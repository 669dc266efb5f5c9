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

/**
 * `name`: the symbol asked about (optional: `symbol_id` may name it instead). 16 hex digits that
 * are a stored `symbol_id` name that symbol.
 */
export const nameField = field(
  z.string().min(1).optional().describe(
    "Symbol name or qualified name, or a symbol_id (the first positional argument)",
  ),
  { aliases: ["symbol"] },
);

/**
 * `symbol_id`: the definition asked about, by the id `find` lists: one of several same-named
 * definitions (two `static` functions of one name in two files). Checked by the run, not the
 * schema (16 hex digits).
 */
export const symbolIdField = z.string().min(1).optional().describe(
  "symbol_id of the definition (from find), to tell same-named ones apart; with a name, both " +
    "must name it",
);
