/**
 * The proof of a rename: the symbol graph of the touched files before and after, the new texts
 * parsed and resolved again, with three invariants checked: every use that resolved to the
 * symbol resolves to it under its new name (reference count preserved); no use of the old
 * name is left that the rename should have reached (no orphaned reference); and every other
 * definition of those files keeps its `symbol_id`.
 *
 * @module
 */
import type { ProofGraph, ProofInvariant, RenameProof } from "../../schema/refactor.ts";
import { symbolId } from "../../schema/ids.ts";
import { OccurrenceFinder, separatorOf } from "./occurrences.ts";
import type { StepOutcome } from "./ops.ts";
import { inRegions, macroNames } from "./macros.ts";
import type { Def, FactView, LoadedFile } from "./view.ts";

/** The qualified name `def` has once its last part is `name`. */
function renamedQualified(def: Def, name: string): string {
  const separator = separatorOf(def.language);
  const cut = def.qualified_name.lastIndexOf(separator);
  return cut < 0 ? name : def.qualified_name.slice(0, cut + separator.length) + name;
}

/** Ids of `defs` but the symbol's own and those nested in it (whose qualified names it prefixes). */
function sortedIds(defs: Def[], excluded: Set<string>, qualified: string): string[] {
  const nested = (def: Def) => def.qualified_name.startsWith(qualified + separatorOf(def.language));
  return defs.filter((def) => !excluded.has(def.symbol_id) && !nested(def))
    .map((def) => def.symbol_id).sort();
}

function invariant(name: string, holds: boolean, detail: string): ProofInvariant {
  return { name, holds, detail };
}

/**
 * Uses of `name` in `files`, counted as the finder sorts them: the facts' uses outside
 * `#define`s, and the name's tokens in them (a macro's parameter included).
 */
async function oldNameUses(files: LoadedFile[], name: string): Promise<number> {
  let count = 0;
  for (const file of files) {
    const macros = await macroNames(file, name);
    const regions = macros?.regions ?? [];
    count += file.uses.filter((use) =>
      use.name === name && !inRegions(use.byte_start, use.byte_end, regions)
    ).length;
    count += macros?.places.length ?? 0;
  }
  return count;
}

/** Checks the proof of the rename `outcome` made in `view` (its new bytes in the overlay). */
export async function proveRename(view: FactView, outcome: StepOutcome): Promise<RenameProof> {
  const set = outcome.occurrences!;
  const target = outcome.target;
  const newName = outcome.edits.find((edit) => edit.kind === "definition")?.new_text ??
    target.name;
  const touched = new Set(set.occurrences.map((occurrence) => occurrence.file.path));
  const beforeIds = new Set(set.group.map((def) => def.symbol_id));
  const beforeOthers = sortedIds(
    set.files.filter((file) => touched.has(file.path)).flatMap((file) => file.defs),
    beforeIds,
    target.qualified_name,
  );
  const beforeLeftUses =
    set.left.filter((left) => touched.has(left.file_path) && left.reason !== "definition_of_other")
      .length;
  const before: ProofGraph = {
    symbol_ids: [...beforeIds].sort(),
    references: set.occurrences.filter((o) => o.kind === "reference").length,
    other_symbol_ids: beforeOthers.length,
  };
  const qualified = renamedQualified(target, newName);
  const renamedId = symbolId({
    language: target.language,
    file_path: target.path,
    qualified_name: qualified,
    kind: target.kind,
  });
  const afterFiles = [];
  for (const path of touched) {
    const file = await view.load(path);
    if (file) afterFiles.push(file);
  }
  const renamed = afterFiles.flatMap((file) => file.defs).find((def) =>
    def.symbol_id === renamedId
  );
  const afterSet = renamed ? await new OccurrenceFinder(view, renamed).find() : undefined;
  const afterIds = new Set(afterSet?.group.map((def) => def.symbol_id) ?? []);
  const afterOthers = sortedIds(afterFiles.flatMap((file) => file.defs), afterIds, qualified);
  const after: ProofGraph = {
    symbol_ids: [...afterIds].sort(),
    references: afterSet?.occurrences.filter((o) => o.kind === "reference").length ?? 0,
    other_symbol_ids: afterOthers.length,
  };
  const oldUsesLeft = await oldNameUses(afterFiles, target.name);
  return {
    before,
    after,
    invariants: [
      invariant(
        "reference_count_preserved",
        renamed !== undefined && after.references === before.references &&
          afterIds.size === beforeIds.size,
        `${before.references} use(s) of ${target.name} before, ${after.references} of ` +
          `${newName} after`,
      ),
      invariant(
        "no_orphaned_reference",
        oldUsesLeft === beforeLeftUses,
        `${oldUsesLeft} use(s) of ${target.name} in the touched files after, ${beforeLeftUses} ` +
          "of them another symbol's before",
      ),
      invariant(
        "other_ids_unchanged",
        JSON.stringify(beforeOthers) === JSON.stringify(afterOthers),
        `${beforeOthers.length} other definition id(s) before, ${afterOthers.length} after`,
      ),
    ],
  };
}
