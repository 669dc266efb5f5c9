/**
 * The workspace root of a run and the resolution of the paths an edit names: relative to the
 * root, confined to it (also through symbolic links), reported with `/` separators.
 *
 * @module
 */
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { ToolError } from "../../schema/mod.ts";
import { requirePermission } from "../../core/permissions.ts";

/** A file an edit names. */
export interface ResolvedPath {
  /** As reported: relative to the root, `/` separators. */
  display: string;
  /** Absolute path with symbolic links resolved: what is read and written. */
  path: string;
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(".." + sep) && !isAbsolute(rel));
}

function toDisplay(rel: string): string {
  return sep === "/" ? rel : rel.split(sep).join("/");
}

/** The root of a run: where relative paths start and where the journal lives. */
export class Workspace {
  /** The root as given, made absolute. */
  readonly given: string;
  /** The root with symbolic links resolved. */
  readonly real: string;

  private constructor(given: string, real: string) {
    this.given = given;
    this.real = real;
  }

  /**
   * Opens the root `root` (relative to `cwd`). Throws `LMT-PERM-001` without read permission
   * for it and `LMT-IO-001` when it does not exist.
   *
   * @example
   * ```ts
   * import { Workspace } from "@llm/search/transform";
   * const workspace = await Workspace.open(".", Deno.cwd());
   * workspace.resolve("README.md").display; // "README.md"
   * ```
   */
  static async open(root: string, cwd: string): Promise<Workspace> {
    const given = resolve(cwd, root);
    requirePermission("LMT", "read", given);
    try {
      const real = await Deno.realPath(given);
      if (!(await Deno.stat(real)).isDirectory) {
        throw new ToolError("LMT-IO-001", `the root ${given} is not a directory`, { file: given });
      }
      return new Workspace(given, real);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
      throw new ToolError("LMT-IO-001", `the root ${given} does not exist`, { file: given });
    }
  }

  /**
   * Resolves a path of the plan. Throws `LMT-PERM-010` when it leaves the root (lexically or
   * through a symbolic link) and `LMT-PERM-001` without read permission. A path that does not
   * exist resolves through its nearest existing parent, and is reported by the caller.
   */
  resolve(path: string): ResolvedPath {
    const absolute = resolve(this.given, path);
    const outside = (why: string) =>
      new ToolError("LMT-PERM-010", `${path} is outside the root ${this.given}${why}`, {
        file: path,
      });
    if (!inside(this.given, absolute) && !inside(this.real, absolute)) throw outside("");
    const base = inside(this.given, absolute) ? this.given : this.real;
    const display = toDisplay(relative(base, absolute));
    if (display === "") throw outside(": it is the root itself");
    requirePermission("LMT", "read", absolute);
    const real = realPathOf(absolute);
    if (!inside(this.real, real)) throw outside(` (through a symbolic link to ${real})`);
    if (real !== absolute) requirePermission("LMT", "read", real);
    return { display, path: real };
  }

  /**
   * A path relative to the root for display (the journal directory, say).
   *
   * @example
   * ```ts
   * import { Workspace } from "@llm/search/transform";
   * const workspace = await Workspace.open(".", Deno.cwd());
   * workspace.display(`${workspace.real}/.llm/journal`); // ".llm/journal"
   * ```
   */
  display(path: string): string {
    return toDisplay(relative(this.real, path));
  }
}

/** Real path of `path`, resolving links on the longest part that exists. */
function realPathOf(path: string): string {
  const rest: string[] = [];
  let existing = path;
  for (;;) {
    try {
      const real = Deno.realPathSync(existing);
      return rest.length ? join(real, ...rest.reverse()) : real;
    } catch (error) {
      const parent = dirname(existing);
      if (!(error instanceof Deno.errors.NotFound) || parent === existing) throw error;
      rest.push(existing.slice(parent.length + (parent.endsWith(sep) ? 0 : 1)));
      existing = parent;
    }
  }
}
