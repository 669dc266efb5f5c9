/**
 * Reading a file the user named as input (`--query-file`, `--plan`, …): a missing path, a
 * directory, a FIFO or a name with a NUL byte each become a coded error instead of an
 * internal one, and nothing but a regular file is ever opened. Like the walker, it never reads
 * through a link out of the root (the working directory): Deno's `--allow-read` checks the
 * name, not the link's target.
 *
 * @module
 */
import { resolve } from "./path_syntax.ts";
import { isInside } from "./paths.ts";
import { ToolError } from "../schema/diagnostic.ts";
import type { CodePrefix } from "../schema/error_codes.ts";
import { isPermissionRefusal, permissionError } from "./permissions.ts";
import { decodeText } from "./utf8.ts";

/**
 * Reads the text of the input file `name` (resolved against `cwd`), decoded as every file is
 * (`core/utf8.ts`). `what` names the input in messages, e.g. `"query file"`. Throws as
 * {@linkcode readInputBytes} does.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readInputFile } from "./input_file.ts";
 * assert.throws(() => readInputFile("LMA", Deno.cwd(), ".", "query file"), { code: "LMA-IO-004" });
 * ```
 */
export function readInputFile(
  prefix: CodePrefix,
  cwd: string,
  name: string,
  what: string,
): string {
  return decodeText(readInputBytes(prefix, cwd, name, what));
}

/**
 * Reads the bytes of the input file `name` (resolved against `cwd`): for a file whose positions
 * a tool reports, which must count the bytes on disk. `what` names the input in messages.
 * Throws `*-IO-001` when it does not exist, `*-IO-004` when it is not a regular file or its
 * name holds a NUL byte, `*-IO-003` when a path named inside `cwd` leads out of it through a
 * link (or a path named outside is itself a link), `*-PERM-001` when reading is refused.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readInputBytes } from "./input_file.ts";
 * assert.throws(() => readInputBytes("LMV", Deno.cwd(), "missing.py", "file"), {
 *   code: "LMV-IO-001",
 * });
 * ```
 */
export function readInputBytes(
  prefix: CodePrefix,
  cwd: string,
  name: string,
  what: string,
): Uint8Array {
  if (name.includes("\0")) {
    throw new ToolError(`${prefix}-IO-004`, `the ${what} path contains a NUL byte`);
  }
  const path = resolve(cwd, name);
  try {
    refuseLinkOut(prefix, cwd, path, name, what);
    const info = Deno.statSync(path);
    if (!info.isFile) {
      const found = info.isDirectory ? "a directory" : "not a regular file";
      throw new ToolError(`${prefix}-IO-004`, `the ${what} ${name} is ${found}`, { file: name });
    }
    return Deno.readFileSync(path);
  } catch (error) {
    if (error instanceof ToolError) throw error;
    if (error instanceof Deno.errors.NotFound) {
      throw new ToolError(`${prefix}-IO-001`, `no such ${what}: ${name}`, { file: name }, {
        cause: error,
      });
    }
    if (isPermissionRefusal(error)) throw permissionError(prefix, error);
    throw new ToolError(`${prefix}-IO-002`, `cannot read the ${what} ${name}`, {
      file: name,
      note: error instanceof Error ? error.message : String(error),
    }, { cause: error });
  }
}

/** Throws `*-IO-003` when reading `path` would leave the root `cwd` through a link. */
function refuseLinkOut(prefix: CodePrefix, cwd: string, path: string, name: string, what: string) {
  const leaves = isInside(cwd, path)
    ? !isInside(Deno.realPathSync(cwd), Deno.realPathSync(path))
    : Deno.lstatSync(path).isSymlink;
  if (leaves) {
    throw new ToolError(
      `${prefix}-IO-003`,
      `not read: the ${what} ${name} leads outside the root through a link`,
      { file: name },
    );
  }
}
