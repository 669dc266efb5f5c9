/**
 * `llm-transform --validate`: the validation gates (`core/gates/`) on every changed file's new
 * bytes before anything is written. `syntax` refuses an edit that breaks the
 * parse of a file that parsed before it (a file already broken is not refused for it: the
 * embedded grammar may lag the language, and an agent mends a broken file in steps); `all`
 * adds the compiler gates and refuses any failing gate; `none`, the default, skips them.
 *
 * @module
 */
import type { Diagnostic, GateRefusal } from "../../schema/diagnostic.ts";
import type { RunCache } from "../../core/cache.ts";
import type { FileChange } from "../../core/transaction/mod.ts";
import { gateRefusal } from "../../core/gates/refusal.ts";
import { transformDiagnostic, type ValidationMode } from "./report.ts";

/** How the gates run. */
export interface GateRun {
  /** Absolute, symlink-free root. */
  root: string;
  /** Which gates. */
  mode: ValidationMode;
  /** Let a compiler gate run the project's build scripts and proc macros (cargo). */
  allowBuildScripts?: boolean;
  /** Cache of a long-lived host. */
  cache?: RunCache;
  /** Stops the gates. */
  signal?: AbortSignal;
}

/** What the gates said: the refusal of each refused file (by path), and every diagnostic. */
export interface GateFindings {
  /** `LMT-V-013` of each refused file, by its absolute path, with the gate errors that refused it. */
  refused: Map<string, GateRefusal>;
  /** The gates' diagnostics (errors, warnings, skip notes). */
  diagnostics: Diagnostic[];
}

async function gate(run: GateRun, filePath: string, bytes: Uint8Array) {
  // Imported on use: the gates bring the grammar loader and its wasm modules, which an edit
  // without `--validate` (the default) must not pay for at start-up.
  const { validateFile } = await import("../../core/gates/mod.ts");
  return await validateFile({
    root: run.root,
    filePath,
    bytes,
    gates: run.mode === "all" ? "all" : "syntax",
    prefix: "LMT",
    allowBuildScripts: run.allowBuildScripts ?? false,
    ...(run.cache ? { cache: run.cache } : {}),
    ...(run.signal ? { signal: run.signal } : {}),
  });
}

/**
 * Runs the gates of `run.mode` on the new bytes of every change.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { gateChanges } from "./validate.ts";
 * const findings = await gateChanges([{
 *   file_path: "a.c", path: "/tmp/a.c",
 *   before: new TextEncoder().encode("int x;\n"), after: new TextEncoder().encode("int x\n"),
 * }], { root: "/tmp", mode: "syntax" });
 * assert.equal(findings.refused.size, 1);
 * assert.equal(findings.diagnostics[0].message, "missing ;");
 * ```
 */
export async function gateChanges(
  changes: readonly FileChange[],
  run: GateRun,
): Promise<GateFindings> {
  const findings: GateFindings = { refused: new Map(), diagnostics: [] };
  if (run.mode === "none") return findings;
  for (const change of changes) {
    if (!change.after) continue;
    const report = await gate(run, change.file_path, change.after);
    if (report.approved) {
      // The default gate's notes (no grammar for a .txt) would add noise to every edit.
      findings.diagnostics.push(
        ...report.diagnostics.filter((d) => run.mode === "all" || d.level !== "note"),
      );
      continue;
    }
    if (run.mode === "syntax" && change.before) {
      const prior = await gate(run, change.file_path, change.before);
      if (!prior.approved) {
        findings.diagnostics.push(transformDiagnostic(
          "LMT-V-014",
          `${change.file_path} did not parse before the edit either; the edit was not refused`,
          { level: "warning", file: change.file_path },
        ));
        continue;
      }
    }
    findings.diagnostics.push(...report.diagnostics);
    const errors = report.diagnostics.filter((d) => d.level === "error");
    const first = errors[0];
    const where = first?.line ? `:${first.line}:${(first.column ?? 0) + 1}` : "";
    const refusal = transformDiagnostic(
      "LMT-V-013",
      `the edit would make ${change.file_path} fail validation (${errors.length} error(s)` +
        (first ? `, first at ${change.file_path}${where}: ${first.message}` : "") +
        ")",
      {
        file: change.file_path,
        ...(first?.line ? { line: first.line } : {}),
        ...(first?.column !== undefined ? { column: first.column } : {}),
      },
    );
    findings.refused.set(change.path, gateRefusal(refusal, errors));
  }
  return findings;
}
