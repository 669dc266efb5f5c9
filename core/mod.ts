/**
 * Shared plumbing of the tools: the tool definition, the CLI adapter, permissions, failures and
 * the walker.
 *
 * @module
 */
export * from "./cache.ts";
export * from "./cli.ts";
export * from "./failure.ts";
export * from "./input_file.ts";
export * from "./permissions.ts";
export * from "./tool.ts";
export * from "./version.ts";
export * from "./walk/binary.ts";
export * from "./walk/file_types.ts";
export * from "./walk/walker.ts";
export * from "./walk/walk_input.ts";
export * from "./paths.ts";
export * from "./transaction/mod.ts";
export * from "./walk/walk_cache.ts";
