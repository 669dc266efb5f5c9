/**
 * The cheap entry to the repository index for tools that only walk (discover): one `lstat`
 * tells whether `<root>/.llm/trigram.idx` exists, and only then is the reader loaded. A file
 * that fails its checks becomes an `LMS-IO-010` (search) or `LMD-IO-010` (discover) warning.
 *
 * @module
 */
import { join } from "../path_syntax.ts";
import type { RunCache } from "../cache.ts";
import { type Diagnostic, makeDiagnostic } from "../../schema/diagnostic.ts";
import type { IndexListing, TrigramIndex } from "./reader.ts";

/**
 * The index path of `root` when a regular file is there (one `lstat`), else undefined.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { existingIndex } from "./open.ts";
 * const root = Deno.makeTempDirSync();
 * assert.equal(existingIndex(root), undefined);
 * Deno.removeSync(root);
 * ```
 */
export function existingIndex(root: string): string | undefined {
  const path = join(root, ".llm", "trigram.idx");
  try {
    return Deno.lstatSync(path).isFile ? path : undefined;
  } catch {
    // Absent, or outside what the run may read (a scoped --allow-read): no index to use.
    return undefined;
  }
}

/** The code of an index not used, per tool that reads the index. */
const IGNORED_CODES = { LMS: "LMS-IO-010", LMD: "LMD-IO-010" } as const;

/** The prefixes of the tools that read the index. */
export type IndexReaderPrefix = keyof typeof IGNORED_CODES;

/** The `LMS-IO-010` / `LMD-IO-010` warning for an index that was not used. */
export function ignoredIndex(
  tool: string,
  prefix: IndexReaderPrefix,
  reason: string,
): Diagnostic {
  return makeDiagnostic(
    tool,
    IGNORED_CODES[prefix],
    `the repository index .llm/trigram.idx was ignored: ${reason}; the files were walked directly`,
    { level: "warning", remediation: "Run `llm-symbols index` to rebuild it." },
  );
}

/** The reader module, loaded only when an index file exists. */
type Reader = typeof import("./reader.ts");

/**
 * What `open` makes of the index of `root` once it exists and is checked, or undefined when
 * there is none or it was refused (then a `*-IO-010` warning is added to `diagnostics`).
 */
async function openChecked<T extends IndexListing>(
  root: string,
  tool: string,
  prefix: IndexReaderPrefix,
  diagnostics: Diagnostic[],
  open: (reader: Reader, path: string) => T | undefined,
): Promise<T | undefined> {
  const path = existingIndex(root);
  if (!path) return undefined;
  const reader = await import("./reader.ts");
  try {
    const index = open(reader, path);
    if (index && index.meta.root !== Deno.realPathSync(root)) {
      diagnostics.push(ignoredIndex(tool, prefix, `it was built for ${index.meta.root}`));
      return undefined;
    }
    return index;
  } catch (error) {
    // A run that may not read the index (or resolve the root) just does without it.
    if (error instanceof Deno.errors.NotCapable) return undefined;
    const reason = error instanceof Error ? error.message : String(error);
    diagnostics.push(ignoredIndex(tool, prefix, reason));
    return undefined;
  }
}

/**
 * The checked index of `root`, or undefined when there is none or it was refused (then a
 * `*-IO-010` warning is added to `diagnostics`). The reader is loaded only when an index
 * file exists.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { openCheckedIndex } from "./open.ts";
 * const root = Deno.makeTempDirSync();
 * assert.equal(await openCheckedIndex(root, "llm-search", "LMS", []), undefined);
 * Deno.removeSync(root);
 * ```
 */
export async function openCheckedIndex(
  root: string,
  tool: string,
  prefix: IndexReaderPrefix,
  diagnostics: Diagnostic[],
): Promise<TrigramIndex | undefined> {
  return await openChecked(
    root,
    tool,
    prefix,
    diagnostics,
    (reader, path) => reader.openIndex(path),
  );
}

/**
 * The walk cache for a walker of `tool` under `root`, given a long-lived host's cache (`host`):
 * with a usable index, the host's cache kept fresh by the index's file watcher (a walk checked
 * once is trusted until the watcher reports a change that may alter it); else `host` itself.
 * Without a host, {@linkcode indexWalkSource}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { indexWalkCache } from "./open.ts";
 * const root = Deno.makeTempDirSync();
 * assert.equal(await indexWalkCache(root, "llm-discover", "LMD", [], undefined), undefined);
 * Deno.removeSync(root);
 * ```
 */
export async function indexWalkCache(
  root: string,
  tool: string,
  prefix: IndexReaderPrefix,
  diagnostics: Diagnostic[],
  host: RunCache | undefined,
): Promise<RunCache | undefined> {
  if (!host) return await indexWalkSource(root, tool, prefix, diagnostics);
  const index = await openCheckedIndex(root, tool, prefix, diagnostics);
  if (!index) return host;
  const { liveTrigramIndex } = await import("./live.ts");
  const view = await liveTrigramIndex(host, index.meta.root).view(index);
  // Where no watcher can run, the host's cache checks a walk's stamps itself.
  return typeof view === "string" ? host : view.walkCache(host, tool, prefix);
}

/**
 * A walk cache serving the indexed walk of `root` to a walker of `tool`, or undefined when
 * there is no usable index (a refused one adds a warning to `diagnostics`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { indexWalkSource } from "./open.ts";
 * const root = Deno.makeTempDirSync();
 * assert.equal(await indexWalkSource(root, "llm-discover", "LMD", []), undefined);
 * Deno.removeSync(root);
 * ```
 */
export async function indexWalkSource(
  root: string,
  tool: string,
  prefix: IndexReaderPrefix,
  diagnostics: Diagnostic[],
): Promise<RunCache | undefined> {
  // A walk needs only the listing: the sizes, hashes and trigram table are not read.
  const listing = await openChecked(
    root,
    tool,
    prefix,
    diagnostics,
    (reader, path) => reader.openIndexListing(path),
  );
  if (!listing) return undefined;
  const { IndexWalkSource } = await import("./walk_source.ts");
  return new IndexWalkSource(listing, tool, prefix, true);
}
