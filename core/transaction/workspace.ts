/**
 * The workspace root of a run and the resolution of the paths an edit names: relative to the
 * root, confined to it (also through symbolic links), reported with `/` separators.
 *
 * @module
 */
import { relative, resolve } from "../path_syntax.ts";
import { ToolError } from "../../schema/diagnostic.ts";
import type { CodePrefix } from "../../schema/error_codes.ts";
import { requirePermission } from "../permissions.ts";
import { isInside, realPathOf, toSlash } from "../paths.ts";
import { requireOutsideStateFolder } from "./confine.ts";
import { transactionCodes, type WriterPrefix } from "./codes.ts";

/** A file an edit names. */
export interface ResolvedPath {
  /** As reported: relative to the root, `/` separators. */
  display: string;
  /** Absolute path with symbolic links resolved: what is read and written. */
  path: string;
}

/** `*-IO-004` for a path holding a NUL byte, shown escaped. */
function nulByte(prefix: CodePrefix, what: string, path: string): ToolError {
  return new ToolError(
    `${prefix}-IO-004`,
    `${what} ${JSON.stringify(path)} contains a NUL byte, which no file name can hold`,
    { file: JSON.stringify(path) },
  );
}

/**
 * The root of a run: where relative paths start and where the journal lives. Its errors carry
 * the code prefix of the tool that opened it (`LMT` for llm-transform, `LFW` for llm-write).
 */
export class Workspace {
  /** The root as given, made absolute. */
  readonly given: string;
  /** The root with symbolic links resolved. */
  readonly real: string;
  /** Code prefix of the errors. */
  readonly prefix: WriterPrefix;

  private constructor(given: string, real: string, prefix: WriterPrefix) {
    this.given = given;
    this.real = real;
    this.prefix = prefix;
  }

  /**
   * Opens the root `root` (relative to `cwd`). Throws `*-PERM-001` without read permission
   * for it, `*-IO-001` when it does not exist or is not a directory, and `*-IO-004` when
   * it holds a NUL byte (`*` is `prefix`, default `LMT`).
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { Workspace } from "./workspace.ts";
   * const workspace = await Workspace.open(".", Deno.cwd());
   * assert.equal(workspace.resolve("README.md").display, "README.md");
   * ```
   */
  static async open(
    root: string,
    cwd: string,
    prefix: WriterPrefix = "LMT",
  ): Promise<Workspace> {
    const given = resolve(cwd, root);
    if (given.includes("\0")) throw nulByte(prefix, "the root", root);
    requirePermission(prefix, "read", given);
    try {
      const real = await Deno.realPath(given);
      if (!(await Deno.stat(real)).isDirectory) {
        throw new ToolError(`${prefix}-IO-001`, `the root ${given} is not a directory`, {
          file: given,
        });
      }
      return new Workspace(given, real, prefix);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
      throw new ToolError(`${prefix}-IO-001`, `the root ${given} does not exist`, { file: given });
    }
  }

  /**
   * Resolves a path of the plan. Throws `*-PERM-010` when it leaves the root (lexically or
   * through a symbolic link), `*-PERM-001` without read permission, and `*-IO-004` when it
   * holds a NUL byte (no file name can). A path that does not
   * exist resolves through its nearest existing parent, and is reported by the caller.
   */
  resolve(path: string): ResolvedPath {
    if (path.includes("\0")) throw nulByte(this.prefix, "the path", path);
    const absolute = resolve(this.given, path);
    const outside = (why: string) =>
      new ToolError(
        transactionCodes(this.prefix).pathOutsideRoot,
        `${path} is outside the root ${this.given}${why}`,
        { file: path },
      );
    if (!isInside(this.given, absolute) && !isInside(this.real, absolute)) throw outside("");
    const base = isInside(this.given, absolute) ? this.given : this.real;
    const display = toSlash(relative(base, absolute));
    if (display === "") throw outside(": it is the root itself");
    requirePermission(this.prefix, "read", absolute);
    const real = realPathOf(absolute);
    if (!isInside(this.real, real)) throw outside(` (through a symbolic link to ${real})`);
    if (real !== absolute) requirePermission(this.prefix, "read", real);
    return { display, path: real };
  }

  /**
   * Resolves a path the run is to write, as {@linkcode resolve} does, and throws `*-PERM-013`
   * when it lies in the toolkit's state folder `<root>/.llm` (links and `..` resolved): so a
   * preview or a validation refuses it as the commit would (`commitChanges` checks it again).
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { Workspace } from "./workspace.ts";
   * const workspace = await Workspace.open(".", Deno.cwd(), "LFW");
   * assert.throws(() => workspace.resolveTarget(".llm/journal/x.json"), { code: "LFW-PERM-013" });
   * ```
   */
  resolveTarget(path: string): ResolvedPath {
    const resolved = this.resolve(path);
    requireOutsideStateFolder(
      this.real,
      resolved.path,
      transactionCodes(this.prefix).stateFolder,
      path,
    );
    return resolved;
  }

  /**
   * A path relative to the root for display (the journal directory, say).
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { Workspace } from "./workspace.ts";
   * const workspace = await Workspace.open(".", Deno.cwd());
   * assert.equal(workspace.display(`${workspace.real}/.llm/journal`), ".llm/journal");
   * ```
   */
  display(path: string): string {
    return toSlash(relative(this.real, path));
  }
}
