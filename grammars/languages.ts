/**
 * The language registry: every grammar of `npm:tree-sitter-wasms@0.1.13`, with its names, the
 * files it parses and whether `npm:web-tree-sitter@0.25.10` can load it. The grammars
 * themselves are embedded in `grammars/wasm/` (see `scripts/grammars.ts`), so loading one needs
 * no permission at all.
 *
 * This module is plain data with no imports, so anything may use it without loading a grammar.
 *
 * @module
 */

/** One language of the registry. */
export interface LanguageInfo {
  /** Registry name, e.g. `rust`, `cpp`, `csharp`. */
  name: string;
  /** Other names accepted by `--language`, lowercase. */
  aliases: readonly string[];
  /** File extensions with their dot, lowercase, e.g. `.rs`. */
  extensions: readonly string[];
  /** Exact file names that belong to the language, e.g. `Gemfile`. */
  filenames: readonly string[];
  /** The grammar file in `tree-sitter-wasms/out/`. */
  grammar: string;
  /** Why the grammar cannot be loaded, when it cannot (the language is then unsupported). */
  unsupported?: string;
}

function language(
  name: string,
  extensions: readonly string[],
  options: { aliases?: string[]; filenames?: string[]; grammar?: string; unsupported?: string } =
    {},
): LanguageInfo {
  const info: LanguageInfo = {
    name,
    aliases: options.aliases ?? [],
    extensions,
    filenames: options.filenames ?? [],
    grammar: `tree-sitter-${options.grammar ?? name}.wasm`,
  };
  if (options.unsupported) info.unsupported = options.unsupported;
  return info;
}

/**
 * Every language of the registry, sorted by name. Three are listed but unsupported, each with
 * its reason: `yaml` (its external scanner needs symbols the web-tree-sitter 0.25 runtime does
 * not export), `elm` and `ql` (grammars built for ABI versions 0.25 no longer accepts).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LANGUAGES } from "./languages.ts";
 * assert.equal(LANGUAGES.filter((language) => !language.unsupported).length, 33);
 * ```
 */
export const LANGUAGES: readonly LanguageInfo[] = [
  language("bash", [".sh", ".bash", ".zsh", ".ksh"], {
    aliases: ["sh", "shell", "zsh"],
    filenames: [".bashrc", ".bash_profile", ".zshrc", ".profile"],
  }),
  language("c", [".c", ".h"]),
  language("cpp", [".cpp", ".cc", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++", ".inl", ".ipp"], {
    aliases: ["c++", "cxx"],
  }),
  language("csharp", [".cs", ".csx"], { aliases: ["c_sharp", "cs", "c#"], grammar: "c_sharp" }),
  language("css", [".css"]),
  language("dart", [".dart"]),
  language("elisp", [".el"], { aliases: ["emacs-lisp", "emacs_lisp"] }),
  language("elixir", [".ex", ".exs"], { aliases: ["ex"] }),
  language("elm", [".elm"], {
    unsupported: "its grammar has ABI version 12; web-tree-sitter 0.25 accepts 13 through 15",
  }),
  language("embedded_template", [".erb", ".ejs"], {
    aliases: ["erb", "ejs", "embedded-template"],
  }),
  language("go", [".go"], { aliases: ["golang"] }),
  language("html", [".html", ".htm", ".xhtml"]),
  language("java", [".java"]),
  language("javascript", [".js", ".jsx", ".mjs", ".cjs"], { aliases: ["js", "jsx", "node"] }),
  language("json", [".json", ".jsonc"]),
  language("kotlin", [".kt", ".kts"], { aliases: ["kt"] }),
  language("lua", [".lua"]),
  language("objc", [".m"], { aliases: ["objective-c", "objectivec", "obj-c"] }),
  language("ocaml", [".ml"], { aliases: ["ml"] }),
  language("php", [".php", ".phtml", ".php3", ".php4", ".php5"]),
  language("python", [".py", ".pyi", ".pyw"], { aliases: ["py", "python3"] }),
  language("ql", [".ql", ".qll"], {
    aliases: ["codeql"],
    unsupported: "its grammar has ABI version 10; web-tree-sitter 0.25 accepts 13 through 15",
  }),
  language("rescript", [".res", ".resi"], { aliases: ["res"] }),
  language("ruby", [".rb", ".rake", ".gemspec", ".ru"], {
    aliases: ["rb"],
    filenames: ["Gemfile", "Rakefile", "Guardfile", "Vagrantfile"],
  }),
  language("rust", [".rs"], { aliases: ["rs"] }),
  language("scala", [".scala", ".sc", ".sbt"]),
  language("solidity", [".sol"], { aliases: ["sol"] }),
  language("swift", [".swift"]),
  language("systemrdl", [".rdl"], { aliases: ["rdl"] }),
  language("tlaplus", [".tla"], { aliases: ["tla", "tla+"] }),
  language("toml", [".toml"], { filenames: ["Cargo.lock", "Pipfile", "poetry.lock"] }),
  language("tsx", [".tsx"]),
  language("typescript", [".ts", ".mts", ".cts"], { aliases: ["ts"] }),
  language("vue", [".vue"]),
  language("yaml", [".yaml", ".yml"], {
    aliases: ["yml"],
    unsupported: "its external scanner needs symbols that web-tree-sitter 0.25 does not export",
  }),
  language("zig", [".zig"]),
];

const byName = new Map<string, LanguageInfo>();
const byExtension = new Map<string, LanguageInfo>();
const byFilename = new Map<string, LanguageInfo>();
for (const info of LANGUAGES) {
  byName.set(info.name, info);
  for (const alias of info.aliases) byName.set(alias, info);
  for (const extension of info.extensions) byExtension.set(extension, info);
  for (const filename of info.filenames) byFilename.set(filename, info);
}

/**
 * The language a `--language` value names (registry name or alias, any case), or `undefined`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { languageByName } from "./languages.ts";
 * assert.equal(languageByName("C++")?.name, "cpp");
 * ```
 */
export function languageByName(name: string): LanguageInfo | undefined {
  return byName.get(name.toLowerCase());
}

/**
 * The language of a file by its base name: exact file names first, then the extension
 * (case-insensitive). `undefined` when no grammar parses such files.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { languageForFile } from "./languages.ts";
 * assert.equal(languageForFile("lib.rs")?.name, "rust");
 * assert.equal(languageForFile("Gemfile")?.name, "ruby");
 * assert.equal(languageForFile("notes.txt"), undefined);
 * ```
 */
export function languageForFile(basename: string): LanguageInfo | undefined {
  const exact = byFilename.get(basename);
  if (exact) return exact;
  const dot = basename.lastIndexOf(".");
  if (dot < 0) return undefined;
  return byExtension.get(basename.slice(dot).toLowerCase());
}

/**
 * Names of the languages whose grammar loads, sorted.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { supportedLanguageNames } from "./languages.ts";
 * assert.ok(supportedLanguageNames().includes("rust"));
 * assert.ok(!supportedLanguageNames().includes("yaml"));
 * ```
 */
export function supportedLanguageNames(): string[] {
  return LANGUAGES.filter((info) => !info.unsupported).map((info) => info.name);
}
