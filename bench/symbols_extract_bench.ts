/**
 * What extraction for `llm-symbols` costs beyond the parse it needs: on the Linux 6.1 `kernel/`
 * directory (`.c` and `.h`, read as C), one thread, a tree-sitter parse alone against
 * `extractFacts` (the parse, the definition query and C token scan, one query pass for
 * references and includes, and the conversion to byte extents), interleaved round by round so
 * that load from elsewhere weighs on both alike; medians of `--runs N` rounds (default 3).
 *
 * Run: `deno task bench symbols_extract` or `deno run -A bench/symbols_extract_bench.ts`.
 *
 * @module
 */
import { join } from "node:path";
import { LINUX, prepare } from "./prepare.ts";
import { median, ms, runsOption } from "./measure.ts";
import { createParser } from "../grammars/loader.ts";
import { extractFacts } from "../core/symbol_index/extract.ts";

/** The text of every `.c` and `.h` file under `dir`, in path order. */
function sources(dir: string): string[] {
  const texts: string[] = [];
  const entries = [...Deno.readDirSync(dir)].sort((a, b) => a.name < b.name ? -1 : 1);
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) texts.push(...sources(path));
    else if (entry.isFile && /\.[ch]$/.test(entry.name)) texts.push(Deno.readTextFileSync(path));
  }
  return texts;
}

if (import.meta.main) {
  await prepare();
  const runs = runsOption(3);
  const texts = sources(join(LINUX, "kernel"));
  const bytes = texts.reduce((sum, text) => sum + new TextEncoder().encode(text).length, 0);
  const parser = await createParser("c");
  await extractFacts("c", "int warm(void) { return up(); }\n");
  const parseMs: number[] = [];
  const extractMs: number[] = [];
  let facts = { symbols: 0, references: 0, imports: 0 };
  for (let round = 0; round < runs; round++) {
    let started = performance.now();
    for (const text of texts) parser.parse(text)?.delete();
    parseMs.push(performance.now() - started);
    started = performance.now();
    facts = { symbols: 0, references: 0, imports: 0 };
    for (const text of texts) {
      const found = await extractFacts("c", text);
      facts.symbols += found.symbols.length;
      facts.references += found.references.length;
      facts.imports += found.imports.length;
    }
    extractMs.push(performance.now() - started);
  }
  parser.delete();
  const [parse, extract] = [median(parseMs), median(extractMs)];
  console.log(`\n## extractFacts on Linux 6.1 kernel/, one thread, median of ${runs}\n`);
  console.log(
    `${texts.length} files, ${(bytes / 1e6).toFixed(1)} MB; ${facts.symbols} symbols, ` +
      `${facts.references} references and calls, ${facts.imports} includes\n`,
  );
  console.log("| parse alone | extractFacts | ratio |");
  console.log("| --- | --- | --- |");
  console.log(`| ${ms(parse)} | ${ms(extract)} | ${(extract / parse).toFixed(2)}× |`);
}
