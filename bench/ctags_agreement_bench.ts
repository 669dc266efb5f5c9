/**
 * How far llm-ast-search's C function definitions agree with universal-ctags' on the Linux 6.1
 * `kernel/` directory (502 `.c` and `.h` files, both read as C): precision and recall of ours
 * against ctags' `f` kind, matched by (file, name, line of the name), target ≥ 0.99 each; then
 * the disagreements, sorted into classes with counts and examples.
 *
 * The known class where ctags is wrong: a macro invoked on a line of its own without `;`
 * (`BTF_ID(func, f)`, `NOKPROBE_SYMBOL(f)`, `DEFINE_BPF_ITER_FUNC(…)`) just before a function.
 * ctags reads the macro as the function's name; ours names the function below it. Each such
 * case counts once against precision and once against recall.
 *
 * Run: `deno task bench ctags` or `deno run -A bench/ctags_agreement_bench.ts`.
 *
 * @module
 */
import { join } from "node:path";
import { LINUX, prepare } from "./prepare.ts";
import { denoRun, runOnce } from "./measure.ts";

/** A function definition: file, name and 1-based line of its name. */
interface Tag {
  file: string;
  name: string;
  line: number;
}

/** A kind of disagreement, with the tags in it. */
interface DisagreementClass {
  label: string;
  tags: Tag[];
}

const decoder = new TextDecoder();
/** A macro invoked at the start of a line, without `;` (`BTF_ID(func, f)`), maybe on more. */
const MACRO_LINE = /^\w+\([^;]*$/;

const key = (tag: Tag) => `${tag.file}\0${tag.name}\0${tag.line}`;

async function run(command: string, args: string[]): Promise<string> {
  const sample = await runOnce(command, args, LINUX);
  if (sample.code !== 0) throw new Error(`${command} exited with ${sample.code}`);
  return decoder.decode(sample.stdout);
}

/** universal-ctags' function definitions, `.h` files read as C (ctags' default is C++). */
async function ctagsFunctions(): Promise<Tag[]> {
  const args = ["--options=NONE", "-R", "--languages=C", "--langmap=C:+.h", "--kinds-C=f"];
  const stdout = await run("ctags", [
    ...args,
    "--fields=+n",
    "--output-format=json",
    "-f",
    "-",
    "kernel",
  ]);
  return stdout.split("\n").filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line))
    .filter((tag) => tag._type === "tag" && tag.kind === "function")
    .map((tag) => ({ file: tag.path, name: tag.name, line: tag.line }));
}

/** Ours: `llm-ast-search --kind function kernel`, the line of each `name` capture. */
async function ourFunctions(): Promise<Tag[]> {
  const [command, args] = denoRun("tools/ast-search/main.ts", [
    "--kind",
    "function",
    "--format",
    "jsonl",
    "--limit",
    "0",
    "kernel",
  ]);
  const stdout = await run(command, args);
  return stdout.split("\n").filter((line) => line.startsWith('{"type":"match"'))
    .map((line) => JSON.parse(line))
    .map((match) => ({
      file: match.span.file_path,
      name: match.name,
      line: match.captures[0].span.start_line,
    }));
}

/** The text of line `line` of a kernel file. */
function sourceLine(tag: Tag, cache: Map<string, string[]>): string {
  let lines = cache.get(tag.file);
  if (!lines) {
    lines = Deno.readTextFileSync(join(LINUX, tag.file)).split("\n");
    cache.set(tag.file, lines);
  }
  return lines[tag.line - 1] ?? "";
}

/**
 * Sorts the disagreements: a ctags-only tag on a macro line paired with the nearest ours-only
 * function below it in the same file (no tag of ctags between them), and whatever is left on
 * either side.
 */
function classify(
  peer: Tag[],
  onlyCtags: Tag[],
  onlyOurs: Tag[],
  cache: Map<string, string[]>,
): DisagreementClass[] {
  const unpaired = new Set(onlyOurs);
  const macroLines: Tag[] = [];
  const paired: Tag[] = [];
  const restCtags: Tag[] = [];
  const nearestBelow = (tag: Tag) =>
    [...unpaired].filter((ours) => ours.file === tag.file && ours.line > tag.line)
      .sort((a, b) => a.line - b.line)[0];
  const tagBetween = (file: string, from: number, to: number) =>
    peer.some((other) => other.file === file && other.line > from && other.line < to);
  for (const tag of onlyCtags) {
    const candidate = MACRO_LINE.test(sourceLine(tag, cache)) ? nearestBelow(tag) : undefined;
    const below = candidate && !tagBetween(tag.file, tag.line, candidate.line)
      ? candidate
      : undefined;
    if (below) {
      unpaired.delete(below);
      macroLines.push(tag);
      paired.push(below);
    } else restCtags.push(tag);
  }
  return [
    {
      label: "ctags names a macro line before a function (ctags wrong), ctags' tag",
      tags: macroLines,
    },
    { label: "… and the function below it, which we name", tags: paired },
    { label: "other, ctags only", tags: restCtags },
    { label: "other, ours only", tags: [...unpaired] },
  ];
}

if (import.meta.main) {
  await prepare();
  const [peer, ours] = [await ctagsFunctions(), await ourFunctions()];
  const peerKeys = new Set(peer.map(key));
  const ourKeys = new Set(ours.map(key));
  const both = ours.filter((tag) => peerKeys.has(key(tag))).length;
  const onlyCtags = peer.filter((tag) => !ourKeys.has(key(tag)));
  const onlyOurs = ours.filter((tag) => !peerKeys.has(key(tag)));
  const precision = both / ours.length;
  const recall = both / peer.length;
  console.log("\n## C function definitions on Linux 6.1 kernel/ against universal-ctags\n");
  console.log("| ctags `f` | ours | both | precision | recall |");
  console.log("| --- | --- | --- | --- | --- |");
  console.log(
    `| ${peer.length} | ${ours.length} | ${both} | ${precision.toFixed(4)} | ` +
      `${recall.toFixed(4)} |`,
  );
  const met = precision >= 0.99 && recall >= 0.99;
  console.log(`\ntarget precision and recall ≥ 0.99: ${met ? "met" : "NOT met"}`);
  console.log("\n| disagreement | count | examples |");
  console.log("| --- | --- | --- |");
  const cache = new Map<string, string[]>();
  for (const { label, tags } of classify(peer, onlyCtags, onlyOurs, cache)) {
    const examples = tags.slice(0, 3).map((tag) =>
      `\`${tag.file}:${tag.line} ${tag.name}\`: \`${sourceLine(tag, cache).trim().slice(0, 60)}\``
    );
    console.log(`| ${label} | ${tags.length} | ${examples.join("<br>")} |`);
  }
  if (!met) Deno.exitCode = 1;
}
