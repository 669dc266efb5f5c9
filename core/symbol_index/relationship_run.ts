/**
 * The relationship flags of `llm-search` and `llm-ast-search` at run time (their zod fields are
 * in `relationship_input.ts`): which relationships a run asks for, and the lazy door to the index
 * that fills them. Plain code without zod, which a command's fast path runs.
 *
 * @module
 */
import type { Diagnostic } from "../../schema/diagnostic.ts";
import type { RelationshipKinds } from "./relationships.ts";

/** The relationship flags as a tool's parsed input holds them. */
export interface RelationshipInput {
  /** `--with-callers`. */
  with_callers: boolean;
  /** `--with-callees`. */
  with_callees: boolean;
  /** `--with-imports`. */
  with_imports: boolean;
  /** `--with-exports`. */
  with_exports: boolean;
  /** `--with-all-relationships`, `-R`. */
  with_all_relationships: boolean;
}

/**
 * The relationships asked for, or `undefined` when none is (the plain path).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { relationshipKinds } from "./relationship_run.ts";
 * const none = { with_callers: false, with_callees: false, with_imports: false, with_exports: false };
 * assert.equal(relationshipKinds({ ...none, with_all_relationships: false }), undefined);
 * assert.equal(relationshipKinds({ ...none, with_callers: true, with_all_relationships: false })?.callers, true);
 * ```
 */
export function relationshipKinds(input: RelationshipInput): RelationshipKinds | undefined {
  const all = input.with_all_relationships;
  const kinds = {
    callers: all || input.with_callers,
    callees: all || input.with_callees,
    imports: all || input.with_imports,
    exports: all || input.with_exports,
  };
  return Object.values(kinds).some(Boolean) ? kinds : undefined;
}

/** What a search engine returns, as far as relationships care. */
export interface RelatableResult {
  /** The engine's data: its matches get relationships. */
  data: { matches?: unknown[] };
  /** The engine's diagnostics: the relationships' notes are appended. */
  diagnostics: Diagnostic[];
}

/**
 * Runs a search engine (`run`, given the `emit` to stream results through) and fills the
 * relationships `kinds` asks for in its matches, streamed or listed, from the index of `root`.
 * Without `kinds` it runs the engine as it is: the index modules are loaded only when asked.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { withRelations } from "./relationship_run.ts";
 * const result = { data: { matches: [] }, diagnostics: [] };
 * const run = () => Promise.resolve(result);
 * assert.equal(await withRelations("llm-search", Deno.cwd(), undefined, undefined, run), result); // none asked
 * ```
 */
export async function withRelations<R extends RelatableResult>(
  tool: string,
  root: string,
  kinds: RelationshipKinds | undefined,
  emit: ((item: unknown) => void) | undefined,
  run: (emit: ((item: unknown) => void) | undefined) => Promise<R>,
): Promise<R> {
  if (!kinds) return await run(emit);
  const { SpanRelations } = await import("./relationships.ts");
  const relations = SpanRelations.open(tool, root, kinds);
  try {
    const result = await run(emit && ((item) => emit(relations.annotate(item))));
    result.data.matches?.forEach((match) => relations.annotate(match));
    result.diagnostics.push(...relations.diagnostics());
    return result;
  } finally {
    relations.close();
  }
}
