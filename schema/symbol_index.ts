/**
 * The version of the symbol index database's own schema, apart from the zod schemas of
 * `symbols.ts` (which re-exports it) so that the index store loads without zod.
 *
 * @module
 */

/** Version of the index database's own schema (its tables), checked when the index is opened. */
export const SYMBOL_INDEX_VERSION = 1;

/**
 * Version of what extraction writes into the index (spans, references, the facts of unchanged
 * bytes). Raised when a fix changes them: 2 counts a UTF-8 BOM in every span and adds the
 * references of namespace members, aliased imports and C++ in-class declarations; 3 adds the
 * text chunks of every definition and file (the full-text table `chunks`, which an index of
 * version 2 lacks: its writer adds the table empty, and only extracting every file again fills
 * it). An index whose facts are older is re-extracted in full by the next refresh, which a
 * refactor runs first.
 */
export const FACTS_VERSION = 3;
