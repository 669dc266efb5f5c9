/**
 * The file-type table behind `--type`/`-t` and `--type-not`/`-T`: each type is a list of
 * globs over the file's basename, as in ripgrep's `--type-list`.
 *
 * @module
 */

/** Type name → basename globs. Covers every grammar language plus common data and doc formats. */
export const FILE_TYPES: Readonly<Record<string, readonly string[]>> = {
  bash: ["*.sh", "*.bash", "*.zsh", ".bashrc", ".bash_profile", ".zshrc", "*.ksh"],
  c: ["*.c", "*.h"],
  cpp: ["*.cpp", "*.cc", "*.cxx", "*.c++", "*.hpp", "*.hh", "*.hxx", "*.h++", "*.inl", "*.ipp"],
  csharp: ["*.cs", "*.csx"],
  css: ["*.css", "*.scss"],
  dart: ["*.dart"],
  elisp: ["*.el"],
  elixir: ["*.ex", "*.exs", "*.eex", "*.heex", "*.leex"],
  elm: ["*.elm"],
  erb: ["*.erb", "*.ejs"],
  go: ["*.go"],
  html: ["*.html", "*.htm", "*.xhtml"],
  java: ["*.java"],
  js: ["*.js", "*.jsx", "*.mjs", "*.cjs", "*.vue"],
  json: ["*.json", "*.jsonc", "*.json5", "composer.lock", "*.sarif"],
  kotlin: ["*.kt", "*.kts"],
  lua: ["*.lua"],
  make: ["Makefile", "makefile", "GNUmakefile", "*.mk", "*.mak", "Kbuild", "Kconfig*"],
  md: ["*.md", "*.markdown", "*.mdx", "*.mkd", "*.mkdn"],
  objc: ["*.m", "*.h"],
  ocaml: ["*.ml", "*.mli", "*.mll", "*.mly"],
  php: ["*.php", "*.php3", "*.php4", "*.php5", "*.phtml"],
  py: ["*.py", "*.pyi", "*.pyw"],
  ql: ["*.ql", "*.qll"],
  rescript: ["*.res", "*.resi"],
  ruby: ["*.rb", "*.rake", "*.gemspec", "Gemfile", "Rakefile", "*.ru"],
  rust: ["*.rs"],
  scala: ["*.scala", "*.sc", "*.sbt"],
  solidity: ["*.sol"],
  swift: ["*.swift"],
  systemrdl: ["*.rdl"],
  tlaplus: ["*.tla"],
  toml: ["*.toml", "Cargo.lock"],
  ts: ["*.ts", "*.tsx", "*.mts", "*.cts"],
  txt: ["*.txt"],
  vue: ["*.vue"],
  yaml: ["*.yaml", "*.yml"],
  zig: ["*.zig"],
};

/** Every known type name, sorted. */
export const FILE_TYPE_NAMES: readonly string[] = Object.keys(FILE_TYPES).sort();
