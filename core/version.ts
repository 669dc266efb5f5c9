/**
 * The package version, read from deno.json so it is stated once.
 *
 * @module
 */
import config from "../deno.json" with { type: "json" };

/** Version of @llm/search, e.g. `0.1.0`. */
export const VERSION: string = config.version;
