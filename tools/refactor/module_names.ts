/**
 * Names a file binds to modules through its imports, read from the import declarations' text:
 * `import * as ns from "./m.mjs"` (JavaScript, TypeScript), `import util as u` and
 * `from pkg import tools as t` (Python), `u "example.com/demo/util"` (Go), `use crate::util as
 * u;` (Rust). A use `ns.f` names `f` of that module, as `m.f` names it where the module's own
 * name is written. And Java's static imports (`import static pkg.Util.helper;`,
 * `import static pkg.Util.*;`), through which a class's static member is used by its bare name.
 *
 * @module
 */
import { basename, dirname } from "../../core/path_syntax.ts";
import { importPatterns, patternMatches } from "../../core/symbol_index/import_paths.ts";
import type { Def, ImportDecl, LoadedFile } from "./view.ts";

/** A name bound to a module, and the module as an import names it. */
interface ModuleAlias {
  /** The name the file uses. */
  alias: string;
  /** The module: a path (`./m.mjs`, a Go import path), dotted (Python) or a Rust path. */
  module: string;
}

const NAME = String.raw`[\p{L}_$][\p{L}\p{N}_$]*`;
const NAMESPACE_IMPORT = new RegExp(String.raw`^import\b[^]*?\*\s*as\s+(${NAME})`, "u");
const GO_NAMED = new RegExp(String.raw`^\s*(${NAME})\s+["\x60]`, "u");
const RUST_AS = new RegExp(
  String.raw`^\s*(?:pub(?:\([^)]*\))?\s+)?use\s+([\p{L}\p{N}_:]+)\s+as\s+(${NAME})\s*;`,
  "u",
);
const JAVA_STATIC = new RegExp(
  String.raw`^import\s+static\s+([\p{L}\p{N}_$.\s]+?)\s*\.\s*(\*|${NAME})\s*;`,
  "u",
);

/** `from M import a as b, c` and `import a.b as c, d`: Python's aliases of modules. */
function pythonAliases(text: string): ModuleAlias[] {
  const flat = text.replace(/\\\r?\n/g, " ").replace(/[()]/g, " ").replace(/\s+/g, " ").trim();
  const from = /^from (\S+) import (.+)$/.exec(flat);
  const plain = /^import (.+)$/.exec(flat);
  const aliases: ModuleAlias[] = [];
  for (const item of (from?.[2] ?? plain?.[1] ?? "").split(",")) {
    const [name, alias] = item.trim().split(/ as /);
    if (!name || !alias) continue;
    const module = from ? (from[1].endsWith(".") ? from[1] + name : `${from[1]}.${name}`) : name;
    aliases.push({ alias: alias.trim(), module: module.trim() });
  }
  return aliases;
}

/** The aliases one import declaration of a file of `language` binds. */
function aliasesOf(language: string, decl: ImportDecl): ModuleAlias[] {
  switch (language) {
    case "javascript":
    case "typescript":
    case "tsx": {
      const match = NAMESPACE_IMPORT.exec(decl.text);
      return match ? [{ alias: match[1], module: decl.target }] : [];
    }
    case "python":
      return pythonAliases(decl.text);
    case "go": {
      const match = GO_NAMED.exec(decl.text);
      return match ? [{ alias: match[1], module: decl.target }] : [];
    }
    case "rust": {
      const match = RUST_AS.exec(decl.text);
      return match ? [{ alias: match[2], module: match[1] }] : [];
    }
    default:
      return [];
  }
}

/** The package name a Go import path gives (its last part, less a major version suffix). */
function goPackage(path: string): string {
  const parts = path.split("/");
  let last = parts.pop() ?? "";
  if (/^v\d+$/.test(last) && parts.length > 0) last = parts.pop()!;
  return last.replace(/\.v\d+$/, "");
}

/** Whether `module`, imported by `file`, is the module `def` is defined in. */
function modulePoints(file: LoadedFile, module: string, def: Def): boolean {
  if (file.language === "go") return goPackage(module) === basename(dirname(def.path));
  return importPatterns(file.language, file.path, module, "import").some((pattern) =>
    patternMatches(pattern, def.path)
  );
}

/** The aliases of each file, read once (a rename asks for every use of the name in it). */
const aliasesByFile = new WeakMap<LoadedFile, ModuleAlias[]>();

function aliasesOfFile(file: LoadedFile): ModuleAlias[] {
  let aliases = aliasesByFile.get(file);
  if (!aliases) {
    aliases = file.imports.flatMap((decl) => aliasesOf(file.language, decl));
    aliasesByFile.set(file, aliases);
  }
  return aliases;
}

/** Every name `file` binds to a module through an alias. */
export function boundModules(file: LoadedFile): Set<string> {
  return new Set(aliasesOfFile(file).map((bound) => bound.alias));
}

/** The names `file` binds to the module `def` is defined in (`ns` of `import * as ns`). */
export function aliasesOfModule(file: LoadedFile, def: Def): Set<string> {
  return new Set(
    aliasesOfFile(file).filter((bound) => modulePoints(file, bound.module, def))
      .map((bound) => bound.alias),
  );
}

/**
 * Whether `file` imports the Java member `def` statically, by name or with its class's `*`, so
 * that its bare name there is `def` (unless a class of the file has a member of that name).
 */
export function staticallyImported(file: LoadedFile, def: Def): boolean {
  if (file.language !== "java" || !def.parent) return false;
  const owner = def.parent.split(".").at(-1);
  return file.imports.some((decl) => {
    const match = JAVA_STATIC.exec(decl.text);
    if (!match) return false;
    const path = match[1].replace(/\s+/g, "");
    return path.split(".").at(-1) === owner && (match[2] === "*" || match[2] === def.name);
  });
}
