/**
 * The relationship flags that `llm-search` and `llm-ast-search` share (contract §5:
 * `--with-callers`, `--with-callees`, `--with-imports`, `--with-exports`,
 * `--with-all-relationships`/`-R`), and the lazy door to the index that fills them: a run without
 * them loads no SQLite and reads no index.
 *
 * @module
 */
import { z } from "zod";
import { field } from "../../schema/fields.ts";
import type { RelationshipKinds, SpanRelations } from "./relationships.ts";

const flag = (what: string) =>
  z.boolean().default(false).describe(`Add ${what} from the symbol index (relationships)`);

/** zod shape of the relationship flags, to spread into a tool's input schema. */
export const relationshipInputShape: {
  with_callers: z.ZodDefault<z.ZodBoolean>;
  with_callees: z.ZodDefault<z.ZodBoolean>;
  with_imports: z.ZodDefault<z.ZodBoolean>;
  with_exports: z.ZodDefault<z.ZodBoolean>;
  with_all_relationships: z.ZodDefault<z.ZodBoolean>;
} = {
  with_callers: flag("the callers of each result's enclosing symbol"),
  with_callees: flag("the calls each result's enclosing symbol makes"),
  with_imports: flag("the imports of each result's file"),
  with_exports: flag("the top-level definitions of each result's file (what other files name)"),
  with_all_relationships: field(
    z.boolean().default(false).describe(
      "Add callers, callees, imports and exports from the symbol index",
    ),
    { short: "R" },
  ),
};

/** The relationship flags as a tool's parsed input holds them. */
export type RelationshipInput = { [K in keyof typeof relationshipInputShape]: boolean };

/**
 * The relationships asked for, or `undefined` when none is (the plain path).
 *
 * @example
 * ```ts
 * import { relationshipKinds } from "./relationship_input.ts";
 * const none = { with_callers: false, with_callees: false, with_imports: false, with_exports: false };
 * relationshipKinds({ ...none, with_all_relationships: false }); // undefined
 * relationshipKinds({ ...none, with_callers: true, with_all_relationships: false })?.callers; // true
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

/**
 * Opens the index of `root` to fill the relationships of `tool`'s results, loading the index
 * modules only now; `undefined` when no relationship is asked for.
 *
 * @example
 * ```ts
 * import { openRelations } from "./relationship_input.ts";
 * await openRelations("llm-search", Deno.cwd(), undefined); // undefined
 * ```
 */
export async function openRelations(
  tool: string,
  root: string,
  kinds: RelationshipKinds | undefined,
): Promise<SpanRelations | undefined> {
  if (!kinds) return undefined;
  const { SpanRelations } = await import("./relationships.ts");
  return SpanRelations.open(tool, root, kinds);
}
