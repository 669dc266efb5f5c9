/**
 * Imports and includes of a tree, from a language's import query (`extract_queries.ts`):
 * `@import` (or `@include` for a C/C++ `#include`) is the whole declaration, `@target` what
 * it imports, `@imported` a name it lists. Several patterns may match one declaration (one for its
 * target, one per listed name): they are merged, and a declaration with several targets
 * (`import os, sys`) gives one import per target, each with the declaration's names.
 *
 * @module
 */
import type { Node, QueryMatch } from "web-tree-sitter";
import type { ImportFact } from "./facts.ts";
import type { ExtentMapper } from "./extract_positions.ts";

/** One declaration while its matches are merged. */
interface Declaration {
  start: number;
  end: number;
  include: boolean;
  targets: string[];
  names: string[];
}

/** Quotes and brackets around a target (`"x.h"`, `<x.h>`, `'./m.js'`). */
const ENCLOSING_QUOTES = /^["'`<]+|["'`>]+$/g;

/** `target` without the quotes or angle brackets around it. */
function unquoted(target: string): string {
  return target.trim().replace(ENCLOSING_QUOTES, "");
}

/**
 * The imports of a facts query's `matches`, in document order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { extractFacts } from "./extract.ts";
 * const facts = await extractFacts("python", "from os import path, sep\n");
 * assert.deepEqual(facts.imports.map((i) => `${i.target}: ${i.names}`), ["os: path,sep"]);
 * ```
 */
export function collectImports(matches: QueryMatch[], mapper: ExtentMapper): ImportFact[] {
  const declarations = new Map<number, Declaration>();
  for (const match of matches) {
    let declaration: Node | undefined;
    let include = false;
    let target: string | undefined;
    const names: string[] = [];
    for (const capture of match.captures) {
      switch (capture.name) {
        case "import":
        case "include":
          declaration = capture.node;
          include = capture.name === "include";
          break;
        case "target":
          target = unquoted(capture.node.text);
          break;
        case "imported":
          names.push(capture.node.text);
          break;
      }
    }
    if (!declaration) continue;
    let merged = declarations.get(declaration.id);
    if (!merged) {
      merged = {
        start: declaration.startIndex,
        end: declaration.endIndex,
        include,
        targets: [],
        names: [],
      };
      declarations.set(declaration.id, merged);
    }
    if (target && !merged.targets.includes(target)) merged.targets.push(target);
    for (const name of names) if (!merged.names.includes(name)) merged.names.push(name);
  }
  return factsOf([...declarations.values()], mapper);
}

/** One fact per target of each declaration, in document order. */
function factsOf(declarations: Declaration[], mapper: ExtentMapper): ImportFact[] {
  declarations.sort((a, b) => a.start - b.start);
  const facts: ImportFact[] = [];
  for (const declaration of declarations) {
    const extent = mapper.extent(declaration.start, declaration.end);
    for (const target of declaration.targets) {
      const fact: ImportFact = {
        target,
        kind: declaration.include ? "include" : "import",
        extent,
      };
      if (declaration.names.length) fact.names = [...declaration.names];
      facts.push(fact);
    }
  }
  return facts;
}
