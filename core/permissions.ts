/**
 * Turning Deno's sandbox refusals into `*-PERM-*` errors that name the flag to add.
 *
 * @module
 */
import { ToolError } from "../schema/diagnostic.ts";

const REFUSAL = /Requires (\w+) access to "?([^",]+?)"?(?:,|$)/;

/**
 * Whether `error` is a Deno sandbox refusal. `node:fs` in Deno 2.9 throws one without the
 * `Deno.errors.NotCapable` class, so the name and message are checked too.
 */
export function isPermissionRefusal(error: unknown): error is Error {
  if (error instanceof Deno.errors.NotCapable) return true;
  return error instanceof Error &&
    (error.name === "NotCapable" || /^Requires \w+ access to /.test(error.message));
}

function codeFor(prefix: string, permission: string): string {
  if (permission === "read") return `${prefix}-PERM-001`;
  if (permission === "write") return `${prefix}-PERM-002`;
  return `${prefix}-PERM-003`;
}

/**
 * The `*-PERM-*` error for a sandbox refusal, with the exact flag to add as remediation.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { permissionError } from "./permissions.ts";
 * const refusal = new Deno.errors.NotCapable(
 *   'Requires read access to "/etc", run again with the --allow-read flag',
 * );
 * assert.equal(permissionError("LMS", refusal).code, "LMS-PERM-001");
 * ```
 */
export function permissionError(prefix: string, refusal: Error): ToolError {
  const found = REFUSAL.exec(refusal.message);
  const permission = found?.[1] ?? "read";
  const target = found?.[2];
  const flag = `--allow-${permission}${target ? `=${target}` : ""}`;
  return new ToolError(
    codeFor(prefix, permission),
    `missing ${permission} permission${target ? ` for ${target}` : ""}`,
    { file: target, remediation: `Run again with ${flag} (or a scope that covers it).` },
  );
}

/**
 * Throws a `*-PERM-*` {@linkcode ToolError} unless `permission` is granted for `path`.
 * Anything but `"granted"` counts as missing: under `--no-prompt` Deno still answers `"prompt"`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { requirePermission } from "./permissions.ts";
 * const { state } = Deno.permissions.querySync({ name: "read", path: Deno.cwd() });
 * if (state === "granted") requirePermission("LMS", "read", Deno.cwd()); // passes
 * else assert.throws(() => requirePermission("LMS", "read", Deno.cwd()), { code: "LMS-PERM-001" });
 * ```
 */
export function requirePermission(
  prefix: string,
  permission: "read" | "write",
  path: string,
): void {
  if (Deno.permissions.querySync({ name: permission, path }).state === "granted") return;
  throw new ToolError(codeFor(prefix, permission), `missing ${permission} permission for ${path}`, {
    file: path,
    remediation: `Run again with --allow-${permission}=${path} (or a scope that covers it).`,
  });
}
