/**
 * The version of the symbol index database's own schema, apart from the zod schemas of
 * `symbols.ts` (which re-exports it) so that the index store loads without zod.
 *
 * @module
 */

/** Version of the index database's own schema (its tables), checked when the index is opened. */
export const SYMBOL_INDEX_VERSION = 1;
