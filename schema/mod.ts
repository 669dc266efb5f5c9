/**
 * The contract of @llm/search in one module: zod schemas and TypeScript types of every output,
 * ids, checksums, the line index, diagnostics and the error-code registry.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LineIndex, makeSpan, spanId } from "@llm/search/schema";
 * assert.equal(spanId("src/main.rs", 3, 7), "ef8007a25c15a56d");
 * assert.equal(makeSpan("a.txt", LineIndex.fromText("hi\n"), 0, 2).end_col, 2);
 * ```
 *
 * @module
 */
export * from "./aliases.ts";
export * from "./checksum.ts";
export * from "./diagnostic.ts";
export * from "./diagnostic_schema.ts";
export * from "./edit_plan.ts";
export * from "./envelope.ts";
export * from "./error_codes.ts";
export * from "./extensions.ts";
export * from "./fields.ts";
export * from "./ids.ts";
export * from "./line_index.ts";
export * from "./span.ts";
export * from "./tool_names.ts";
export * from "./json_schema.ts";
export * from "./search.ts";
export * from "./mcp.ts";
export * from "./journal.ts";
export * from "./transform.ts";
export * from "./write.ts";
export * from "./refactor.ts";
export * from "./discover.ts";
export * from "./ast_search.ts";
export * from "./compact.ts";
export * from "./compact_schema.ts";
export * from "./symbols.ts";
export * from "./gates.ts";
