/**
 * What the server may do: the permissions Deno granted it for the workspace root, the tools
 * those permissions allow, and the check that keeps path arguments inside the root.
 *
 * @module
 */
import { resolve } from "../../core/path_syntax.ts";
import type { z } from "zod";
import { pathValues } from "../../schema/fields.ts";
import { ToolError } from "../../schema/diagnostic.ts";
import type { Tool, ToolPermission } from "../../core/tool.ts";
import { isInside, realPathOf } from "../../core/paths.ts";

/** The workspace and the permissions the server holds for it. */
export interface Scope {
  /** Absolute workspace root (its real path when it exists). */
  root: string;
  /** Permissions granted for the whole root. */
  granted: ReadonlySet<ToolPermission>;
}

function granted(name: ToolPermission, path: string): boolean {
  // Under --no-prompt Deno still answers "prompt": only "granted" counts.
  return Deno.permissions.querySync({ name, path }).state === "granted";
}

/**
 * Asks Deno which permissions this process holds for `root`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { queryScope } from "@llm/search/mcp";
 * const scope = queryScope(Deno.cwd());
 * const read = Deno.permissions.querySync({ name: "read", path: scope.root }).state === "granted";
 * assert.equal(scope.granted.has("read"), read); // true when run with --allow-read
 * ```
 */
export function queryScope(root: string): Scope {
  let absolute = resolve(root);
  const permissions = new Set<ToolPermission>();
  if (granted("read", absolute)) {
    permissions.add("read");
    try {
      absolute = Deno.realPathSync(absolute);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
      throw new ToolError("MCP-IO-001", `workspace root not found: ${absolute}`, {
        file: absolute,
      });
    }
    if (!Deno.statSync(absolute).isDirectory) {
      throw new ToolError("MCP-IO-005", `workspace root is not a directory: ${absolute}`, {
        file: absolute,
        remediation: "Pass the project's folder as --root.",
      });
    }
  }
  if (granted("write", absolute)) permissions.add("write");
  return { root: absolute, granted: permissions };
}

/**
 * Whether the scope covers every permission `tool` needs.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { allows } from "./scope.ts";
 * const scope = { root: "/repo", granted: new Set(["read"] as const) };
 * assert.equal(allows(scope, { permissions: ["read"] }), true);
 * assert.equal(allows(scope, { permissions: ["read", "write"] }), false);
 * ```
 */
export function allows(scope: Scope, tool: Pick<Tool, "permissions">): boolean {
  return tool.permissions.every((permission) => scope.granted.has(permission));
}

/**
 * The field of a result that names a file (the contract's one name for it, at any depth of a
 * mutation's result).
 */
const RESULT_PATH_FIELD = "file_path";

function collectResultPaths(value: unknown, key: string | undefined, out: string[]): void {
  if (typeof value === "string") {
    if (key === RESULT_PATH_FIELD && value !== "") out.push(value);
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value) collectResultPaths(item, key, out);
    return;
  }
  if (typeof value === "object" && value !== null) {
    for (const [child, inner] of Object.entries(value)) collectResultPaths(inner, child, out);
  }
}

/**
 * The real path of `path`; a part that cannot be resolved for a reason other than not existing
 * is taken as written, since the tool then reports it with its own code.
 */
function realPathOrGiven(path: string): string {
  try {
    return realPathOf(path);
  } catch (error) {
    if (error instanceof Error) return path;
    throw error;
  }
}

/**
 * The path arguments of a call that lie outside the root (lexically, or through a symlink):
 * the values of the fields the tool's input schema declares as paths, at any depth. `-`
 * (standard input) and empty values name no file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pathsOutsideRoot } from "./scope.ts";
 * import { zodSchemas } from "../../core/tool.ts";
 * import { searchTool } from "../search/tool.ts";
 * const input = zodSchemas(searchTool).input;
 * assert.deepEqual(pathsOutsideRoot("/repo", input, { paths: ["src", "/etc"] }), ["/etc"]);
 * ```
 */
export function pathsOutsideRoot(root: string, input: z.ZodType, args: unknown): string[] {
  const paths = pathValues(input, args).filter((path) => path !== "" && path !== "-");
  return paths.filter((path) => {
    const absolute = resolve(root, path);
    return !isInside(root, absolute) || !isInside(root, realPathOrGiven(absolute));
  });
}

/**
 * Throws `MCP-PERM-010` when a path argument of the call (by the tool's input schema) leaves
 * the root.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { confineToRoot } from "./scope.ts";
 * import { zodSchemas } from "../../core/tool.ts";
 * import { searchTool } from "../search/tool.ts";
 * const input = zodSchemas(searchTool).input;
 * confineToRoot("/repo", input, { paths: ["src"] }); // no error
 * assert.throws(() => confineToRoot("/repo", input, { paths: ["/etc"] }), { code: "MCP-PERM-010" });
 * ```
 */
export function confineToRoot(root: string, input: z.ZodType, args: unknown): void {
  const outside = pathsOutsideRoot(root, input, args);
  if (!outside.length) return;
  throw new ToolError(
    "MCP-PERM-010",
    `path outside the workspace root ${root}: ${outside.join(", ")}`,
    {
      file: outside[0],
      note: `The server was started with --root ${root}; every path it reads or writes must be ` +
        "inside it.",
    },
  );
}

/**
 * Absolute paths named in a mutation result (its `file_path` fields at any depth), for invalidating
 * the cache entries of the files a mutating tool changed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { changedPaths } from "./scope.ts";
 * assert.deepEqual(changedPaths("/repo", { files: [{ file_path: "a.ts" }] }), ["/repo/a.ts"]);
 * ```
 */
export function changedPaths(root: string, result: unknown): string[] {
  const paths: string[] = [];
  collectResultPaths(result, undefined, paths);
  return [...new Set(paths.map((path) => resolve(root, path)))];
}
