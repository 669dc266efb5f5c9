/**
 * ripgrep is the oracle of the walk: on generated trees (nested and hidden entries, git work
 * trees, `.gitignore`/`.ignore`/`.llmignore` files with random rules in the tree and in the
 * parents of the search root) `llm-search` — a real subprocess with `--allow-read` or a scoped
 * `--allow-read=<top>` — must report exactly the matches `rg --json` reports (file, byte start,
 * byte end), however the search is scoped and with `--hidden`, `--no-ignore`, `--max-depth`,
 * `-t/-T`, `--max-filesize`, `--follow` (links inside the root) and `--glob` (whose verdict
 * overrides ignore rules and hiddenness).
 *
 * Mapping: our `.llmignore` is ripgrep's `.rgignore` (the highest-precedence ignore file), so
 * each generated `.llmignore` gets a `.rgignore` twin with the same rules, and `.rgignore` files
 * are left out of both answers. `.git/` is never searched by us; ripgrep's `--hidden` enters
 * it, so paths inside `.git/` are left out of ripgrep's answer. ripgrep runs with
 * `--no-config --no-ignore-global` (we read no global git excludes).
 *
 * Where ripgrep 13 is known wrong we follow upstream: ripgrep 13 drops the rules of ignore
 * files in the parents of the search root when the root is given as a relative sub-path
 * (`rg pat sub` keeps `sub/x` that `/sub/x` in `./.gitignore` excludes; `rg pat $PWD/sub` and
 * `cd sub && rg pat` exclude it). Upstream ripgrep (crates/ignore/src/dir.rs, `matched_ignore`,
 * "it does fix a nasty bug") applies them however the root is spelled, so for a sub-path
 * argument ripgrep is given the absolute path and its answer is compared relative to the cwd.
 *
 * `WALK_RG_CASES=N` runs N generated trees instead of the default.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join, relative, resolve } from "node:path";
import { hasCommand, makeTree, REPO, seededRandom } from "./helpers.ts";
import { Walker } from "../core/walk/walker.ts";
import { PathFilter } from "../core/walk/path_filter.ts";
import { ToolError } from "../schema/diagnostic.ts";

const hasRg = hasCommand("rg");
/** Without git the trees are made without work trees (`.gitignore` then never applies). */
const hasGit = hasCommand("git");

const CASES = Number(Deno.env.get("WALK_RG_CASES") ?? "36");
const GLOB_CASES = CASES * 12;

type Rng = () => number;
const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)];
const chance = (rng: Rng, p: number) => rng() < p;

const DIR_NAMES = ["src", "lib", "build", "docs", ".cache", "a", "b", "node_modules", "x y"];
const FILE_NAMES = [
  "main.rs",
  "lib.rs",
  "a.md",
  "README.md",
  "notes.txt",
  "app.ts",
  "b.log",
  ".env",
  ".hidden.md",
  "#tag",
  "!bang",
  "data.json",
  "x",
  "ab",
  "trail ",
];
const IGNORE_NAMES = [".gitignore", ".ignore", ".llmignore"];

/** One random gitignore rule over the generated names. */
function randomRule(rng: Rng): string {
  const name = pick(rng, [...FILE_NAMES, ...DIR_NAMES]);
  const dir = pick(rng, DIR_NAMES);
  const forms: (() => string)[] = [
    () => name,
    () => `/${name}`,
    () => `${dir}/`,
    () => `/${dir}/`,
    () => `*.${pick(rng, ["md", "rs", "log", "txt", "ts", "json"])}`,
    () => `**/${name}`,
    () => `${dir}/**`,
    () => `${dir}/*.md`,
    () => `**/${dir}/*`,
    () => `!${name}`,
    () => `!*.${pick(rng, ["md", "rs", "log"])}`,
    () => `!${dir}/`,
    () => `[ab]*`,
    () => `[!a]*.md`,
    () => `?b`,
    () => `\\#tag`,
    () => `\\!bang`,
    () => `${name}   `,
    () => "trail\\ ",
    () => `{a,b}.md`,
    () => `*.{rs,ts}`,
    () => `# ${name}`,
    () => "",
  ];
  return pick(rng, forms)();
}

/** A generated tree: its top directory (the permission scope) and the search root in it. */
interface Fixture {
  top: string;
  root: string;
  dirs: string[];
  files: string[];
}

async function git(args: string[], cwd: string): Promise<void> {
  const output = await new Deno.Command("git", { args, cwd, stdout: "null", stderr: "piped" })
    .output();
  assert.ok(output.success, new TextDecoder().decode(output.stderr));
}

async function writeRules(dir: string, rng: Rng): Promise<void> {
  for (const name of IGNORE_NAMES) {
    if (!chance(rng, 0.45)) continue;
    const rules = Array.from({ length: 1 + Math.floor(rng() * 4) }, () => randomRule(rng));
    const text = ["# hit", ...rules].join("\n") + "\n";
    await Deno.writeTextFile(join(dir, name), text);
    if (name === ".llmignore") await Deno.writeTextFile(join(dir, ".rgignore"), text);
  }
}

async function makeFixture(rng: Rng): Promise<Fixture> {
  const top = await makeTree({});
  const nested = chance(rng, 0.6);
  const root = nested ? join(top, "proj") : top;
  const dirs = [root];
  const files: string[] = [];
  const grow = async (dir: string, depth: number) => {
    const count = 1 + Math.floor(rng() * 4);
    for (let i = 0; i < count; i++) {
      const file = join(dir, pick(rng, FILE_NAMES));
      if (files.includes(file)) continue;
      // Some files are large, for --max-filesize.
      await Deno.writeTextFile(file, "hit\n" + "y".repeat(chance(rng, 0.3) ? 3000 : 10));
      files.push(file);
    }
    if (depth >= 3) return;
    for (let i = 0; i < Math.floor(rng() * 3); i++) {
      const sub = join(dir, pick(rng, DIR_NAMES));
      if (dirs.includes(sub)) continue;
      await Deno.mkdir(sub);
      dirs.push(sub);
      await grow(sub, depth + 1);
    }
  };
  await Deno.mkdir(root, { recursive: true });
  await grow(root, 0);
  for (const dir of nested ? [top, ...dirs] : dirs) await writeRules(dir, rng);
  // Links inside the root, to files and to directories that are not their ancestors (a loop
  // is reported differently by the two tools), for --follow.
  for (let i = 0; i < 2 && chance(rng, 0.5); i++) {
    const at = pick(rng, dirs);
    const target = pick(rng, [...files, ...dirs]);
    const link = join(at, `ln${i}`);
    if (target === link || at === target || at.startsWith(target + "/")) continue;
    await Deno.symlink(relative(at, target), link);
  }
  if (hasGit && chance(rng, 0.2) && dirs.length > 1) {
    await git(["init", "-q", "."], pick(rng, dirs.slice(1)));
  }
  const gitAt = hasGit && chance(rng, 0.7) ? (chance(rng, 0.5) ? top : root) : undefined;
  if (gitAt) {
    await git(["init", "-q", "."], gitAt);
    if (chance(rng, 0.4)) {
      const rules = Array.from({ length: 2 }, () => randomRule(rng)).join("\n");
      await Deno.writeTextFile(join(gitAt, ".git", "info", "exclude"), rules + "\n");
    }
  }
  return { top, root, dirs, files };
}

/** A run of both tools: working directory, path arguments and flags. */
interface Scenario {
  cwd: string;
  paths: string[];
  flags: string[];
  scoped: boolean;
}

const GLOBS = [
  "*.md",
  "!*.md",
  "*.rs",
  "!*.log",
  ".env",
  "!.env",
  ".hidden.md",
  "*.{md,rs}",
  "!build",
  "build/**",
  "!**/node_modules/**",
  "src/*",
  "!src/",
  "[ab]*",
  "!.cache",
  ".cache/**",
  "**/a.md",
];

function randomFlags(rng: Rng): string[] {
  const flags: string[] = [];
  if (chance(rng, 0.4)) flags.push("--hidden");
  if (chance(rng, 0.3)) flags.push("--follow");
  if (chance(rng, 0.12)) flags.push("--no-ignore");
  if (chance(rng, 0.2)) flags.push("--max-depth", String(Math.floor(rng() * 4)));
  if (chance(rng, 0.15)) flags.push("--max-filesize", pick(rng, ["100", "1K", "2K"]));
  if (chance(rng, 0.2)) flags.push(...pick(rng, [["-t", "md"], ["-t", "rust"], ["-T", "md"]]));
  if (chance(rng, 0.4)) {
    for (let i = 0; i < 1 + Math.floor(rng() * 3); i++) flags.push("-g", pick(rng, GLOBS));
  }
  return flags;
}

function randomScenario(rng: Rng, fixture: Fixture): Scenario {
  const flags = randomFlags(rng);
  const scoped = chance(rng, 0.5);
  const sub = pick(rng, fixture.dirs);
  const shape = Math.floor(rng() * 4);
  if (shape === 0) return { cwd: fixture.root, paths: [], flags, scoped };
  if (shape === 1) {
    return { cwd: fixture.root, paths: [relative(fixture.root, sub) || "."], flags, scoped };
  }
  if (shape === 2) return { cwd: sub, paths: [], flags, scoped };
  const file = pick(rng, fixture.files);
  return {
    cwd: fixture.root,
    paths: [relative(fixture.root, file), relative(fixture.root, sub) || "."],
    flags,
    scoped,
  };
}

/** Match keys `absolute path:start:end`, without `.git/` contents and `.rgignore` twins. */
function keep(key: string): boolean {
  const parts = key.replace(/:\d+:\d+$/, "").split("/");
  return !parts.includes(".git") && parts[parts.length - 1] !== ".rgignore";
}

async function rgMatches(scenario: Scenario): Promise<string[]> {
  const paths = scenario.paths.map((path) => resolve(scenario.cwd, path));
  const output = await new Deno.Command("rg", {
    args: ["--json", "--no-config", "--no-ignore-global", ...scenario.flags, "hit", ...paths],
    cwd: scenario.cwd,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(output.stderr);
  // Exit 2 with this message only says that every file was filtered out.
  assert.ok(output.code <= 1 || /No files were searched/.test(stderr), `rg failed: ${stderr}`);
  const keys: string[] = [];
  for (const line of new TextDecoder().decode(output.stdout).split("\n")) {
    if (!line) continue;
    const event = JSON.parse(line);
    if (event.type !== "match") continue;
    const path = resolve(scenario.cwd, event.data.path.text);
    for (const sub of event.data.submatches) {
      const start = event.data.absolute_offset + sub.start;
      keys.push(`${path}:${start}:${event.data.absolute_offset + sub.end}`);
    }
  }
  return keys.filter(keep).sort();
}

async function ourMatches(scenario: Scenario, top: string): Promise<string[]> {
  const permission = scenario.scoped ? `--allow-read=${top}` : "--allow-read";
  const output = await new Deno.Command("deno", {
    args: [
      "run",
      "--quiet",
      "--no-prompt",
      `--config=${join(REPO, "deno.json")}`,
      permission,
      join(REPO, "tools/search/main.ts"),
      "--limit",
      "0",
      "-j",
      "1",
      ...scenario.flags,
      "hit",
      ...scenario.paths,
    ],
    cwd: scenario.cwd,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(output.stdout);
  assert.equal(
    output.code,
    0,
    `llm-search failed: ${text} ${new TextDecoder().decode(output.stderr)}`,
  );
  const envelope = JSON.parse(text);
  const keys = (envelope.data.matches as {
    span: { file_path: string; byte_start: number; byte_end: number };
  }[])
    .map(({ span }) =>
      `${resolve(scenario.cwd, span.file_path)}:${span.byte_start}:${span.byte_end}`
    );
  return keys.filter(keep).sort();
}

function describe(seed: number, scenario: Scenario, fixture: Fixture): string {
  const tree: string[] = [];
  const list = (dir: string) => {
    for (const entry of Deno.readDirSync(dir)) {
      const path = join(dir, entry.name);
      if (entry.name === ".git") {
        tree.push(relative(fixture.top, path) + "/");
        continue;
      }
      if (entry.isDirectory) list(path);
      else if (IGNORE_NAMES.includes(entry.name)) {
        tree.push(`${relative(fixture.top, path)}: ${JSON.stringify(Deno.readTextFileSync(path))}`);
      } else tree.push(relative(fixture.top, path));
    }
  };
  list(fixture.top);
  return `seed ${seed}: cd ${relative(fixture.top, scenario.cwd) || "."} && search ${
    JSON.stringify([...scenario.flags, ...scenario.paths])
  } (${scenario.scoped ? "scoped" : "unscoped"})\n  ${tree.sort().join("\n  ")}`;
}

Deno.test({
  name: "the walk agrees with ripgrep on generated trees, however the search is scoped (needs rg)",
  ignore: !hasRg,
  async fn() {
    let compared = 0;
    for (let seed = 1; seed <= CASES; seed++) {
      const rng = seededRandom(seed);
      const fixture = await makeFixture(rng);
      try {
        for (let i = 0; i < 2; i++) {
          const scenario = randomScenario(rng, fixture);
          const [expected, actual] = await Promise.all([
            rgMatches(scenario),
            ourMatches(scenario, fixture.top),
          ]);
          compared += expected.length;
          const missing = expected.filter((key) => !actual.includes(key));
          const extra = actual.filter((key) => !expected.includes(key));
          assert.ok(
            missing.length === 0 && extra.length === 0,
            `${describe(seed, scenario, fixture)}\nmissing: ${missing.join(", ")}\nextra: ${
              extra.join(", ")
            }`,
          );
        }
      } finally {
        await Deno.remove(fixture.top, { recursive: true });
      }
    }
    // The generated cases must exercise the walk, not agree on empty answers.
    assert.ok(compared > CASES * 2, `only ${compared} matches compared`);
  },
});

const GLOB_ALPHABET = ["a", "b", "*", "?", "[", "]", "{", "}", ",", "\\", "!", "-", "/", "^", "."];
const GLOB_TREE = [
  "a",
  "b",
  "ab",
  "a-b",
  "a.b",
  "[a]",
  "{b}",
  "a,b",
  "!a",
  "^b",
  "*",
  "d/a",
  "d/ab/b",
  "e/a.b",
  ".a",
];

function rgFiles(cwd: string, args: string[]): { code: number; files: string[]; stderr: string } {
  const output = new Deno.Command("rg", {
    args: ["--files", "--no-config", "--no-ignore-global", "--hidden", ...args],
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).outputSync();
  const files = new TextDecoder().decode(output.stdout).split("\n").filter(Boolean).sort();
  return { code: output.code, files, stderr: new TextDecoder().decode(output.stderr) };
}

Deno.test({
  name: "globs: ripgrep's refusals are ours and accepted globs select the same files (needs rg)",
  ignore: !hasRg,
  async fn() {
    const files: Record<string, string> = {};
    for (const path of GLOB_TREE) files[path] = "hit\n";
    const root = await makeTree(files);
    try {
      const rng = seededRandom(7);
      let refused = 0;
      for (let i = 0; i < GLOB_CASES; i++) {
        const glob = Array.from(
          { length: 1 + Math.floor(rng() * 6) },
          () => pick(rng, GLOB_ALPHABET),
        ).join("");
        // ripgrep 13 refuses an escaped trailing slash as a dangling escape; upstream ripgrep
        // reads `x\\/` as `x/` (BurntSushi/ripgrep#2236), and so do we: ripgrep is asked about
        // the unescaped spelling.
        // (`\\/` alone differs: unescaped it would be an anchored empty rule.)
        if (glob.replace(/^!/, "") === "\\/") continue;
        const upstream = /(^|[^\\])(\\\\)*\\\/$/.test(glob) ? glob.slice(0, -2) + "/" : glob;
        const rg = rgFiles(root, ["-g", upstream]);
        const rgRefused = rg.code === 2 && /error parsing glob/.test(rg.stderr);
        let ours: string[] | undefined;
        try {
          new PathFilter("LMS", [glob]);
          const walker = new Walker({
            tool: "llm-search",
            prefix: "LMS",
            cwd: root,
            hidden: true,
            globs: [glob],
          });
          ours = [...walker.entries()].map((entry) => entry.filePath).sort();
        } catch (error) {
          if (!(error instanceof ToolError) || error.code !== "LMS-ARG-004") throw error;
        }
        assert.equal(ours === undefined, rgRefused, `glob ${JSON.stringify(glob)}: ${rg.stderr}`);
        if (ours) assert.deepEqual(ours, rg.files, `glob ${JSON.stringify(glob)}`);
        else refused++;
      }
      assert.ok(refused > 20, `only ${refused} invalid globs generated`);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});
