/**
 * Calls and other references of a tree, from the matches of a language's facts query
 * (`extract_queries.ts`): `@call` is a called name with its `@qualifier` (receiver or scope)
 * when the pattern has one, `@reference` any other use of a name, `@local` a name declared
 * inside a function (a parameter, a local variable), `@ignore` a name that is no use (a keyword
 * argument's), `@member` a name read through another (`ns.f`, with `@qualifier`), which is a use
 * only when that other is a module the file binds (`@namespace`, or the package of a Go
 * `@package` path): `obj.field` names no symbol of the index, `ns.f` and `pkg.F` do.
 *
 * Noise left out: the name nodes of the definitions themselves; a name captured both as a call
 * and as a reference counts once, as the call; and a reference (not a call) to a name that its
 * enclosing function declares locally, since such a use can only name that local.
 *
 * @module
 */
import type { Node, QueryMatch } from "web-tree-sitter";
import type { Definition } from "../../grammars/definitions.ts";
import type { ReferenceFact } from "./facts.ts";
import type { Enclosures, ExtentMapper } from "./extract_positions.ts";

/** A use found by the query, before it gets its extent and enclosing definition. */
interface Use {
  start: number;
  end: number;
  name: string;
  call: boolean;
  qualifier?: string;
  /** Read through its qualifier (`ns.f`): a use only when that names a module. */
  member?: boolean;
}

/** Longest qualifier kept, in UTF-16 code units (a receiver can be a long expression). */
const QUALIFIER_UNITS = 120;

/** What one query pass found: uses, names declared locally, names that are no use, modules. */
interface Found {
  uses: Use[];
  locals: { start: number; name: string }[];
  ignored: number[];
  /** Names the file binds to modules. */
  modules: Set<string>;
}

/** The package name a Go import path gives (its last part, less a major version suffix). */
function packageName(path: string): string {
  const parts = path.replace(/^["`]|["`]$/g, "").split("/");
  let last = parts.pop() ?? "";
  if (/^v\d+$/.test(last) && parts.length > 0) last = parts.pop()!;
  return last.replace(/\.v\d+$/, "");
}

/** A use of the name `node` spans, read from the parsed `text` (one call into the parser). */
function useOf(text: string, node: Node, call: boolean): Use {
  const start = node.startIndex;
  const end = node.endIndex;
  return { start, end, name: text.slice(start, end), call };
}

function usesOf(text: string, matches: QueryMatch[]): Found {
  const uses: Use[] = [];
  const locals: { start: number; name: string }[] = [];
  const ignored: number[] = [];
  const modules = new Set<string>();
  for (const match of matches) {
    let called: Node | undefined;
    let member: Node | undefined;
    let qualifier: Node | undefined;
    for (const capture of match.captures) {
      switch (capture.name) {
        case "call":
          called = capture.node;
          break;
        case "member":
          member = capture.node;
          break;
        case "namespace":
          modules.add(capture.node.text);
          break;
        case "package":
          modules.add(packageName(capture.node.text));
          break;
        case "qualifier":
          qualifier = capture.node;
          break;
        case "reference":
          uses.push(useOf(text, capture.node, false));
          break;
        case "local": {
          const { start, name } = useOf(text, capture.node, false);
          locals.push({ start, name });
          break;
        }
        case "ignore":
          ignored.push(capture.node.startIndex);
          break;
      }
    }
    const used = called ?? member;
    if (used) {
      const use = useOf(text, used, called !== undefined);
      if (qualifier) {
        const start = qualifier.startIndex;
        use.qualifier = text.slice(start, Math.min(qualifier.endIndex, start + QUALIFIER_UNITS));
      }
      if (!called) use.member = true;
      uses.push(use);
    }
  }
  return { uses, locals, ignored, modules };
}

/** Uses in document order, one per name node (a call before a reference of the same node). */
function ordered(uses: Use[]): Use[] {
  uses.sort((a, b) => a.start - b.start || Number(b.call) - Number(a.call));
  const kept: Use[] = [];
  let last = -1;
  for (const use of uses) {
    if (use.start === last) continue;
    last = use.start;
    kept.push(use);
  }
  return kept;
}

/**
 * The calls and references of a facts query's `matches` over `text`, in document order,
 * each with the qualified name of its innermost enclosing container (`enclosures`); the name
 * nodes of `definitions` are not references.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { extractFacts } from "./extract.ts";
 * const facts = await extractFacts("c", "int f(void) { return g(1); }\n");
 * assert.deepEqual(facts.references.map((r) => `${r.kind} ${r.name} in ${r.enclosing}`), ["call g in f"]);
 * ```
 */
export function collectReferences(
  text: string,
  matches: QueryMatch[],
  definitions: Definition[],
  enclosures: Enclosures,
  mapper: ExtentMapper,
): ReferenceFact[] {
  const found = usesOf(text, matches);
  const definitionNames = new Set<number>();
  for (const definition of definitions) definitionNames.add(definition.nameStart);
  const notUses = new Set<number>(found.ignored);
  for (const local of found.locals) notUses.add(local.start);
  const localsByScope = localNames(found.locals, enclosures);
  const facts: ReferenceFact[] = [];
  for (const use of ordered(found.uses)) {
    // An empty name is a token error recovery invented (a missing identifier).
    if (use.name === "" || definitionNames.has(use.start)) continue;
    if (!use.call && notUses.has(use.start)) continue;
    if (use.member && !found.modules.has(use.qualifier ?? "")) continue;
    const enclosing = enclosures.innermost(use.start, use.end)?.qualified;
    if (
      !use.call && !use.member && enclosing !== undefined &&
      localsByScope.get(enclosing)?.has(use.name)
    ) {
      continue;
    }
    const fact: ReferenceFact = {
      name: use.name,
      kind: use.call ? "call" : "reference",
      extent: mapper.extent(use.start, use.end),
    };
    if (enclosing !== undefined) fact.enclosing = enclosing;
    if (use.qualifier !== undefined) fact.qualifier = use.qualifier;
    facts.push(fact);
  }
  return facts;
}

/** The names declared locally in each container, by the container's qualified name. */
function localNames(
  locals: { start: number; name: string }[],
  enclosures: Enclosures,
): Map<string, Set<string>> {
  const byScope = new Map<string, Set<string>>();
  if (locals.length === 0) return byScope;
  locals.sort((a, b) => a.start - b.start);
  const scopes = enclosures.fork();
  for (const local of locals) {
    const scope = scopes.innermost(local.start, local.start + local.name.length)?.qualified;
    if (scope === undefined) continue;
    let names = byScope.get(scope);
    if (!names) byScope.set(scope, names = new Set());
    names.add(local.name);
  }
  return byScope;
}
