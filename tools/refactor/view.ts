/**
 * The code as an operation sees it: the symbol index for the files it does not touch, and the
 * files it reads or has already edited in memory (a plan's earlier steps), each parsed again so
 * that definitions and uses carry exact byte positions of the text the next edit applies to.
 *
 * @module
 */
import { basename } from "../../core/path_syntax.ts";
import { languageForFile } from "../../grammars/languages.ts";
import { symbolId } from "../../schema/ids.ts";
import { checksumOfAsync } from "../../core/transaction/fs.ts";
import { type DecodedFile, decodeFile, decodeText } from "../../core/utf8.ts";
import type { Workspace } from "../../core/transaction/workspace.ts";
import { extractFacts } from "../../core/symbol_index/extract.ts";
import type { FileFacts } from "../../core/symbol_index/facts.ts";
import type { IndexStore, RefRow, SymbolRow } from "../../core/symbol_index/store.ts";

/** A definition, with the extent of its name when its file was parsed in memory. */
export interface Def extends SymbolRow {
  /** Start byte of the name (files parsed in memory only). */
  name_start?: number;
  /** End byte of the name. */
  name_end?: number;
}

/** A use of a name, with the receiver or scope written before it. */
export type Use = RefRow;

/** An import declaration of a file: what it imports, and its text as written. */
export interface ImportDecl {
  /** Target as written (no quotes): `./m.mjs`, `pkg.Util.helper`, `crate::util`. */
  target: string;
  /** The whole declaration's text (`import * as ns from "./m.mjs"`, `u "example.com/util"`). */
  text: string;
}

/**
 * A file read (from the overlay or the disk) and parsed: its bytes as the operation sees them,
 * and their decoding, through which the parser's positions map back to those bytes.
 */
export interface LoadedFile extends DecodedFile {
  /** Root-relative path. */
  path: string;
  /** Absolute real path. */
  absPath: string;
  /** Registry language. */
  language: string;
  /** Row id in the index (negative for a file the index lacks). */
  fileId: number;
  /** Definitions. */
  defs: Def[];
  /** Uses. */
  uses: Use[];
  /** Imports, in source order. */
  imports: ImportDecl[];
  /** ERROR/MISSING nodes of its tree. */
  parseErrors: number;
}

/** The import declarations of `file` at the extents of `rows`, with their text. */
function importsOf(
  file: DecodedFile,
  rows: readonly { target: string; byte_start: number; byte_end: number }[],
): ImportDecl[] {
  return rows.map((row) => ({
    target: row.target,
    text: decodeText(file.bytes.subarray(row.byte_start, row.byte_end)),
  }));
}

/** The rows of a file's facts, shaped as the index's rows. */
function rowsOf(
  path: string,
  fileId: number,
  facts: FileFacts,
): { defs: Def[]; uses: Use[] } {
  const base = { file_id: fileId, path, language: facts.language };
  const defs = facts.symbols.map((symbol): Def => ({
    ...base,
    ...symbol.extent,
    symbol_id: symbolId({
      language: facts.language,
      file_path: path,
      qualified_name: symbol.qualified_name,
      kind: symbol.kind,
    }),
    name: symbol.name,
    qualified_name: symbol.qualified_name,
    kind: symbol.kind,
    parent: symbol.parent ?? null,
    signature: symbol.signature,
    name_start: symbol.name_extent.byte_start,
    name_end: symbol.name_extent.byte_end,
  }));
  const uses = facts.references.map((reference): Use => ({
    ...base,
    ...reference.extent,
    name: reference.name,
    is_call: reference.kind === "call" ? 1 : 0,
    enclosing: reference.enclosing ?? null,
    qualifier: reference.qualifier ?? null,
  }));
  return { defs, uses };
}

/**
 * The index overlaid with files parsed in memory. Load every file an answer depends on
 * before asking {@linkcode FactView.definitionsNamed}: a loaded file's own facts replace its
 * stored ones.
 */
export class FactView {
  readonly store: IndexStore;
  readonly workspace: Workspace;
  readonly #overlay: Map<string, Uint8Array>;
  readonly #loaded = new Map<string, LoadedFile>();
  readonly #light = new Map<string, LoadedFile>();
  readonly #refsByName = new Map<string, Use[]>();
  readonly #diskParseErrors = new Map<string, number>();
  readonly #disk = new Map<string, Uint8Array>();
  #nextSyntheticId = -1;

  /** A view of `store` where the files of `overlay` (root-relative path → bytes) hold new text. */
  constructor(store: IndexStore, workspace: Workspace, overlay: Map<string, Uint8Array>) {
    this.store = store;
    this.workspace = workspace;
    this.#overlay = overlay;
  }

  /** The bytes of `path` as the operation sees them now. */
  async bytesOf(path: string): Promise<Uint8Array> {
    return this.#overlay.get(path) ?? await this.diskBytesOf(path);
  }

  /**
   * The bytes of `path` on disk, read once per view: the edits, the index check, the backup and
   * the checksum the commit verifies are all of the same bytes (and hashed once).
   */
  async diskBytesOf(path: string): Promise<Uint8Array> {
    let bytes = this.#disk.get(path);
    if (!bytes) {
      bytes = await Deno.readFile(this.workspace.resolve(path).path);
      this.#disk.set(path, bytes);
    }
    return bytes;
  }

  /** Sets the new bytes of `path` (a step's edit) and forgets its parse. */
  update(path: string, bytes: Uint8Array): void {
    this.#overlay.set(path, bytes);
    this.#loaded.delete(path);
    for (const key of [...this.#light.keys()]) {
      if (key.startsWith(`${path}\0`)) this.#light.delete(key);
    }
  }

  /**
   * `path` as far as the uses of `name` go: from the index, with no parse, when its stored
   * facts describe the bytes on disk and it defines nothing of that name (so no definition's
   * name extent, which the index does not keep, is needed); else parsed as by `load`.
   */
  async loadFor(path: string, name: string): Promise<LoadedFile | undefined> {
    const key = `${path}\0${name}`;
    const known = this.#loaded.get(path) ?? this.#light.get(key);
    if (known) return known;
    const row = this.#overlay.has(path) ? undefined : this.store.file(path);
    if (!row) return await this.load(path);
    const defs: Def[] = this.store.symbolsOfFile(row.id);
    if (defs.some((def) => def.name === name)) return await this.load(path);
    const bytes = await this.bytesOf(path);
    if (await checksumOfAsync(bytes) !== row.hash) return await this.load(path);
    let named = this.#refsByName.get(name);
    if (!named) {
      named = this.store.refsNamed(name, false);
      this.#refsByName.set(name, named);
    }
    const decoded = decodeFile(bytes);
    const file: LoadedFile = {
      path,
      absPath: this.workspace.resolve(path).path,
      language: row.language,
      fileId: row.id,
      ...decoded,
      defs,
      uses: named.filter((use) => use.file_id === row.id),
      // The stored extents are of these bytes (their checksum is the index's).
      imports: importsOf(decoded, this.store.importsOfFile(row.id)),
      parseErrors: row.parse_errors,
    };
    this.#light.set(key, file);
    this.#diskParseErrors.set(path, row.parse_errors);
    return file;
  }

  /** The files edited so far, by path. */
  get overlay(): ReadonlyMap<string, Uint8Array> {
    return this.#overlay;
  }

  /** Parses `path` (once per content), or `undefined` for a file of no known language. */
  async load(path: string): Promise<LoadedFile | undefined> {
    const known = this.#loaded.get(path);
    if (known) return known;
    const language = languageForFile(basename(path))?.name;
    if (language === undefined) return undefined;
    const absPath = this.workspace.resolve(path).path;
    const source = decodeFile(await this.bytesOf(path));
    const facts = await extractFacts(language, source);
    const fileId = this.store.file(path)?.id ?? this.#nextSyntheticId--;
    const rows = rowsOf(path, fileId, facts);
    const file: LoadedFile = {
      path,
      absPath,
      language,
      fileId,
      ...source,
      ...rows,
      imports: importsOf(
        source,
        facts.imports.map((fact) => ({ target: fact.target, ...fact.extent })),
      ),
      parseErrors: facts.parse_errors,
    };
    this.#loaded.set(path, file);
    if (!this.#overlay.has(path)) this.#diskParseErrors.set(path, facts.parse_errors);
    return file;
  }

  /** Syntax errors the file's bytes on disk parse with, when the view parsed them. */
  parseErrorsOnDisk(path: string): number | undefined {
    return this.#diskParseErrors.get(path);
  }

  /** The files loaded so far. */
  loadedFiles(): LoadedFile[] {
    return [...this.#loaded.values()];
  }

  /** Definitions whose own name is `name`: stored ones of files not loaded, and loaded ones. */
  definitionsNamed(name: string): Def[] {
    const stored = this.store.symbolsNamed(name).filter((row) =>
      row.name === name && !this.#loaded.has(row.path)
    );
    const loaded = [...this.#loaded.values()].flatMap((file) =>
      file.defs.filter((def) => def.name === name)
    );
    return [...stored, ...loaded];
  }

  /** Files that may define or use `name`: the index's, and every file edited in memory. */
  filesMentioning(name: string): string[] {
    const paths = new Set<string>();
    for (const row of this.store.symbolsNamed(name)) paths.add(row.path);
    for (const row of this.store.refsNamed(name, false)) paths.add(row.path);
    for (const path of this.#overlay.keys()) paths.add(path);
    return [...paths].sort();
  }
}
