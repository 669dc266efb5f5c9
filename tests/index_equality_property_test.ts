/**
 * The repository index never changes a search's answer: over generated trees, patterns and
 * flags, a search using `.llm/trigram.idx` gives exactly the data and diagnostics of the same
 * search without it, while files are edited (in place, same size or not), added, deleted,
 * renamed, turned binary or back, and ignore rules change between index builds.
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { search, type SearchOptions, type SearchResult } from "../tools/search/engine.ts";
import { buildTrigramIndex } from "../core/trigram/build.ts";
import { ToolError } from "../schema/diagnostic.ts";
import { Random, randomFile, randomFlags, randomPattern } from "./search_regex_gen.ts";

const ROUNDS = Number(Deno.env.get("INDEX_PROPERTY_ROUNDS") ?? 10);
const PATTERNS_PER_ROUND = Number(Deno.env.get("INDEX_PROPERTY_PATTERNS") ?? 40);

/** Words of three bytes or more that generated files hold (so postings rule files out). */
const WORDS = [
  "abc",
  "Abc",
  "kas",
  "KAS",
  "x_1",
  "foo",
  "FOO",
  "fOo",
  "a-b",
  "b(c)",
  "a.c",
  "éa",
  "\u212aas",
  "Ωω",
];
const DIRS = ["", "a", "a/b", "c", "logs"];
/** An hour ago: stamps this old are neither racy nor equal to an edit's. */
const PAST = Date.now() / 1000 - 3600;

function escape(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|-]/g, (char) => `\\${char}`);
}

/** A pattern built around words of the files, or a fully random one. */
function pattern(random: Random, multiline: boolean): string {
  const word = escape(random.pick(WORDS));
  switch (random.int(6)) {
    case 0:
      return word;
    case 1:
      return `${word}\\w*`;
    case 2:
      return `[a-z]?${word}|${escape(random.pick(WORDS))}`;
    case 3:
      return `(?:${word})+${random.chance(0.5) ? "\\s" : ""}`;
    case 4:
      return word.slice(0, 2);
    default:
      return randomPattern(random, { javascriptOnly: true, nonAscii: true, newline: multiline });
  }
}

/** A file of generated text with extra words; binary (a NUL byte) with probability `binary`. */
function content(random: Random, binary: number): Uint8Array {
  const words = new TextEncoder().encode(
    Array.from({ length: random.int(10) }, () => random.pick(WORDS)).join(" ") + "\n",
  );
  const body = randomFile(random, true);
  const bytes = new Uint8Array([...body, ...words]);
  if (random.chance(binary)) bytes[random.int(bytes.length + 1) % Math.max(1, bytes.length)] = 0;
  return bytes;
}

/** Sets `path`'s times to an hour ago plus `offset` seconds. */
function age(path: string, offset = 0): void {
  Deno.utimeSync(path, PAST + offset, PAST + offset);
}

function listFiles(root: string): string[] {
  const found: string[] = [];
  const visit = (dir: string) => {
    for (const entry of Deno.readDirSync(dir)) {
      if (entry.name === ".git" || entry.name === ".llm") continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory) visit(path);
      else found.push(path);
    }
  };
  visit(root);
  return found.sort();
}

function write(path: string, bytes: Uint8Array): void {
  Deno.mkdirSync(dirname(path), { recursive: true });
  Deno.writeFileSync(path, bytes);
}

/** A tree of files in nested folders, a git work tree with ignore rules, all stamped old. */
function makeRoot(random: Random): string {
  const root = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "llm-index-prop-" }));
  Deno.mkdirSync(join(root, ".git"));
  // The index's folder exists before the tree is stamped old (creating it restamps the root).
  Deno.mkdirSync(join(root, ".llm"));
  Deno.writeTextFileSync(join(root, ".gitignore"), "*.log\nlogs/\n");
  Deno.writeTextFileSync(join(root, ".ignore"), "ignored.txt\n");
  for (let i = 0; i < 24; i++) {
    const dir = random.pick(DIRS);
    const name = random.chance(0.1) ? "ignored.txt" : `f${i}.${random.pick(["txt", "c", "log"])}`;
    write(join(root, dir, name), content(random, 0.1));
  }
  ageTree(root);
  return root;
}

/** Stamps every file and folder an hour old (folders last: writing inside one restamps it). */
function ageTree(root: string): void {
  for (const file of listFiles(root)) age(file);
  for (const dir of [...DIRS].reverse()) {
    try {
      age(join(root, dir));
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
}

/** The changes to a file's content alone (no folder changes: the index's walk still holds). */
const CONTENT_CHANGES = [0, 4, 6];

/**
 * One random change to the tree (to a file's content only when `contentOnly`); returns what it
 * did, for the failure message.
 */
function mutate(random: Random, root: string, step: number, contentOnly: boolean): string {
  const files = listFiles(root).filter((path) => !path.endsWith("ignore"));
  const file = files.length > 0 ? random.pick(files) : undefined;
  const kind = file ? (contentOnly ? random.pick(CONTENT_CHANGES) : random.int(7)) : 1;
  switch (kind) {
    case 0: {
      // An edit in place keeping the size: only the mtime tells.
      const bytes = Deno.readFileSync(file!);
      const word = new TextEncoder().encode(random.pick(WORDS));
      const piece = word.subarray(0, Math.min(word.length, bytes.length));
      bytes.set(piece, random.int(bytes.length - piece.length + 1));
      Deno.writeFileSync(file!, bytes);
      age(file!, step + 1);
      return `same-size edit ${file}`;
    }
    case 1: {
      const path = join(root, random.pick(DIRS), `new${step}.${random.pick(["txt", "log"])}`);
      write(path, content(random, 0.2));
      return `add ${path}`;
    }
    case 2:
      Deno.removeSync(file!);
      return `delete ${file}`;
    case 3: {
      const to = join(root, random.pick(DIRS), `moved${step}.txt`);
      Deno.mkdirSync(dirname(to), { recursive: true });
      Deno.renameSync(file!, to);
      return `rename ${file} -> ${to}`;
    }
    case 4:
      write(file!, content(random, 0.5));
      return `rewrite ${file}`;
    case 5: {
      const rules = random.pick([".gitignore", ".ignore"]);
      Deno.writeTextFileSync(join(root, rules), random.pick(["*.log\n", "f1*\n", "a/\n", ""]));
      return `rules ${rules}`;
    }
    default: {
      const bytes = Deno.readFileSync(file!);
      write(file!, new Uint8Array([...bytes, ...new TextEncoder().encode(random.pick(WORDS))]));
      return `append ${file}`;
    }
  }
}

/** A search result with the run-specific ids and the index report removed, or the refusal code. */
async function answer(options: SearchOptions): Promise<string> {
  let result: SearchResult;
  try {
    result = await search({ ...options, limit: limitFor(options), threads: 1 });
  } catch (error) {
    if (error instanceof ToolError) return error.code;
    throw error;
  }
  const { index: _index, ...data } = result.data;
  const matches = data.matches.map(({ match_id: _id, ...match }) => match);
  return JSON.stringify({
    ...data,
    matches,
    diagnostics: result.diagnostics,
    partial: result.partial,
  });
}

/** The limit a case runs with (its pattern count decides, so both runs agree). */
function limitFor(options: SearchOptions): number {
  return options.patterns.length === 1 ? 0 : 5;
}

Deno.test("index equality: searches with the index answer exactly as without it, across edits", async () => {
  const random = new Random(20261123);
  const root = makeRoot(random);
  let indexed = 0;
  let ruledOut = 0;
  let walked = 0;
  let walkedChanged = 0;
  try {
    buildTrigramIndex({ root });
    const history: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      if (round > 0) {
        // Some rounds change contents only: the index's walk is then used, and its stamps must
        // tell which of its files changed.
        const contentOnly = random.chance(0.4);
        for (let i = random.int(4); i >= 0; i--) {
          history.push(mutate(random, root, round * 10 + i, contentOnly));
        }
        if (random.chance(0.3)) {
          ageTree(root);
          buildTrigramIndex({ root });
          history.push("rebuild");
        }
      }
      for (let i = 0; i < PATTERNS_PER_ROUND; i++) {
        const flags = randomFlags(random, 0.3);
        const patterns = Array.from(
          { length: random.chance(0.2) ? 2 : 1 },
          () => pattern(random, flags.multiline),
        );
        const mode = random.pick(["matches", "files", "counts"] as const);
        const options: SearchOptions = { ...flags, patterns, mode, cwd: root };
        const plain = await answer({ ...options, useIndex: false });
        const withIndex = await answer(options);
        assert.equal(
          withIndex,
          plain,
          `round ${round}, ${JSON.stringify({ patterns, flags, mode })}, after: ${
            history.join("; ")
          }`,
        );
        const use = (await search({ ...options, threads: 1 }).catch(() => undefined))?.data.index;
        if (use?.postings) indexed++;
        if (use?.walk) walked++;
        if (use?.walk && use.files_changed > 0) walkedChanged++;
        ruledOut += use?.files_ruled_out ?? 0;
      }
    }
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
  // The cases must exercise the index: postings that rule files out and the indexed walk.
  assert.ok(indexed > ROUNDS * PATTERNS_PER_ROUND * 0.2, `only ${indexed} searches used postings`);
  assert.ok(ruledOut > 0, "no file was ever ruled out");
  assert.ok(walked > 0, "the indexed walk was never used");
  assert.ok(walkedChanged > 0, "the indexed walk never held a changed file");
});
