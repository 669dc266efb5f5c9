/**
 * The package version, read from deno.json so it is stated once.
 *
 * @module
 */
import config from "../deno.json" with { type: "json" };

/**
 * Version of @llm/search, e.g. `0.1.0`.
 *
 * @example Print the version
 * ```ts
 * import assert from "node:assert/strict";
 * import { VERSION } from "@llm/search";
 * assert.match(VERSION, /^\d+\.\d+\.\d+/);
 * console.log(`llm-search ${VERSION}`);
 * ```
 */
export const VERSION: string = config.version;
