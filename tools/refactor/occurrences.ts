/**
 * Where a definition's name occurs as that definition, through the tree and the code graph:
 * the files that may use the name are those the index lists, each parsed again; a use is the
 * symbol's when it resolves to it (`core/symbol_index/resolve.ts`: own scope, then imports, then
 * one definition in the whole index), with the receiver or scope written before the name
 * taken into account. Strings and comments hold no uses; a function's parameters and locals
 * of the same name shadow it (the extraction leaves such uses out); another definition of the
 * same name in another scope keeps its uses. A use that cannot be told apart (a member of a
 * receiver of unknown type while several members share the name) is reported as unclear,
 * never guessed. In C and C++ the tokens of `#define` bodies are read too (`macros.ts`).
 *
 * @module
 */
import { basename, dirname } from "../../core/path_syntax.ts";
import { decodeText } from "../../core/utf8.ts";
import type { LeftOccurrence } from "../../schema/refactor.ts";
import { Resolver } from "../../core/symbol_index/resolve.ts";
import { inRegions, macroNames, macroOnlyFiles, type MacroPlace } from "./macros.ts";
import { aliasesOfModule, boundModules, staticallyImported } from "./module_names.ts";
import { shorthandsNamed } from "./tree_names.ts";
import type { Def, FactView, LoadedFile, Use } from "./view.ts";

/** Kinds that belong to a class, reached through a receiver. */
const MEMBER_KINDS = new Set(["method", "field", "constructor"]);

/** Languages where a class's code names its members without a receiver. */
const IMPLICIT_MEMBERS = new Set(["java", "cpp", "csharp", "kotlin", "scala", "swift", "dart"]);

/** Receivers that denote the enclosing class's own instance or type. */
const SELF_RECEIVERS = new Set(["self", "this", "Self", "cls", "super"]);

/** Languages whose files link into one namespace (C and C++ headers and sources). */
const LINKED = new Set(["c", "cpp"]);

/** The families of languages that see each other's definitions. */
function family(language: string): string {
  if (language === "tsx" || language === "javascript") return "typescript";
  if (language === "c") return "cpp";
  return language;
}

/** Qualified-name separator of a language. */
export function separatorOf(language: string): string {
  return language === "rust" || language === "cpp" ? "::" : ".";
}

/** Whether `def` is a member of a class (reached through a receiver). */
export function isMember(def: Def): boolean {
  return MEMBER_KINDS.has(def.kind);
}

/** Whether a C/C++ definition is `static` (file-local). */
function isStatic(def: Def): boolean {
  return /^static\b/.test(def.signature);
}

/** One place to edit: the symbol's name at `[start, end)` of `file`. */
export interface Occurrence {
  /** The file. */
  file: LoadedFile;
  /** Start byte. */
  start: number;
  /** End byte. */
  end: number;
  /** The definition's own name, or a use. */
  kind: "definition" | "reference";
  /** 1-based line. */
  line: number;
  /** 0-based byte column. */
  column: number;
  /** An object shorthand `{ name }`, which a rename must spell `{ name: renamed }`. */
  shorthand?: boolean;
}

/** Every place the name occurs as the symbol, those left alone, and those unclear. */
export interface OccurrenceSet {
  /** The symbol's definitions (the target and its declarations elsewhere). */
  group: Def[];
  /** Its definitions' names and its uses. */
  occurrences: Occurrence[];
  /** Same-named places that are another symbol's. */
  left: LeftOccurrence[];
  /** Uses that cannot be told apart from another symbol's. */
  unclear: Occurrence[];
  /** The files loaded (every file that may hold the name). */
  files: LoadedFile[];
}

/** How the text before a use qualifies it. */
type Receiver =
  | { kind: "none" }
  | { kind: "self" }
  | { kind: "module" }
  | { kind: "named"; name: string; scope: boolean }
  | { kind: "constructed"; name: string }
  | { kind: "expression" };

/** Rust's paths relative to the current module: `self::f`, `super::f`. */
const RUST_MODULE_PATHS = new Set(["self", "super"]);

const IDENTIFIER_BYTE = /[A-Za-z0-9_$]/;

/** The identifier ending at byte `end` of `bytes` (ASCII identifiers), or "". */
function identifierBefore(bytes: Uint8Array, end: number): string {
  let start = end;
  while (start > 0 && IDENTIFIER_BYTE.test(String.fromCharCode(bytes[start - 1]))) start--;
  return decodeText(bytes.subarray(start, end));
}

/** The start of the parenthesised group that ends just before `end` (`(…)`), or -1. */
function groupStart(bytes: Uint8Array, end: number): number {
  let depth = 0;
  for (let at = end - 1; at >= 0; at--) {
    if (bytes[at] === 0x29) depth++;
    else if (bytes[at] === 0x28 && --depth === 0) return at;
  }
  return -1;
}

/** `new T(…)` (or `T(…)` with `T` a class: Python) ending at `end`: the type's name, or "". */
function constructedType(bytes: Uint8Array, end: number, isClass: (name: string) => boolean) {
  const open = groupStart(bytes, end);
  if (open < 0) return "";
  const name = identifierBefore(bytes, open);
  if (name === "") return "";
  const before = decodeText(
    bytes.subarray(Math.max(0, open - name.length - 4), open - name.length),
  );
  return before === "new " || isClass(name) ? name : "";
}

/** The receiver or scope written before a use: `x.` `x->` `x::` `new T().`, or none. */
function receiverOf(use: Use, file: LoadedFile, isClass: (name: string) => boolean): Receiver {
  const bytes = file.bytes;
  let at = use.byte_start;
  while (at > 0 && (bytes[at - 1] === 0x20 || bytes[at - 1] === 0x09)) at--;
  let accessor = 0;
  if (bytes[at - 1] === 0x2e) accessor = 1; // .
  else if (bytes[at - 1] === 0x3e && bytes[at - 2] === 0x2d) accessor = 2; // ->
  else if (bytes[at - 1] === 0x3a && bytes[at - 2] === 0x3a) accessor = 2; // ::
  if (accessor === 0) return { kind: "none" };
  const scope = bytes[at - 1] === 0x3a;
  let end = at - accessor;
  while (end > 0 && (bytes[end - 1] === 0x20 || bytes[end - 1] === 0x09)) end--;
  if (bytes[end - 1] === 0x29) {
    const type = constructedType(bytes, end, isClass);
    return type === "" ? { kind: "expression" } : { kind: "constructed", name: type };
  }
  const name = identifierBefore(bytes, end);
  if (name === "") return { kind: "expression" };
  if (scope && file.language === "rust" && RUST_MODULE_PATHS.has(name)) return { kind: "module" };
  if (SELF_RECEIVERS.has(name)) return { kind: "self" };
  // In `a.b.name` (a path, or a chain of members) the part right before the name qualifies it.
  return { kind: "named", name, scope };
}

/**
 * Names `def` is reached through: its class's (or namespace's) last part for a member or a
 * nested definition; for a top-level one also its module (file stem, package folder).
 */
function qualifiersOf(def: Def): Set<string> {
  const names = new Set<string>();
  if (def.parent) {
    const parts = def.parent.split(separatorOf(def.language));
    names.add(parts[parts.length - 1]);
  }
  if (isMember(def)) return names;
  const stem = basename(def.path).replace(/\.[^.]+$/, "");
  names.add(
    stem === "mod" || stem === "__init__" || stem === "index" ? basename(dirname(def.path)) : stem,
  );
  if (def.language === "go") names.add(basename(dirname(def.path)));
  if (def.language === "rust") names.add("crate");
  return names;
}

/** Whether the use's enclosing definition lies inside the class `parent`. */
function inside(use: Use, parent: string | null, separator: string): boolean {
  if (!parent || !use.enclosing) return false;
  return use.enclosing === parent || use.enclosing.startsWith(parent + separator);
}

function lineAndColumn(file: LoadedFile, start: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let at = 0; at < start; at++) {
    if (file.bytes[at] === 0x0a) {
      line++;
      lineStart = at + 1;
    }
  }
  return { line, column: start - lineStart };
}

/** An occurrence at bytes `[start, end)` of `file`. */
export function occurrenceAt(
  file: LoadedFile,
  start: number,
  end: number,
  kind: Occurrence["kind"],
): Occurrence {
  return { file, start, end, kind, ...lineAndColumn(file, start) };
}

function leftAt(occurrence: Occurrence, reason: LeftOccurrence["reason"]): LeftOccurrence {
  return {
    file_path: occurrence.file.path,
    start_line: occurrence.line,
    start_col: occurrence.column,
    byte_start: occurrence.start,
    byte_end: occurrence.end,
    reason,
  };
}

/**
 * The definitions that are one symbol with `target`: itself, its other definitions of the
 * same qualified name and kind in its file and, in C and C++ (one link namespace), those of
 * other files unless either is `static`.
 */
export function groupOf(view: FactView, target: Def): Def[] {
  return view.definitionsNamed(target.name).filter((def) =>
    def.symbol_id === target.symbol_id ||
    (def.qualified_name === target.qualified_name && def.kind === target.kind &&
      family(def.language) === family(target.language) &&
      (def.path === target.path ||
        (LINKED.has(target.language) && !isStatic(def) && !isStatic(target))))
  );
}

/** Classifies the uses of the target's name; the files that may hold it are loaded first. */
export class OccurrenceFinder {
  readonly #view: FactView;
  readonly #target: Def;
  #group: Def[] = [];
  #ids = new Set<string>();
  #plain?: Resolver<Def>;
  #withMembers?: Resolver<Def>;

  /** A finder of `target`'s occurrences in `view`. */
  constructor(view: FactView, target: Def) {
    this.#view = view;
    this.#target = target;
  }

  /** Loads every file that may hold the name, then sorts each occurrence. */
  async find(): Promise<OccurrenceSet> {
    const files: LoadedFile[] = [];
    const paths = this.#view.filesMentioning(this.#target.name);
    if (LINKED.has(this.#target.language)) {
      paths.push(...await macroOnlyFiles(this.#view, this.#target.name, new Set(paths)));
    }
    for (const path of paths) {
      const file = await this.#view.loadFor(path, this.#target.name);
      if (file && family(file.language) === family(this.#target.language)) files.push(file);
    }
    this.#group = groupOf(this.#view, this.#target);
    this.#ids = new Set(this.#group.map((def) => def.symbol_id));
    const lookup = (all: boolean) => (name: string) =>
      this.#view.definitionsNamed(name).filter((def) => all || !isMember(def));
    this.#plain = new Resolver<Def>(this.#view.store, lookup(false));
    this.#withMembers = new Resolver<Def>(this.#view.store, lookup(true));
    const set: OccurrenceSet = {
      group: this.#group,
      occurrences: [],
      left: [],
      unclear: [],
      files,
    };
    for (const file of files) {
      const macros = await macroNames(file, this.#target.name);
      this.#sortFile(file, set, macros?.regions ?? []);
      if (macros) this.#sortMacroPlaces(file, set, macros.places);
      await this.#sortShorthands(file, set);
    }
    return set;
  }

  /** The facts' definitions and uses of the name; those in `regions` are the macros' to judge. */
  #sortFile(file: LoadedFile, set: OccurrenceSet, regions: [number, number][]): void {
    const name = this.#target.name;
    for (const def of file.defs) {
      if (def.name !== name || def.name_start === undefined) continue;
      const occurrence = occurrenceAt(file, def.name_start, def.name_end!, "definition");
      if (this.#ids.has(def.symbol_id)) set.occurrences.push(occurrence);
      else set.left.push(leftAt(occurrence, "definition_of_other"));
    }
    for (const use of file.uses) {
      if (use.name !== name) continue;
      if (inRegions(use.byte_start, use.byte_end, regions)) continue;
      const occurrence = occurrenceAt(file, use.byte_start, use.byte_end, "reference");
      const verdict = this.#verdict(use, file);
      if (verdict === "ours") set.occurrences.push(occurrence);
      else if (verdict === "unclear") set.unclear.push(occurrence);
      else set.left.push(leftAt(occurrence, verdict));
    }
  }

  /**
   * The name's tokens in `#define`s: a body's token is judged as a use written there; a macro's
   * parameter (and its use in the body) is another symbol; a pasted or stringified token is
   * unclear (renaming it would change what the macro builds).
   */
  #sortMacroPlaces(file: LoadedFile, set: OccurrenceSet, places: MacroPlace[]): void {
    for (const place of places) {
      const occurrence = occurrenceAt(file, place.start, place.end, "reference");
      if (place.role === "parameter") {
        set.left.push(leftAt(occurrence, "other_symbol"));
        continue;
      }
      const verdict = place.role === "pasted"
        ? "unclear"
        : this.#verdict(this.#useAt(file, occurrence), file);
      if (verdict === "ours") set.occurrences.push(occurrence);
      else if (verdict === "unclear") set.unclear.push(occurrence);
      else set.left.push(leftAt(occurrence, verdict));
    }
  }

  /** A use of the name at `occurrence`, at file scope (as a macro body or a shorthand is read). */
  #useAt(file: LoadedFile, occurrence: Occurrence): Use {
    return {
      file_id: file.fileId,
      path: file.path,
      language: file.language,
      byte_start: occurrence.start,
      byte_end: occurrence.end,
      start_line: occurrence.line,
      start_col: occurrence.column,
      end_line: occurrence.line,
      end_col: occurrence.column + occurrence.end - occurrence.start,
      name: this.#target.name,
      is_call: 0,
      enclosing: null,
      qualifier: null,
    };
  }

  /**
   * `{ name }` in JavaScript or TypeScript, which the facts do not list: at file scope it uses
   * what the name resolves to there; inside a function a local could shadow it, so it is unclear.
   */
  async #sortShorthands(file: LoadedFile, set: OccurrenceSet): Promise<void> {
    const name = this.#target.name;
    for (const leaf of await shorthandsNamed(file, name)) {
      const occurrence = {
        ...occurrenceAt(file, leaf.start, leaf.end, "reference"),
        shorthand: true,
      };
      if (leaf.inFunction) {
        set.unclear.push(occurrence);
        continue;
      }
      const verdict = this.#plainVerdict(this.#useAt(file, occurrence));
      if (verdict === "ours") set.occurrences.push(occurrence);
      else if (verdict === "unclear") set.unclear.push(occurrence);
      else set.left.push(leftAt(occurrence, verdict));
    }
  }

  #verdict(use: Use, file: LoadedFile): "ours" | "unclear" | LeftOccurrence["reason"] {
    const target = this.#target;
    const receiver = receiverOf(use, file, (name) => this.#isClass(name));
    const member = isMember(target);
    const separator = separatorOf(target.language);
    switch (receiver.kind) {
      case "self":
        return member && inside(use, target.parent, separator) ? "ours" : "member_of_other";
      case "constructed":
        return member && qualifiersOf(target).has(receiver.name) ? "ours" : "member_of_other";
      case "module":
        // `self::f`, `super::f`: a module's item, found as a bare name is from there.
        return member ? "member_of_other" : this.#plainVerdict(use);
      case "named":
        if (qualifiersOf(target).has(receiver.name)) return "ours";
        // `ns.f` where the file binds `ns` to the target's module (`import * as ns`, `as u`).
        if (!member && aliasesOfModule(file, target).has(receiver.name)) return "ours";
        // `other::name` names another scope's; `module.name` and `Class.name` are no instance.
        if (
          !member || receiver.scope || this.#isModule(file, receiver.name) ||
          this.#isClass(receiver.name)
        ) {
          return "member_of_other";
        }
        return this.#memberVerdict();
      case "expression":
        return member ? this.#memberVerdict() : "member_of_other";
      case "none":
        // Java's `import static pkg.Util.f;` (or `Util.*`) lets a class use `f` bare.
        if (member && staticallyImported(file, target) && !this.#inClassOfMember(use)) {
          return "ours";
        }
        return this.#plainVerdict(use);
    }
  }

  /** Whether `name` is a class of the index (so `name(…)` constructs one). */
  #isClass(name: string): boolean {
    return this.#view.definitionsNamed(name).some((def) =>
      def.kind === "class" && family(def.language) === family(this.#target.language)
    );
  }

  /** Whether `name` is a module `file` imports (`import util` then `util.f()`): no instance. */
  #isModule(file: LoadedFile, name: string): boolean {
    if (boundModules(file).has(name)) return true;
    return file.imports.some((row) => {
      const parts = row.target.split(/[./:\\]+/).filter((part) => part !== "");
      return parts[parts.length - 1] === name || parts[0] === name;
    });
  }

  /**
   * A member reached through a receiver of unknown type (`x.name`): ours only when nothing else
   * of the language has the name (a function of that name can be stored in any object).
   */
  #memberVerdict(): "ours" | "unclear" {
    const others = this.#view.definitionsNamed(this.#target.name).filter((def) =>
      !this.#ids.has(def.symbol_id) && family(def.language) === family(this.#target.language)
    );
    return others.length === 0 ? "ours" : "unclear";
  }

  /**
   * Whether `use` sits in a class that has a member of its name, in a language where such a
   * use names the member without a receiver (`f()` in a Java method calls `this.f()`).
   */
  #inClassOfMember(use: Use): boolean {
    if (!IMPLICIT_MEMBERS.has(use.language) || use.enclosing === null) return false;
    const separator = separatorOf(use.language);
    return this.#view.definitionsNamed(use.name).some((def) =>
      isMember(def) && inside(use, def.parent, separator)
    );
  }

  #plainVerdict(use: Use): "ours" | "unclear" | "other_symbol" {
    const resolver = this.#inClassOfMember(use) ? this.#withMembers! : this.#plain!;
    // A C/C++ `static` definition is visible in its own file only.
    const definitions = resolver.resolve(use).definitions.filter((def) =>
      !LINKED.has(def.language) || def.file_id === use.file_id || !isStatic(def)
    );
    const ours = definitions.filter((def) => this.#ids.has(def.symbol_id));
    if (ours.length === 0) return "other_symbol";
    return ours.length === definitions.length ? "ours" : "unclear";
  }
}
