/**
 * Which definition an operation names: by `symbol_id`, or by name (or qualified name) with an
 * optional file and kind to pick among several. Several left is a refusal listing them
 * (`SPL-REF-002`, exit 3): the tool never picks one silently.
 *
 * @module
 */
import { ToolError } from "../../schema/diagnostic.ts";
import type { SymbolRecord } from "../../schema/symbols.ts";
import { symbolRecord } from "../../core/symbol_index/records.ts";
import { fieldRefusal } from "./fields.ts";
import type { Def, FactView } from "./view.ts";

/** How a step names its symbol. */
export interface TargetSpec {
  /** Name or qualified name. */
  symbol?: string;
  /** Or its id. */
  symbol_id?: string;
  /** Root-relative (or cwd-relative, already made root-relative) file of the definition. */
  file?: string;
  /** Kind of the definition. */
  kind?: string;
}

/** A definition as the record the result reports (its name extent left out). */
export function recordOf(def: Def): SymbolRecord {
  const { name_start: _start, name_end: _end, ...row } = def;
  return symbolRecord(row);
}

function describe(spec: TargetSpec): string {
  const parts = [spec.symbol ?? spec.symbol_id ?? "?"];
  if (spec.file) parts.push(`in ${spec.file}`);
  if (spec.kind) parts.push(`of kind ${spec.kind}`);
  return parts.join(" ");
}

const SYMBOL_ID = /^[0-9a-f]{16}$/;

/**
 * The spec with a name that is a stored `symbol_id` (16 hex digits that some definition has as
 * its id, as `llm-symbols find` prints it) read as that id.
 */
function idAsName(view: FactView, spec: TargetSpec): TargetSpec {
  const name = spec.symbol;
  if (spec.symbol_id !== undefined || name === undefined || !SYMBOL_ID.test(name)) return spec;
  if (view.store.symbolsWithId(name).length === 0) return spec;
  const { symbol: _name, ...rest } = spec;
  return { ...rest, symbol_id: name };
}

/** Refuses a name and a `symbol_id` that name different definitions (`SPL-REF-006`). */
function checkAgreement(spec: TargetSpec, found: Def[]): void {
  const name = spec.symbol;
  if (name === undefined || spec.symbol_id === undefined || found.length === 0) return;
  if (found.some((def) => def.name === name || def.qualified_name === name)) return;
  const def = found[0];
  throw new ToolError(
    "SPL-REF-006",
    `symbol_id ${spec.symbol_id} is ${def.kind} ${def.qualified_name} (${def.path}:` +
      `${def.start_line}), not ${name}; nothing was changed`,
    { remediation: "Give the name or the symbol_id alone, or the two of one definition." },
  );
}

/** Stored and loaded definitions matching the spec's name or id, before narrowing. */
function matching(view: FactView, spec: TargetSpec): Def[] {
  if (spec.symbol_id !== undefined) {
    const loaded = view.loadedFiles().flatMap((file) =>
      file.defs.filter((def) => def.symbol_id === spec.symbol_id)
    );
    const loadedPaths = new Set(view.loadedFiles().map((file) => file.path));
    const stored = view.store.symbolsWithId(spec.symbol_id).filter((row) =>
      !loadedPaths.has(row.path)
    );
    return [...stored, ...loaded];
  }
  const name = spec.symbol!;
  const loadedPaths = new Set(view.loadedFiles().map((file) => file.path));
  const stored = view.store.symbolsNamed(name).filter((row) => !loadedPaths.has(row.path));
  const loaded = view.loadedFiles().flatMap((file) =>
    file.defs.filter((def) => def.name === name || def.qualified_name === name)
  );
  return [...stored, ...loaded];
}

function unknown(view: FactView, spec: TargetSpec, found: Def[]): ToolError {
  const close = spec.symbol ? view.store.namesContaining(spec.symbol, 5) : [];
  const elsewhere = found.map((def) => `${def.kind} ${def.qualified_name} in ${def.path}`);
  const note = [
    ...(elsewhere.length ? [`definitions of that name elsewhere: ${elsewhere.join(", ")}`] : []),
    ...(close.length ? [`close names: ${close.join(", ")}`] : []),
  ].join("\n");
  return new ToolError(
    "SPL-REF-001",
    `no definition of ${describe(spec)} is in the index`,
    note ? { note } : {},
  );
}

/**
 * The one definition `given` names, its file loaded in the view (so its name's extent is
 * known); a name of 16 hex digits that is a stored `symbol_id` names that definition. Throws
 * `SPL-REF-001` when none matches (`SPL-REF-005` when the name is a C or C++ field's),
 * `SPL-REF-002` (candidates listed) when several do, and `SPL-REF-006` when a name and a
 * `symbol_id` given together name different definitions.
 */
export async function resolveTarget(view: FactView, given: TargetSpec): Promise<Def> {
  for (const path of view.overlay.keys()) await view.load(path);
  const spec = idAsName(view, given);
  const found = matching(view, spec);
  checkAgreement(spec, found);
  const narrowed = found.filter((def) =>
    (spec.file === undefined || def.path === spec.file) &&
    (spec.kind === undefined || def.kind === spec.kind)
  );
  const ids = new Map<string, Def>();
  for (const def of narrowed) if (!ids.has(def.symbol_id)) ids.set(def.symbol_id, def);
  if (ids.size === 0) {
    const field = spec.symbol !== undefined && (found.length === 0 || spec.kind === "field")
      ? await fieldRefusal(view, spec.symbol)
      : undefined;
    throw field ?? unknown(view, spec, found);
  }
  if (ids.size > 1) {
    const candidates = [...ids.values()].map((def) =>
      `${def.symbol_id} ${def.kind} ${def.qualified_name} ${def.path}:${def.start_line}`
    );
    throw new ToolError(
      "SPL-REF-002",
      `${describe(spec)} names ${ids.size} definitions; nothing was changed`,
      {
        note: `candidates:\n${candidates.join("\n")}`,
        remediation: "Give file and kind, or the symbol_id, of one candidate.",
      },
    );
  }
  const chosen = [...ids.values()][0];
  const file = await view.load(chosen.path);
  const loaded =
    file?.defs.find((def) =>
      def.symbol_id === chosen.symbol_id && def.byte_start === chosen.byte_start
    ) ?? file?.defs.find((def) => def.symbol_id === chosen.symbol_id);
  if (!loaded) {
    throw new ToolError(
      "SPL-IO-011",
      `the index lists ${chosen.qualified_name} in ${chosen.path}, which no longer defines it`,
      { file: chosen.path, remediation: "Run `llm-symbols index` and retry." },
    );
  }
  return loaded;
}
