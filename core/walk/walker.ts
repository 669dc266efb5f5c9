/**
 * The one directory walker of the toolkit (ripgrep's `ignore` crate in spirit): ignore files,
 * hidden entries, globs and types, depth and size limits, symlink policy, and a deterministic
 * order — entries come out sorted by `file_path` as plain strings, whatever the file system
 * returns. It never reads file contents.
 *
 * @module
 */
import { join, resolve, sep } from "../path_syntax.ts";
import { displayPath, isInside } from "../paths.ts";
import { type Diagnostic, makeDiagnostic, ToolError } from "../../schema/diagnostic.ts";
import type { CodePrefix } from "../../schema/error_codes.ts";
import type { RunCache } from "../cache.ts";
import { requirePermission } from "../permissions.ts";
import { cachedWalk, mtimeOf, storeWalk } from "./walk_cache.ts";
import {
  ANCESTOR_STAMPS,
  ancestorDirs,
  ancestorLayers,
  IGNORE_FILES,
  type IgnoreLayer,
  ignoreVerdict,
  layerFor,
} from "./ignore_rules.ts";
import { PathFilter } from "./path_filter.ts";
import { copyEntry, type WalkEntry } from "./walk_entry.ts";

export type { WalkEntry } from "./walk_entry.ts";

/** What to walk and how. */
export interface WalkOptions {
  /** Tool name, for diagnostics. */
  tool: string;
  /** Error-code prefix, for diagnostics. */
  prefix: CodePrefix;
  /** The tool root: relative paths resolve against it and `file_path`s are relative to it. */
  cwd: string;
  /** Paths to walk (files or directories); default `["."]`. */
  paths?: readonly string[];
  /** Include hidden entries (names starting with `.`); `.git/` stays skipped. */
  hidden?: boolean;
  /** Do not read `.gitignore`, `.ignore`, `.llmignore`. */
  noIgnore?: boolean;
  /** Follow symbolic links that stay inside the walked roots. */
  follow?: boolean;
  /** Deepest level to enter; entries directly inside a named directory are at depth 1. */
  maxDepth?: number;
  /** Skip files larger than this many bytes. */
  maxFilesize?: number;
  /**
   * ripgrep-style globs over the path relative to `cwd`, `!` to negate, the last match wins;
   * a glob's verdict overrides ignore rules and hiddenness.
   */
  globs?: readonly string[];
  /** File types to keep. */
  types?: readonly string[];
  /** File types to drop. */
  typesNot?: readonly string[];
  /** Yield directories too (after the filters). */
  includeDirs?: boolean;
  /** Stat every yielded entry for `size` and `mtimeMs`. */
  stat?: boolean;
  /**
   * The caller's answer does not depend on the order of the entries (discover ranks by score,
   * then path): a directory's children are taken in the order it lists them, unsorted, which
   * saved 10–15 ms of Linux 6.1's 83,000 entries. Diagnostics then come in that order too.
   */
  anyOrder?: boolean;
  /**
   * A long-lived host's cache: a finished walk is kept there and reused while no directory it
   * read and no ignore file it applied has changed (not with `maxFilesize`, which depends on
   * file contents).
   */
  cache?: RunCache;
}

/**
 * The walk settings an engine takes from its caller: everything but what the engine decides
 * itself (tool, prefix, root, paths, whether directories or stats are wanted).
 */
export type EngineWalkOptions = Omit<
  WalkOptions,
  "tool" | "prefix" | "cwd" | "paths" | "includeDirs" | "stat" | "anyOrder"
>;

interface Child {
  name: string;
  key: string;
  isDir: boolean;
  isFile: boolean;
  isSymlink: boolean;
  /** An ignore file or `.git`: the directory gets a layer of rules. */
  shapesRules: boolean;
}

interface Frame {
  absDir: string;
  display: string;
  depth: number;
  layers: IgnoreLayer[];
  realAncestors: Set<string>;
  children: Child[];
  next: number;
}

const NO_ANCESTORS: Set<string> = new Set();

function joinDisplay(base: string, name: string): string {
  return base === "." ? name : base.endsWith("/") ? base + name : `${base}/${name}`;
}

/**
 * Walks the named paths and yields their entries in `file_path` order. Problems that do not
 * stop the walk (unreadable directories, missing paths, links not followed) are appended to
 * `diagnostics`; a missing permission throws a `*-PERM-*` error.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Walker } from "./walker.ts";
 * const cwd = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${cwd}/src`);
 * for (const name of ["src/b.ts", "src/a.ts", "README.md"]) {
 *   Deno.writeTextFileSync(`${cwd}/${name}`, "");
 * }
 * const walker = new Walker({ tool: "llm-search", prefix: "LMS", cwd, types: ["ts"] });
 * const paths = [...walker.entries()].map((entry) => entry.filePath);
 * assert.deepEqual(paths, ["src/a.ts", "src/b.ts"]);
 * Deno.removeSync(cwd, { recursive: true });
 * ```
 */
export class Walker {
  /** Diagnostics gathered so far. */
  readonly diagnostics: Diagnostic[] = [];
  readonly #options: WalkOptions;
  readonly #filter: PathFilter;
  #realRoots: string[] = [];

  /** Prepares a walk; throws `*-ARG-*` for unknown types or invalid globs. */
  constructor(options: WalkOptions) {
    this.#options = options;
    this.#filter = new PathFilter(options.prefix, options.globs, options.types, options.typesNot);
  }

  #note(code: string, message: string, file: string, level: Diagnostic["level"] = "warning") {
    this.diagnostics.push(
      makeDiagnostic(this.#options.tool, code, message, { level, file }),
    );
  }

  #stat(entry: WalkEntry): WalkEntry {
    if (!this.#options.stat) return entry;
    const info = Deno.statSync(entry.absPath);
    entry.size = info.size;
    entry.mtimeMs = info.mtime?.getTime();
    return entry;
  }

  /** Yields every entry of every named path (from the host's cache when it is still true). */
  *entries(): Generator<WalkEntry> {
    yield* this.listOrWalk();
  }

  /**
   * The entries of every named path: the host's cached walk itself when it still holds and this
   * walk stats nothing (an array to read, never to change: copying 78,000 entries took a third
   * of a warm indexed search, and an array is read faster than a generator; a one-shot run's
   * index listing builds its entries as they are read), else the walk.
   */
  listOrWalk(): readonly WalkEntry[] | Iterable<WalkEntry> {
    const { cwd, prefix, maxFilesize } = this.#options;
    const given = this.#options.paths?.length ? this.#options.paths : ["."];
    for (const path of given) {
      if (path.includes("\0")) {
        throw new ToolError(
          `${prefix}-IO-004`,
          `the path ${JSON.stringify(path)} contains a NUL byte, which no file name holds`,
          { remediation: "Remove the NUL byte from the path argument." },
        );
      }
    }
    const named = given.map((path) => resolve(cwd, path));
    for (const absPath of named) requirePermission(prefix, "read", absPath);
    const cache = maxFilesize === undefined ? this.#options.cache : undefined;
    if (!cache) return this.#walkNamed(named);
    const key = this.#cacheKey(named);
    const hit = cachedWalk(cache, key);
    if (!hit) return this.#recordWalk(cache, key, named);
    this.diagnostics.push(...hit.diagnostics);
    return this.#options.stat ? this.#statCopies(hit.entries) : hit.entries;
  }

  /** Copies of recorded entries, stat'ed (only the walker writes to an entry). */
  *#statCopies(entries: Iterable<WalkEntry>): Generator<WalkEntry> {
    for (const entry of entries) yield this.#stat(copyEntry(entry));
  }

  /** Walks the named paths and stores the walk in `cache` once it is complete. */
  *#recordWalk(cache: RunCache, key: string, named: string[]): Generator<WalkEntry> {
    const started = Date.now();
    const stamps = new Map<string, number>();
    const ancestorStamps = new Map<string, number>();
    this.#stamps = stamps;
    this.#ancestorStamps = ancestorStamps;
    const entries: WalkEntry[] = [];
    for (const entry of this.#walkNamed(named)) {
      entries.push(copyEntry(entry));
      yield entry;
    }
    const diagnostics = [...this.diagnostics];
    storeWalk(cache, key, { entries, diagnostics, stamps, ancestorStamps }, started);
  }

  /** Paths whose modification time decides whether a cached walk still holds; set while recording. */
  #stamps: Map<string, number> | undefined;
  /** The same for the roots' ancestors. */
  #ancestorStamps: Map<string, number> | undefined;

  #stamp(path: string, stamps = this.#stamps): void {
    if (stamps && !stamps.has(path)) stamps.set(path, mtimeOf(path));
  }

  /** The cache key: every option that shapes the list of entries. */
  #cacheKey(named: string[]): string {
    const { hidden, noIgnore, follow, maxDepth, globs, types, typesNot, includeDirs, cwd } =
      this.#options;
    // A walk in any order never serves one that wants path order.
    const anyOrder = this.#options.anyOrder === true;
    return `walk\0${
      JSON.stringify({
        cwd,
        named,
        hidden,
        noIgnore,
        follow,
        maxDepth,
        globs,
        types,
        typesNot,
        includeDirs,
        anyOrder,
      })
    }`;
  }

  /**
   * Records the stamps of what a root's ancestors contribute: their ignore files and `.git`
   * (one appearing, changing or going changes the walk). The directories themselves are not
   * stamped: ancestors such as the home folder change all the time for other reasons.
   */
  #stampAncestors(root: string): void {
    const stamps = this.#ancestorStamps;
    if (!stamps) return;
    for (const dir of ancestorDirs(root)) {
      for (const name of ANCESTOR_STAMPS) this.#stamp(join(dir, ...name.split("/")), stamps);
    }
  }

  /** The real path of the root (`cwd`), or `cwd` itself when the run may not resolve it. */
  #realRoot(): string {
    try {
      return Deno.realPathSync(this.#options.cwd);
    } catch (error) {
      if (error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.NotFound) {
        return this.#options.cwd;
      }
      throw error;
    }
  }

  /**
   * Why a named path may not be read, or `undefined` when it may. Deno's `--allow-read` checks
   * the name, not what a link leads to, so the real path is checked here: a path named inside
   * the root must resolve inside it (a link to a target inside the root is read, as ripgrep
   * reads a named link; one leading out is refused, with or without --follow); a path named
   * outside the root is read as named, never through a link in its last component.
   */
  #namedRefusal(absPath: string, real: string, realRoot: string): string | undefined {
    if (isInside(this.#options.cwd, absPath)) {
      return isInside(realRoot, real) ? undefined : "it leads outside the root through a link";
    }
    return Deno.lstatSync(absPath).isSymlink
      ? "it is a link, and it lies outside the root"
      : undefined;
  }

  /**
   * The entries of the named paths, each checked first (the checks' diagnostics are noted at
   * once). A single directory's walk is returned as it is, not passed through one more
   * generator: each layer costs every entry a resumption (about 7 ms of Linux 6.1's walk).
   */
  #walkNamed(named: string[]): Iterable<WalkEntry> {
    const { cwd, prefix } = this.#options;
    const realRoot = this.#realRoot();
    this.#realRoots.push(realRoot);
    const roots: { absPath: string; info: Deno.FileInfo }[] = [];
    for (const absPath of named) {
      this.#stamp(absPath);
      const filePath = displayPath(cwd, absPath);
      let real: string;
      let info: Deno.FileInfo;
      try {
        real = Deno.realPathSync(absPath);
        info = Deno.statSync(real);
      } catch (error) {
        if (error instanceof Deno.errors.NotCapable) {
          this.#note(
            `${prefix}-IO-003`,
            `not read: ${filePath} leads outside the permitted paths through a link`,
            filePath,
            "error",
          );
          continue;
        }
        if (error instanceof Deno.errors.NotFound) {
          this.#note(
            `${prefix}-IO-001`,
            `no such file or directory: ${filePath}`,
            filePath,
            "error",
          );
          continue;
        }
        // The OS refused the name itself (too long, a loop of links, not a directory): coded.
        const reason = error instanceof Error ? error.message : String(error);
        this.#note(`${prefix}-IO-002`, `cannot read ${filePath}: ${reason}`, filePath, "error");
        continue;
      }
      const refusal = this.#namedRefusal(absPath, real, realRoot);
      if (refusal) {
        this.#note(`${prefix}-IO-003`, `not read: ${filePath}: ${refusal}`, filePath, "error");
        continue;
      }
      roots.push({ absPath, info });
      this.#realRoots.push(real);
    }
    if (roots.length === 1 && roots[0].info.isDirectory && !this.#options.includeDirs) {
      return this.#walkDir(roots[0].absPath, displayPath(cwd, roots[0].absPath));
    }
    return this.#walkRoots(roots);
  }

  /** The entries of checked roots: each file itself, each directory with what it holds. */
  *#walkRoots(roots: { absPath: string; info: Deno.FileInfo }[]): Generator<WalkEntry> {
    const { cwd, prefix } = this.#options;
    for (const { absPath, info } of roots) {
      const filePath = displayPath(cwd, absPath);
      const name = absPath.split(sep).pop() ?? absPath;
      if (!info.isDirectory) {
        if (!info.isFile) {
          this.#note(`${prefix}-IO-002`, `not a regular file: ${filePath}`, filePath);
          continue;
        }
        yield this.#stat({ absPath, filePath, name, kind: "file", depth: 0, explicit: true });
        continue;
      }
      if (this.#options.includeDirs) {
        yield this.#stat({ absPath, filePath, name, kind: "dir", depth: 0, explicit: true });
      }
      yield* this.#walkDir(absPath, filePath);
    }
  }

  /**
   * Whether an entry's name is not valid UTF-8: Deno hands such a name over with U+FFFD in
   * place of the bad bytes, so the name it gives leads nowhere. The entry is skipped with a
   * warning naming it lossily (a name that truly holds U+FFFD still exists and is kept).
   */
  #notUtf8(absDir: string, name: string, display: string): boolean {
    try {
      Deno.lstatSync(absDir + sep + name);
      return false;
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
      const shown = joinDisplay(display, name);
      this.#note(
        `${this.#options.prefix}-IO-006`,
        `skipped ${shown}: its name is not valid UTF-8 (shown with U+FFFD for the bad bytes)`,
        shown,
      );
      return true;
    }
  }

  #readChildren(absDir: string, display: string): Child[] {
    const children: Child[] = [];
    try {
      for (const entry of Deno.readDirSync(absDir)) {
        const name = entry.name;
        if (name.includes("\uFFFD") && this.#notUtf8(absDir, name, display)) continue;
        // Each flag read from a Deno entry costs; most entries are files, which need one.
        const isFile = entry.isFile;
        const isDir = !isFile && entry.isDirectory;
        children.push({
          name,
          key: isDir ? name + "/" : name,
          isDir,
          isFile,
          isSymlink: !isFile && !isDir && entry.isSymlink,
          shapesRules: name.charCodeAt(0) === 46 &&
            (IGNORE_FILES.includes(name) || name === ".git"),
        });
      }
    } catch (error) {
      if (error instanceof Deno.errors.NotCapable) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      this.#note(
        `${this.#options.prefix}-IO-002`,
        `cannot read directory ${display}: ${reason}`,
        display,
      );
      return [];
    }
    // Sorting by name, with "/" after directory names, makes the DFS order equal to the
    // plain string order of the full paths.
    if (!this.#options.anyOrder) {
      children.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    }
    return children;
  }

  #frame(absDir: string, display: string, depth: number, parent?: Frame): Frame {
    const { noIgnore } = this.#options;
    // Stamped before reading: a change made during the read then shows as a newer mtime.
    this.#stamp(absDir);
    const children = this.#readChildren(absDir, display);
    let layers = parent?.layers ?? [];
    if (!parent && !noIgnore) {
      layers = ancestorLayers(absDir);
      this.#noteRuleErrors(layers);
      this.#stampAncestors(absDir);
    }
    if (!noIgnore && children.some((child) => child.shapesRules)) {
      const names = new Set(children.map((child) => child.name));
      for (const name of IGNORE_FILES) if (names.has(name)) this.#stamp(join(absDir, name));
      if (names.has(".git")) this.#stamp(join(absDir, ".git", "info", "exclude"));
      const layer = layerFor(absDir, layers.some((above) => above.hasGit), names);
      if (layer) {
        layers = [...layers, layer];
        this.#noteRuleErrors([layer]);
      }
    }
    const realAncestors = this.#options.follow
      ? new Set([...(parent?.realAncestors ?? []), Deno.realPathSync(absDir)])
      : NO_ANCESTORS;
    return { absDir, display, depth, layers, realAncestors, children, next: 0 };
  }

  /** Reports the lines of ignore files that are not valid globs (skipped, as ripgrep does). */
  #noteRuleErrors(layers: readonly IgnoreLayer[]): void {
    for (const layer of layers) {
      for (const { file, line, reason } of layer.errors) {
        const shown = displayPath(this.#options.cwd, file);
        this.#note(
          `${this.#options.prefix}-IO-005`,
          `${shown}: invalid rule '${line}' skipped: ${reason}`,
          shown,
        );
      }
    }
  }

  /** Resolves a symlink child under --follow; returns its kind or undefined to skip it. */
  #followLink(frame: Frame, absPath: string, display: string): "file" | "dir" | undefined {
    let real: string;
    let info: Deno.FileInfo;
    try {
      real = Deno.realPathSync(absPath);
      info = Deno.statSync(real);
    } catch (error) {
      if (error instanceof Deno.errors.NotCapable) {
        this.#note(
          `${this.#options.prefix}-IO-003`,
          `link leads outside the permitted paths: ${display}`,
          display,
          "note",
        );
        return undefined;
      }
      this.#note(`${this.#options.prefix}-IO-003`, `broken link: ${display}`, display, "note");
      return undefined;
    }
    const inside = this.#realRoots.some((root) => real === root || real.startsWith(root + sep));
    if (!inside) {
      this.#note(
        `${this.#options.prefix}-IO-003`,
        `link points outside the root: ${display}`,
        display,
        "note",
      );
      return undefined;
    }
    if (info.isDirectory && frame.realAncestors.has(real)) {
      this.#note(`${this.#options.prefix}-IO-003`, `symlink loop skipped: ${display}`, display);
      return undefined;
    }
    return info.isDirectory ? "dir" : info.isFile ? "file" : undefined;
  }

  #sizeOf(absPath: string, display: string): number | undefined {
    try {
      return Deno.statSync(absPath).size;
    } catch (error) {
      if (error instanceof Deno.errors.NotCapable) throw error;
      this.#note(
        `${this.#options.prefix}-IO-002`,
        `cannot stat ${display}: ${String(error)}`,
        display,
      );
      return undefined;
    }
  }

  /**
   * Whether a child entry is skipped, in ripgrep's order: a glob's verdict first, then the
   * ignore rules, then the types; an entry none of them whitelists is skipped when hidden.
   */
  #skips(frame: Frame, absPath: string, display: string, name: string, isDir: boolean): boolean {
    const filter = this.#filter;
    const glob = filter.hasGlobs ? filter.globVerdict(display, isDir) : undefined;
    if (glob) return glob === "ignore";
    let whitelisted = false;
    if (!this.#options.noIgnore && frame.layers.length > 0) {
      const verdict = ignoreVerdict(frame.layers, absPath, isDir);
      if (verdict === "ignore") return true;
      whitelisted = verdict === "whitelist";
    }
    const type = filter.typeVerdict(name, isDir);
    if (type === "ignore") return true;
    whitelisted ||= type === "whitelist";
    return !whitelisted && !this.#options.hidden && name.charCodeAt(0) === 46;
  }

  *#walkDir(absRoot: string, displayRoot: string): Generator<WalkEntry> {
    const { follow, maxDepth, maxFilesize, includeDirs } = this.#options;
    const stack: Frame[] = [this.#frame(absRoot, displayRoot, 0)];
    while (stack.length > 0) {
      const frame = stack[stack.length - 1];
      const child = frame.children[frame.next++];
      if (child === undefined) {
        stack.pop();
        continue;
      }
      const { name } = child;
      // `.git` holds git's own data, never project files (ripgrep with --hidden would enter it).
      if (name === ".git") continue;
      const absPath = frame.absDir + sep + name;
      const display = joinDisplay(frame.display, name);
      // FIFOs, sockets and devices are never read: a FIFO would block the walk forever.
      let kind: "file" | "dir" | undefined = child.isDir
        ? "dir"
        : child.isFile
        ? "file"
        : undefined;
      if (child.isSymlink) {
        kind = follow ? this.#followLink(frame, absPath, display) : undefined;
      }
      if (kind === undefined) continue;
      const depth = frame.depth + 1;
      if (maxDepth !== undefined && depth > maxDepth) continue;
      if (this.#skips(frame, absPath, display, name, kind === "dir")) continue;
      if (kind === "dir") {
        if (includeDirs && this.#filter.listsDir(display)) {
          yield this.#stat({ absPath, filePath: display, name, kind, depth, explicit: false });
        }
        if (maxDepth === undefined || depth < maxDepth) {
          stack.push(this.#frame(absPath, display, depth, frame));
        }
        continue;
      }
      const entry: WalkEntry = { absPath, filePath: display, name, kind, depth, explicit: false };
      if (maxFilesize !== undefined) {
        const size = this.#sizeOf(absPath, display);
        if (size === undefined || size > maxFilesize) continue;
        entry.size = size;
      }
      yield this.#stat(entry);
    }
  }
}
