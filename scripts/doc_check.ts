/**
 * `deno task doc`: checks the documentation of the published entrypoints the way JSR renders
 * and scores it, and fails listing every problem.
 *
 * - Every entrypoint in `deno.json` `exports` has a module doc whose text renders: a line that
 *   starts with `@` is read as a JSDoc tag (`@llm/search — …` became an unknown tag and vanished
 *   from the page).
 * - Every symbol of the curated API (`mod.ts`) has JSDoc, and every function, class and constant
 *   has an example with a title line (JSR shows the title; `deno check --doc` type-checks it).
 * - `deno doc --lint mod.ts` is clean: the curated API names no type it does not export.
 * - `deno doc --lint` over all the entrypoints together is clean: the package's public API is
 *   the union of its entrypoints (JSR documents and links it so), so a tool's entrypoint may
 *   name a type that `@llm/search` or `@llm/search/schema` exports. One kind of error is
 *   accepted, and only there: a `private-type-ref` to one of zod's own types (`ZodType`, …)
 *   from a module of `schema/`. `@llm/search/schema` hands out the contract's zod schemas, whose
 *   types are zod's; Deno 2.9 reports a type of an npm package as private
 *   (denoland/deno#27364: only `jsr:` and `https:` packages' types count as public), and
 *   re-exporting zod's types would publish all of zod's API as ours ({@linkcode isZodTypeRef}).
 *
 * @module
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = dirname(dirname(fileURLToPath(import.meta.url)));
/** The entrypoint whose every symbol must carry docs and titled examples. */
const CURATED = "mod.ts";
/** Where the modules whose exports may name zod's types live (`@llm/search/schema`). */
const ZOD_SCHEMA_DIR = join(REPO, "schema") + "/";
/** Declaration kinds that are values: they get a titled example. */
const VALUE_KINDS = new Set(["function", "class", "variable", "enum"]);
/** Folders holding the published modules, searched for local declarations. */
const SOURCE_DIRS = ["schema", "core", "tools", "grammars"];

interface JsDocTag {
  kind: string;
  doc?: string;
  value?: string;
}

interface JsDoc {
  doc?: string;
  tags?: JsDocTag[];
}

interface DocSymbol {
  name: string;
  declarations: { kind: string; jsDoc?: JsDoc }[];
}

interface DocModule {
  module_doc?: JsDoc;
  symbols: DocSymbol[];
}

async function deno(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const output = await new Deno.Command("deno", {
    args,
    cwd: REPO,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}

function entrypoints(): string[] {
  const config = JSON.parse(Deno.readTextFileSync(join(REPO, "deno.json")));
  return Object.values(config.exports as Record<string, string>).map((path) =>
    path.replace(/^\.\//, "")
  );
}

async function docJson(path: string): Promise<DocModule> {
  const result = await deno(["doc", "--json", path]);
  if (result.code !== 0) throw new Error(`deno doc --json ${path} failed:\n${result.stderr}`);
  const nodes = JSON.parse(result.stdout).nodes as Record<string, DocModule>;
  const module = Object.values(nodes)[0];
  if (!module) throw new Error(`deno doc --json ${path} gave no module`);
  return module;
}

function moduleDocProblems(path: string, module: DocModule): string[] {
  const doc = module.module_doc;
  const unknownTags = (doc?.tags ?? []).filter((tag) => tag.kind === "unsupported").map((tag) =>
    `${path}: the module doc has a line read as an unknown tag: ${tag.value?.split("\n")[0]}`
  );
  if (unknownTags.length > 0) return unknownTags;
  return doc?.doc?.trim() ? [] : [`${path}: no module doc (a JSDoc block with @module)`];
}

function symbolProblems(symbol: DocSymbol): string[] {
  const problems: string[] = [];
  for (const declaration of symbol.declarations) {
    const jsDoc = declaration.jsDoc;
    if (!jsDoc?.doc?.trim()) problems.push(`${symbol.name}: no JSDoc`);
    if (jsDoc?.tags?.some((tag) => tag.kind === "unsupported")) {
      problems.push(`${symbol.name}: a JSDoc line is read as an unknown tag`);
    }
    if (!VALUE_KINDS.has(declaration.kind)) continue;
    const examples = (jsDoc?.tags ?? []).filter((tag) => tag.kind === "example");
    if (examples.length === 0) problems.push(`${symbol.name}: no @example`);
    for (const example of examples) {
      if ((example.doc ?? "").trimStart().startsWith("```")) {
        problems.push(`${symbol.name}: an @example without a title line`);
      }
    }
  }
  return problems;
}

/** Every name a published module declares, to tell this package's types from zod's. */
function localNames(): Set<string> {
  const names = new Set<string>();
  const declaration = /\b(?:interface|type|class|enum)\s+([A-Za-z_$][\w$]*)/g;
  const visit = (dir: string) => {
    for (const entry of Deno.readDirSync(dir)) {
      const path = join(dir, entry.name);
      if (entry.isDirectory) visit(path);
      else if (entry.name.endsWith(".ts")) {
        for (const match of Deno.readTextFileSync(path).matchAll(declaration)) names.add(match[1]);
      }
    }
  };
  for (const dir of SOURCE_DIRS) visit(join(REPO, dir));
  for (const match of Deno.readTextFileSync(join(REPO, CURATED)).matchAll(declaration)) {
    names.add(match[1]);
  }
  return names;
}

/**
 * Whether a lint error is the accepted kind: a module of `schema/` naming one of zod's types
 * (`ZodType`, `$ZodRegistry`, …; no module of this package declares such a name).
 */
function isZodTypeRef(block: string, local: Set<string>): boolean {
  const privateRef = /^error\[private-type-ref\]: .* references private type '([^']+)'/.exec(block);
  const at = /^\s*--> (.+):\d+:\d+$/m.exec(block);
  if (!privateRef || !at) return false;
  const name = privateRef[1];
  return /^\$?Zod[A-Z]/.test(name) && !local.has(name) && at[1].startsWith(ZOD_SCHEMA_DIR);
}

/** The errors of `deno doc --lint` over `paths` together, one block each. */
async function docLintErrors(paths: string[]): Promise<string[]> {
  const result = await deno(["doc", "--lint", ...paths]);
  const blocks = result.stderr.split(/\n(?=error\[)/).filter((block) => block.startsWith("error["))
    .map((block) => block.replace(/\n\s*error: Found \d+ documentation lint errors?\.[\s\S]*$/, ""))
    .map((block) => block.trimEnd());
  if (result.code !== 0 && blocks.length === 0) return [result.stderr.trim()];
  return blocks;
}

async function main(): Promise<number> {
  const paths = entrypoints();
  const problems: string[] = [];
  for (const path of paths) problems.push(...moduleDocProblems(path, await docJson(path)));
  const lintErrors = new Set(await docLintErrors([CURATED]));
  const local = localNames();
  let accepted = 0;
  for (const block of await docLintErrors(paths)) {
    if (isZodTypeRef(block, local)) accepted++;
    else lintErrors.add(block);
  }
  problems.push(...lintErrors);
  for (const symbol of (await docJson(CURATED)).symbols) problems.push(...symbolProblems(symbol));
  for (const problem of problems) console.error(problem);
  console.error(
    `doc check: ${problems.length} problem(s); ${accepted} private-type-ref error(s) about zod's ` +
      `types in @llm/search/schema accepted (denoland/deno#27364)`,
  );
  return problems.length === 0 ? 0 : 1;
}

if (import.meta.main) Deno.exit(await main());
