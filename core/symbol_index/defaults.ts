/**
 * Defaults of the symbol index, applied by the indexer (`llm-symbols` shows them in its input
 * schemas).
 *
 * @module
 */

/** Files larger than this many bytes are not indexed. */
export const MAX_FILE_BYTES = 4 * 1024 * 1024;

/**
 * `meta` key of the index: the `max_file_bytes` of its last `index` run. `verify` applies it, so
 * a file that run left out as too large is no drift.
 */
export const MAX_FILE_BYTES_META = "max_file_bytes";
