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
import type { RelationshipInput } from "./relationship_run.ts";

export {
  type RelatableResult,
  type RelationshipInput,
  relationshipKinds,
  withRelations,
} from "./relationship_run.ts";

const flag = (what: string) =>
  z.boolean().default(false).describe(`Add ${what} from the symbol index (relationships)`);

/** zod shape of the relationship flags, to spread into a tool's input schema. */
export const relationshipInputShape: {
  [K in keyof RelationshipInput]: z.ZodDefault<z.ZodBoolean>;
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

/**
 * The relationship fields, by name: a tool's MCP listing leaves them out (the `symbols` tool
 * answers those questions directly), though the tool accepts them.
 */
export const RELATIONSHIP_FIELDS: readonly string[] = Object.keys(relationshipInputShape);
