/**
 * What `llm-symbols` extracts from one file and stores in its index: the definitions, the uses
 * of names (calls and other references) and the imports. Extraction (`extract.ts`) produces
 * these from a tree-sitter tree; the index (`store.ts`) keeps them per file and resolves uses to
 * definitions when answering. The shapes here are internal to the tool: what it prints is the
 * contract's (`schema/symbols.ts`).
 *
 * Positions are UTF-8 byte offsets of the file with their 1-based lines and 0-based byte
 * columns, as in the contract's spans (which add the file's path and a `span_id`).
 *
 * @module
 */
import type { Span } from "../../schema/span_build.ts";
import type { ChunkTexts } from "./extract_chunks.ts";

/** A half-open byte range of a file with its positions: a contract span without path and id. */
export type Extent = Omit<Span, "file_path" | "span_id">;

/** One definition. */
export interface SymbolFact {
  /** Its name as written, e.g. `parse`. */
  name: string;
  /**
   * Its name qualified by its enclosing symbols, joined with the language's separator (`::`
   * for Rust and C++, `.` elsewhere), e.g. `Parser::parse`, `mod.Class.method`; the name itself
   * at file scope.
   */
  qualified_name: string;
  /** Normalised kind, one of `SYMBOL_KINDS` (`schema/ast_search.ts`). */
  kind: string;
  /** The whole definition. */
  extent: Extent;
  /** The name inside it. */
  name_extent: Extent;
  /** Qualified name of the enclosing symbol, when there is one. */
  parent?: string;
  /** The definition's first line, trimmed, cut at 200 bytes: what a repository map shows. */
  signature: string;
}

/** One use of a name: a call site, or any other reference to a symbol. */
export interface ReferenceFact {
  /** The name used (the called function's or method's own name, without receiver or scope). */
  name: string;
  /** `call` for a call site (the name is what is called), `reference` for any other use. */
  kind: "call" | "reference";
  /** The name's own extent. */
  extent: Extent;
  /**
   * Qualified name of the innermost enclosing definition of a kind that can call (function,
   * method, or a class/module body's initialiser); absent at file scope.
   */
  enclosing?: string;
  /** What qualifies the name, as written: `obj` of `obj.f()`, `Foo` of `Foo::f()`. */
  qualifier?: string;
}

/** One import, include or use declaration. */
export interface ImportFact {
  /**
   * What is imported, as written without quotes: `stdio.h`, `./util.js`, `os.path`,
   * `crate::store::Index`, `java.util.List`.
   */
  target: string;
  /** `include` for a C/C++ `#include`, `import` for every other form. */
  kind: "include" | "import";
  /** The names it brings in when it lists them (`from m import a, b`, `import { a } from`). */
  names?: string[];
  /** The whole declaration. */
  extent: Extent;
}

/** Where a file too large for the node budget was cut (`extract_budget.ts`). */
export interface FactsCut {
  /** The node budget its tree exceeded. */
  budget: number;
  /** 1-based line where the part without facts starts (at its start, or within it). */
  line: number;
}

/** Everything extracted from one file. */
export interface FileFacts {
  /** Registry name of the language (`grammars/languages.ts`). */
  language: string;
  /** Definitions, in source order. */
  symbols: SymbolFact[];
  /** Calls and references, in source order. */
  references: ReferenceFact[];
  /** Imports and includes, in source order. */
  imports: ImportFact[];
  /** How many ERROR or MISSING nodes the tree has (0 for a clean parse). */
  parse_errors: number;
  /** Present when the facts are those of the file's first part only (its tree was too large). */
  cut?: FactsCut;
  /**
   * The terms of its text chunks (one per definition, in the order of `symbols`, and the
   * module-level code), when asked for (`ExtractOptions.chunks`).
   */
  chunks?: ChunkTexts;
}
