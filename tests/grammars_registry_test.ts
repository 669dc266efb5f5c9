/**
 * The grammar registry and its embedded modules: every supported language parses a sample of
 * its own without error nodes, the unsupported ones say why, every grammar loads with no
 * permission at all, and the committed modules match the SHA-256-pinned npm files.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { astSearch } from "../tools/ast-search/main.ts";
import {
  languageByName,
  languageForFile,
  LANGUAGES,
  supportedLanguageNames,
} from "../grammars/languages.ts";
import { GRAMMARS } from "../grammars/wasm/mod.ts";
import { REPO } from "./helpers.ts";

const SAMPLES = join(REPO, "tests", "fixtures", "ast", "samples");

Deno.test("registry: 36 languages, 33 supported, the others with a reason", () => {
  const names = LANGUAGES.map((info) => info.name);
  assert.equal(names.length, 36);
  assert.equal(new Set(names).size, names.length);
  assert.deepEqual([...names].sort(), names);
  const unsupported = LANGUAGES.filter((info) => info.unsupported).map((info) => info.name);
  assert.deepEqual(unsupported, ["elm", "ql", "yaml"]);
  assert.deepEqual(Object.keys(GRAMMARS).sort(), supportedLanguageNames());
  assert.equal(supportedLanguageNames().length, 33);
  for (const info of LANGUAGES) {
    assert.ok(info.extensions.length > 0, info.name);
    for (const extension of info.extensions) {
      assert.equal(languageForFile(`x${extension}`)?.name, info.name, extension);
    }
    for (const filename of info.filenames) assert.equal(languageForFile(filename)?.name, info.name);
  }
});

Deno.test("registry: names, aliases and file names", () => {
  assert.equal(languageByName("C++")?.name, "cpp");
  assert.equal(languageByName("ts")?.name, "typescript");
  assert.equal(languageByName("c#")?.name, "csharp");
  assert.equal(languageByName("yml")?.name, "yaml");
  assert.equal(languageByName("cobol"), undefined);
  assert.equal(languageForFile("Lib.RS")?.name, "rust");
  assert.equal(languageForFile("Gemfile")?.name, "ruby");
  assert.equal(languageForFile(".bashrc")?.name, "bash");
  assert.equal(languageForFile("view.tsx")?.name, "tsx");
  assert.equal(languageForFile("Makefile"), undefined);
  assert.equal(languageForFile("notes.txt"), undefined);
});

Deno.test("every supported language parses its own sample without error nodes", async () => {
  // `(ERROR)` and `(MISSING)` report what tree-sitter could not parse; the run also reports
  // every error node as an LMA-AST-001 warning.
  const { data, diagnostics } = await astSearch({
    cwd: SAMPLES,
    query: "(ERROR) @error",
    limit: 0,
    threads: 1,
  });
  assert.deepEqual(diagnostics, []);
  assert.equal(data.match_count, 0);
  assert.equal(data.files_searched, 33);
  assert.deepEqual(data.languages, supportedLanguageNames());
  // And each sample is really parsed by its grammar: it has named nodes below the root.
  const nodes = await astSearch({ cwd: SAMPLES, query: "(_ (_) @child) @parent", limit: 0 });
  const parsed = new Set(nodes.data.matches.map((match) => match.span.file_path));
  assert.equal(parsed.size, 33);
});

Deno.test("every grammar loads with no permission at all", async () => {
  const dir = await Deno.makeTempDir({ prefix: "llm-grammars-" });
  try {
    const script = join(dir, "load.ts");
    const loader = new URL("../grammars/loader.ts", import.meta.url).href;
    const languages = new URL("../grammars/languages.ts", import.meta.url).href;
    await Deno.writeTextFile(
      script,
      `import { createParser } from "${loader}";
import { supportedLanguageNames } from "${languages}";
const roots = [];
for (const name of supportedLanguageNames()) {
  const parser = await createParser(name);
  const tree = parser.parse("x");
  roots.push(name + ":" + tree.rootNode.type);
  tree.delete();
  parser.delete();
}
console.log(JSON.stringify(roots));
`,
    );
    const output = await new Deno.Command("deno", {
      args: ["run", "--quiet", "--no-prompt", `--config=${join(REPO, "deno.json")}`, script],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(output.stderr);
    assert.equal(output.code, 0, stderr);
    const roots: string[] = JSON.parse(new TextDecoder().decode(output.stdout));
    assert.deepEqual(roots.map((root) => root.split(":")[0]), supportedLanguageNames());
    assert.ok(roots.includes("rust:source_file") && roots.includes("python:module"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("embedded modules are up to date with the SHA-256-pinned npm files", async () => {
  // The script reads the npm files by path: a node_modules/ is made for it from Deno's cache, as
  // `deno task grammars` does (deno.json has none, so that the tools load packages from the cache).
  const install = await new Deno.Command("deno", {
    args: ["install", "--quiet", "--node-modules-dir=auto"],
    cwd: REPO,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(install.code, 0, new TextDecoder().decode(install.stderr));
  const output = await new Deno.Command("deno", {
    args: [
      "run",
      "--quiet",
      "--no-prompt",
      "--allow-read",
      join(REPO, "scripts", "grammars.ts"),
      "--check",
    ],
    cwd: REPO,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(output.stderr);
  assert.equal(output.code, 0, stderr);
  assert.match(stderr, /up to date \(36 files\)/);
});
