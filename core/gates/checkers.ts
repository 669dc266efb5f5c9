/**
 * The compiler gate of each language: which program checks it, with which arguments, how the
 * candidate bytes reach it and how its output is read. Every checker reads the candidate in
 * its real context without the user's file being written:
 *
 * - `stdin`: the bytes go to standard input (gcc and g++ run in the target's folder and also
 *   get it as `-iquote`, so `#include "x.h"` resolves as from the file);
 * - `copy`: a hidden copy `.llm-gate-<uuid>-<name>` beside the target, so relative imports,
 *   `mod` declarations and the nearest `package.json`/`deno.json` resolve as for the file;
 * - `folder`: a hidden folder `.llm-gate-<uuid>/` beside the target holding `<name>` (javac needs
 *   the file name to match the public class) and the compiler's output;
 * - `crate`: a hidden folder `.llm-gate-<uuid>/` in the Cargo workspace (else package) folder,
 *   or the Go module's folder, holding a copy of it with the candidate in place (`cargo check`
 *   reads a whole crate, `go vet` a whole package and the packages it imports).
 *
 * No checker runs code of the project or of the text (contract §11): each runs outside the
 * project unless it needs the project's folder (`spawn.ts`), with the variables emptied that
 * would make its toolchain load other code; cargo first asks `cargo metadata` (which builds
 * nothing) whether the crate's graph has build scripts or proc macros, and checks it only when
 * it has none or the caller allowed them. Each says what it read, so that `compiler.ts` can
 * keep text of files outside the root out of the answer.
 *
 * @module
 */
import { dirname, isAbsolute, join, relative } from "../path_syntax.ts";
import { isInside } from "../paths.ts";
import type { NativeDiagnostic } from "./native.ts";
import type { ProgramOutput } from "./spawn.ts";
import { isFile } from "./toolchain.ts";
import { checkJson } from "./json.ts";
import { checkToml } from "./toml.ts";
import { checkYaml } from "./yaml.ts";
import {
  parseBash,
  parseCargoJson,
  parseCargoMetadata,
  parseDenoCheck,
  parseDenoInfo,
  parseDepInfo,
  parseGccHeaders,
  parseGccJson,
  parseGccSearchDirs,
  parseGoVet,
  parseJavac,
  parseJavacSources,
  parseJavacVersion,
  parseNodeCheck,
  parsePythonReport,
  parsePythonVersion,
  parseRustcJson,
} from "./parsers.ts";
import { folderMayIncludeFiles, mayIncludeFiles, projectCode, projectToolchain } from "./rust.ts";

/** Where a checker runs and what it checks. */
export interface CheckContext {
  /** Real path of the workspace root. */
  root: string;
  /** Absolute folder of the target file (it exists). */
  dir: string;
  /** Base name of the target file. */
  name: string;
  /** The path diagnostics name (root-relative). */
  filePath: string;
  /** The candidate text. */
  text: string;
  /** Absolute path of the hidden copy (`copy`, `folder`, `crate`). */
  copyPath: string;
  /** Absolute path of the hidden scratch folder (`folder`, `crate`). */
  scratchDir: string;
  /** The folder of the user's tree that relative names in the program's output are under. */
  namesDir: string;
  /** The files copied into the scratch folder (`crate`), relative to it. */
  copied: string[];
  /** Whether the caller allowed the check to run the project's build scripts and proc macros. */
  allowBuildScripts: boolean;
}

/** What a check read besides the candidate, as the program names the files. */
export interface CheckInputs {
  /**
   * The files whose text its messages may quote (headers, modules, included files, the folders
   * of packages it compiled): absolute, relative to the folder it names files from (the
   * scratch folder for `crate`, else the target's), or `file:` URLs; `undefined` when it
   * cannot tell.
   */
  sources: string[] | undefined;
  /** Why it cannot tell, when it cannot. */
  unknown?: string;
  /** Configuration files it looked up: a cached verdict rests on them, their text is not shown. */
  configs: string[];
}

/** What a checker learnt before its check. */
export interface Preflight {
  /** Why the check does not run, if it does not (a note says it). */
  skip?: { code: "buildScriptsNotRun" | "compilerFailed"; reason: string };
  /** Folders of the toolchain's own files the check reads (a registry's packages). */
  toolchainDirs?: string[];
  /** Sources the check reads that it will not list (the folders of local packages). */
  sources?: string[];
}

/** Runs the checker's program with other arguments as its check runs (folder, environment). */
export type ProgramRunner = (args: string[], stdin?: Uint8Array) => Promise<ProgramOutput>;

/** A gate that runs a program. */
export interface ProgramChecker {
  /** The gate's name and the `tool` of its diagnostics (`gcc`, `node`, …). */
  name: string;
  /** The program to start: a name looked up on PATH, or an absolute path. */
  program: () => string;
  /** How the candidate reaches it. */
  input: "stdin" | "copy" | "folder" | "crate";
  /** The folder copied whole into the scratch folder (`crate`), absolute. */
  crateDir?: string;
  /** Its arguments. */
  args: (context: CheckContext) => string[];
  /**
   * The folder it runs in, when it needs one of the project's: the target's (`dir`: a project
   * configuration found from there, includes resolved as from the file) or the scratch copy
   * (`scratch`). Absent, a folder outside the project (`spawn.ts`).
   */
  cwd?: "dir" | "scratch";
  /** Environment variables to set (or empty) over the inherited ones. */
  env?: (context: CheckContext) => Record<string, string>;
  /** The arguments that make it print its version (`--version` when absent). */
  versionArgs?: string[];
  /** Its output as native diagnostics. */
  parse: (output: ProgramOutput) => NativeDiagnostic[];
  /**
   * Its version line, from the output of the check when its arguments ask the compiler for it
   * too (no second process, which for javac is a second JVM); absent, `--version` is asked.
   */
  version?: (output: ProgramOutput) => string | undefined;
  /** The names it gives the candidate in its output, besides `copyPath`. */
  candidateNames?: (context: CheckContext) => string[];
  /** Why it cannot check this file in its context, if it cannot. */
  unsupported?: (context: CheckContext) => string | undefined;
  /** Lines its standard error may start with that say nothing of the check. */
  preamble?: RegExp;
  /** Asked once the candidate is in place, before the check: whether it may run, and how. */
  preflight?: (context: CheckContext, run: ProgramRunner) => Promise<Preflight>;
  /**
   * What it read besides the candidate, from its output or records (read before the scratch
   * folder is removed), started as soon as the check is: a cached verdict holds while none of
   * the files changed, and text of a file outside the root is withheld. Absent, the check
   * reads the candidate alone and its verdict depends on the bytes alone.
   */
  inputs?: (
    context: CheckContext,
    output: Promise<ProgramOutput>,
    run: ProgramRunner,
  ) => Promise<CheckInputs>;
  /** The folders of the toolchain's own files (system headers), asked once per program. */
  toolchainDirs?: (run: ProgramRunner) => Promise<string[]>;
}

/** A gate computed in process (JSON, YAML, TOML). */
export interface InProcessChecker {
  /** The gate's name and the `tool` of its diagnostics. */
  name: string;
  /** The findings. */
  check: (text: string) => NativeDiagnostic[];
  /** Why it cannot check this file, if it cannot. */
  unsupported?: (context: CheckContext) => string | undefined;
}

/** A language's compiler gate. */
export type Checker = ProgramChecker | InProcessChecker;

/**
 * gcc or g++ on standard input in the target's folder (`#include "x.h"` resolves from there and
 * from `-iquote`), `-H` listing every header it opened. `COMPILER_PATH` is emptied: gcc looks
 * for `cc1` there first.
 */
function gcc(name: "gcc" | "g++", language: "c" | "c++"): ProgramChecker {
  return {
    name,
    program: () => name,
    input: "stdin",
    cwd: "dir",
    args: (context) => [
      "-fsyntax-only",
      "-fdiagnostics-format=json",
      "-x",
      /\.(h|hh|hpp|hxx|h\+\+)$/i.test(context.name) ? `${language}-header` : language,
      "-iquote",
      context.dir,
      "-H",
      "-",
    ],
    env: () => ({ COMPILER_PATH: "" }),
    parse: (output) => parseGccJson(output.stderr),
    inputs: async (_context, output) => ({
      sources: parseGccHeaders((await output).stderr),
      configs: [],
    }),
    toolchainDirs: async (run) =>
      parseGccSearchDirs((await run(["-E", "-v", "-x", language, "-"], new Uint8Array())).stderr),
    candidateNames: () => ["<stdin>"],
  };
}

/**
 * What `python3 -m py_compile` checks, without its bytecode file: `compile` on the bytes
 * (which honours a coding cookie, as the import system does), each warning it raises
 * (`SyntaxWarning`) and the `SyntaxError` (or `IndentationError`, `TabError`) as JSON lines.
 */
const PYTHON_CHECK = `
import json, sys, warnings
source = sys.stdin.buffer.read()
def report(kind, error_type, message, lineno, offset):
    print(json.dumps({"kind": kind, "type": error_type, "message": message,
                      "lineno": lineno, "offset": offset}))
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    try:
        compile(source, sys.argv[1], "exec", dont_inherit=True)
        failed = False
    except SyntaxError as error:
        report("error", type(error).__name__, error.msg, error.lineno, error.offset)
        failed = True
    except ValueError as error:
        report("error", type(error).__name__, str(error), None, None)
        failed = True
for warning in caught:
    report("warning", warning.category.__name__, str(warning.message), warning.lineno, None)
report("version", None, "Python " + sys.version.split()[0], None, None)
sys.exit(1 if failed else 0)
`;

/**
 * The checker isolated (`-I`: no working or script folder on `sys.path`, so a `json.py` beside
 * the file cannot stand in for the `json` it imports; no `PYTHON*` variables, no user site),
 * without `site` (`-S`: no `.pth` file runs) and writing no bytecode (`-B`).
 */
const python: ProgramChecker = {
  name: "python3",
  program: () => "python3",
  input: "stdin",
  args: (context) => ["-I", "-S", "-B", "-c", PYTHON_CHECK, context.filePath],
  parse: (output) => parsePythonReport(output.stdout),
  version: (output) => parsePythonVersion(output.stdout),
  candidateNames: (context) => [context.filePath],
};

/**
 * `node --check` parses and runs nothing, but `NODE_OPTIONS` may `--require` or `--import` a
 * module first (Yarn's Plug'n'Play puts the project's `.pnp.cjs` there): it is emptied.
 */
const node: ProgramChecker = {
  name: "node",
  program: () => "node",
  input: "copy",
  args: (context) => ["--check", context.copyPath],
  env: () => ({ NODE_OPTIONS: "" }),
  parse: (output) => parseNodeCheck(output.stderr),
  // The nearest package.json says whether a `.js` file is a module; its text is not shown.
  inputs: (context) =>
    Promise.resolve({ sources: [], configs: configChain(context.dir, ["package.json"]) }),
  unsupported: (context) =>
    /\.jsx$/i.test(context.name) ? "node --check does not parse JSX" : undefined,
};

/** The files that configure a Deno or Node project, looked for in each folder up from a file. */
const DENO_CONFIGS = ["deno.json", "deno.jsonc", "deno.lock", "package.json", "tsconfig.json"];

/** The files named `names` in `dir` and each folder above it that exist, absolute. */
function configChain(dir: string, names: string[]): string[] {
  const found: string[] = [];
  for (let folder = dir;; folder = dirname(folder)) {
    for (const name of names) {
      if (isFile(join(folder, name))) found.push(join(folder, name));
    }
    if (dirname(folder) === folder) return found;
  }
}

/** Whether a `node_modules` folder lies in `dir` or a folder above it inside `root`. */
function hasNodeModules(root: string, dir: string): boolean {
  for (let folder = dir; isInside(root, folder); folder = dirname(folder)) {
    try {
      if (Deno.statSync(join(folder, "node_modules")).isDirectory) return true;
    } catch {
      // Absent or not readable: not one Deno would use.
    }
    if (folder === root) break;
  }
  return false;
}

/**
 * The flags that keep `deno check` and `deno info` from writing into the project: no lock file
 * (`deno.lock` is written as soon as a config file is found), no `vendor/` for remote modules,
 * and a `node_modules` the project has read as it is (`manual`), else none at all (npm
 * packages from Deno's cache, where a `nodeModulesDir: "auto"` config would make one).
 */
function denoNoWrite(context: CheckContext): string[] {
  const nodeModules = hasNodeModules(context.root, context.dir) ? "manual" : "none";
  return ["--no-lock", "--vendor=false", `--node-modules-dir=${nodeModules}`];
}

/**
 * The local modules of the copy's graph, from `deno info --json` (no type check: fast), run
 * beside the check; `undefined` when it failed.
 */
async function denoGraph(context: CheckContext, run: ProgramRunner): Promise<string[] | undefined> {
  const output = await run(["info", "--json", ...denoNoWrite(context), context.copyPath]);
  return output.code === 0 ? parseDenoInfo(output.stdout) : undefined;
}

/**
 * `deno check` of a copy beside the file, in its folder (the project's `deno.json` is found
 * from there), writing nothing there ({@linkcode denoNoWrite}); its graph says which local
 * modules it read.
 */
const denoCheck: ProgramChecker = {
  name: "deno",
  program: () => Deno.execPath(),
  input: "copy",
  cwd: "dir",
  args: (context) => ["check", "--quiet", ...denoNoWrite(context), context.copyPath],
  env: () => ({ NO_COLOR: "1" }),
  parse: (output) => parseDenoCheck(output.stderr),
  inputs: async (context, _output, run) => ({
    sources: await denoGraph(context, run),
    unknown: "deno info could not list the module graph",
    configs: configChain(context.dir, DENO_CONFIGS),
  }),
  // Its cache (npm packages' types, remote modules), which `deno info` names.
  toolchainDirs: async (run) => {
    const info = JSON.parse((await run(["info", "--json"])).stdout) as { denoDir?: string };
    return info.denoDir ? [info.denoDir] : [];
  },
};

/** The package a Java file declares, or `undefined` for the default package. */
function javaPackage(text: string): string | undefined {
  return /^\s*package\s+([\w.]+)\s*;/m.exec(text)?.[1];
}

/**
 * The folder of the Java source tree the file belongs to, from its package and folder; the
 * file's own folder when that tree would reach above the root (javac would read sources there).
 */
function javaSourceRoot(context: CheckContext): string {
  const parts = javaPackage(context.text)?.split(".") ?? [];
  const dirParts = context.dir.split("/");
  const tail = dirParts.slice(dirParts.length - parts.length);
  const matches = parts.length > 0 && tail.join("/") === parts.join("/");
  const root = dirParts.slice(0, dirParts.length - parts.length).join("/") || "/";
  return matches && isInside(context.root, root) ? root : context.dir;
}

/**
 * javac with no annotation processing (`-proc:none`: processors are code found on the class
 * path), `-verbose` listing each source it parsed. The JVM's option variables are emptied
 * (`JAVA_TOOL_OPTIONS=-javaagent:x.jar` runs x.jar); it then says `Picked up …:` on stderr.
 */
const javac: ProgramChecker = {
  name: "javac",
  program: () => "javac",
  input: "folder",
  args: (context) => [
    "-version",
    "-verbose",
    "-proc:none",
    "-implicit:none",
    "-d",
    join(context.scratchDir, "classes"),
    "-sourcepath",
    javaSourceRoot(context),
    context.copyPath,
  ],
  env: () => ({ JAVA_TOOL_OPTIONS: "", _JAVA_OPTIONS: "" }),
  preamble: /^Picked up (JAVA_TOOL_OPTIONS|_JAVA_OPTIONS): $/,
  parse: (output) => parseJavac(output.stderr),
  version: (output) => parseJavacVersion(output),
  inputs: async (_context, output) => ({
    sources: parseJavacSources((await output).stderr),
    configs: [],
  }),
};

/**
 * Variables for rustup's proxies and cargo: the toolchain the project names by channel (the
 * proxies run outside the project, where its `rust-toolchain.toml` is not seen), and none of the
 * wrappers or flags a user's environment or configuration may give rustc (an empty value turns
 * each off: `CARGO_ENCODED_RUSTFLAGS` is read before every other source of flags).
 */
function rustEnv(context: CheckContext): Record<string, string> {
  const toolchain = projectToolchain(context.root, context.dir);
  return {
    RUSTC_WRAPPER: "",
    RUSTC_WORKSPACE_WRAPPER: "",
    CARGO_ENCODED_RUSTFLAGS: "",
    ...(toolchain ? { RUSTUP_TOOLCHAIN: toolchain } : {}),
  };
}

/** Why what rustc read is not known, when {@linkcode rustSources} cannot tell. */
const RUST_UNKNOWN = "rustc stopped before its dep-info listed what it read, and the sources " +
  "may include files (include!, include_str!, #[path])";

/**
 * What rustc read, from the dep-info files `dep`, complete when the check succeeded (`output`).
 * rustc writes the candidate's crate's once its macros are expanded, so after a failure it
 * lacks the candidate (`names`) when rustc stopped before: then only sources without
 * `include_str!`-like reads (`mayInclude` says whether there are any, {@linkcode
 * mayIncludeFiles}) are known to have read nothing their diagnostics do not locate.
 */
async function rustSources(
  dep: string[],
  output: Promise<ProgramOutput>,
  names: string[],
  mayInclude: () => boolean,
): Promise<string[] | undefined> {
  const complete = (await output).code === 0;
  const sources = await depInfo(dep);
  const listed = sources.some((name) => names.includes(name));
  return complete || listed || !mayInclude() ? sources : undefined;
}

/** rustc on a copy beside the file: `mod` files resolve from its folder. */
const rustc: ProgramChecker = {
  name: "rustc",
  program: () => "rustc",
  input: "copy",
  args: (context) => [
    "--edition",
    "2021",
    "--crate-type",
    /^\s*(pub\s+)?fn\s+main\s*\(/m.test(context.text) ? "bin" : "lib",
    "--crate-name",
    "llm_gate_check",
    `--emit=metadata=${join(context.scratchDir, "check.rmeta")},dep-info=${
      join(context.scratchDir, "check.d")
    }`,
    "--error-format=json",
    context.copyPath,
  ],
  env: rustEnv,
  parse: (output) => parseRustcJson(output.stderr),
  inputs: async (context, output) => {
    const sources = await rustSources(
      [join(context.scratchDir, "check.d")],
      output,
      [context.copyPath],
      () => mayIncludeFiles(context.text) || folderMayIncludeFiles(context.dir),
    );
    return { sources, unknown: RUST_UNKNOWN, configs: [] };
  },
};

/** `items` in a sentence, the first three named. */
function listed(items: string[]): string {
  const more = items.length > 3 ? ` and ${items.length - 3} more` : "";
  return items.slice(0, 3).join(", ") + more;
}

/**
 * Whether `cargo check` of the crate may run: `cargo metadata` of the copy (it resolves the
 * graph offline and builds nothing) says whether a package has a build script or a proc macro,
 * which `cargo check` would build and run; then it runs only when the caller allowed that. The
 * registry's packages are the toolchain's files; the folders of local packages elsewhere are
 * sources the check reads.
 */
async function cargoPreflight(context: CheckContext, run: ProgramRunner): Promise<Preflight> {
  const manifest = join(context.scratchDir, "Cargo.toml");
  const output = await run([
    "metadata",
    "--offline",
    "--format-version",
    "1",
    "--manifest-path",
    manifest,
  ]);
  if (output.code !== 0) {
    const crate = relative(context.root, dirname(context.scratchDir)) || ".";
    return {
      skip: {
        code: "compilerFailed",
        reason: `cargo metadata could not resolve the crate offline (exit ${output.code}); its ` +
          "output is not shown, as it may quote files outside the root: run `cargo metadata " +
          `--offline\` in ${crate} to see why`,
      },
    };
  }
  const packages = parseCargoMetadata(output.stdout);
  const code = projectCode(packages);
  if (code.length > 0 && !context.allowBuildScripts) {
    return {
      skip: {
        code: "buildScriptsNotRun",
        reason: `cargo check would build and run code of the crate's graph (${listed(code)}); ` +
          "pass --allow-build-scripts (MCP: allow_build_scripts) to run it",
      },
    };
  }
  return {
    toolchainDirs: packages.filter((found) => found.source !== null).map((found) => found.dir),
    sources: packages.filter((found) =>
      found.source === null && !isInside(context.scratchDir, found.dir)
    ).map((found) => found.dir),
  };
}

/** Whether the candidate or a Rust source of the crate's copy may include files. */
function crateMayInclude(context: CheckContext): boolean {
  return mayIncludeFiles(context.text) || context.copied.some((name) => {
    if (!name.endsWith(".rs")) return false;
    try {
      return mayIncludeFiles(Deno.readTextFileSync(join(context.scratchDir, name)));
    } catch {
      return true;
    }
  });
}

/**
 * `cargo check` of a copy of the crate's context (its workspace, else its package) with the
 * candidate in place, offline, its build folder inside the copy: the user's tree is only read.
 * It runs outside the project, so that neither a `.cargo/config.toml` (wrappers, `rustc`,
 * flags, `[env]` for rustc) nor a `rust-toolchain.toml` of the project is read, and only when
 * {@linkcode cargoPreflight} allows it.
 */
function cargo(crateDir: string): ProgramChecker {
  return {
    name: "cargo",
    program: () => "cargo",
    input: "crate",
    crateDir,
    args: (context) => [
      "check",
      "--offline",
      "--quiet",
      "--all-targets",
      "--message-format=json",
      "--manifest-path",
      join(context.scratchDir, "Cargo.toml"),
    ],
    env: (context) => ({
      CARGO_TARGET_DIR: join(context.scratchDir, "target"),
      CARGO_TERM_COLOR: "never",
      ...rustEnv(context),
    }),
    parse: (output) => parseCargoJson(output.stdout),
    preflight: cargoPreflight,
    inputs: async (context, output) => {
      await output;
      const dep = await depFiles(join(context.scratchDir, "target", "debug", "deps"));
      const names = [relative(context.scratchDir, context.copyPath), context.copyPath];
      return {
        sources: await rustSources(dep, output, names, () => crateMayInclude(context)),
        unknown: RUST_UNKNOWN,
        configs: context.copied.filter((name) =>
          /(^|\/)Cargo\.(toml|lock)$|(^|\/)build\.rs$/.test(name)
        ),
      };
    },
  };
}

/** The dep-info files (`*.d`) cargo left in `deps`, absolute; none when it wrote none. */
async function depFiles(deps: string): Promise<string[]> {
  const found: string[] = [];
  try {
    for await (const entry of Deno.readDir(deps)) {
      if (entry.isFile && entry.name.endsWith(".d")) found.push(join(deps, entry.name));
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return found;
}

/** The sources the dep-info files list (rustc writes none when it stops before expansion). */
async function depInfo(files: string[]): Promise<string[]> {
  const inputs = new Set<string>();
  for (const file of files) {
    try {
      parseDepInfo(await Deno.readTextFile(file)).forEach((input) => inputs.add(input));
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
  return [...inputs];
}

/** `bash -n`: it parses and runs nothing (not even `BASH_ENV`, emptied for every program anyway). */
const bash: ProgramChecker = {
  name: "bash",
  program: () => "bash",
  input: "stdin",
  args: () => ["-n", "/dev/stdin"],
  parse: (output) => parseBash(output.stderr),
  candidateNames: () => ["/dev/stdin"],
  unsupported: (context) =>
    /(\.(zsh|ksh)|zshrc)$/i.test(context.name)
      ? `bash -n does not check ${context.name.endsWith("ksh") ? "ksh" : "zsh"} syntax`
      : undefined,
};

/** JSON files whose tools accept comments and trailing commas (JSONC), by name. */
const JSONC_NAME = /(^|\/)(tsconfig[^/]*|jsconfig[^/]*|deno|\.vscode\/[^/]+|devcontainer)\.json$/i;

const json: InProcessChecker = {
  name: "json",
  check: checkJson,
  unsupported: (context) =>
    /\.jsonc$/i.test(context.name) || JSONC_NAME.test(context.filePath)
      ? `${context.name} is JSON with comments (JSONC), which JSON.parse rejects`
      : undefined,
};

const yaml: InProcessChecker = { name: "yaml", check: checkYaml };

const toml: InProcessChecker = { name: "toml", check: checkToml };

/** The analyzers `go test` runs through vet: a finding of theirs fails the package's tests. */
const GO_TEST_ANALYZERS = [
  "atomic",
  "bool",
  "buildtags",
  "errorsas",
  "ifaceassert",
  "nilfunc",
  "printf",
  "stringintconv",
];

/** A cgo import: the package's files then go through the C compiler, which may read any header. */
const CGO_IMPORT = /^\s*(import\s+)?"C"\s*$/m;

/**
 * The folders the module's `go.mod` (in the copy) replaces modules with, resolved from it:
 * `replace x => ../y` makes `go vet` read `../y` wherever it lies.
 */
function replacedFolders(context: CheckContext): string[] {
  let text: string;
  try {
    text = Deno.readTextFileSync(join(context.scratchDir, "go.mod"));
  } catch {
    return [];
  }
  return text.split("\n").flatMap((line) => {
    const target = /=>\s*(\S+)\s*$/.exec(line.replace(/\/\/.*$/, ""))?.[1];
    if (target === undefined || !/^(\.\.?($|\/)|\/)/.test(target)) return [];
    return [isAbsolute(target) ? target : join(context.scratchDir, target)];
  });
}

/**
 * What `go vet` read: the files of the candidate's package folder (build constraints are not
 * read), the folders `go.mod` replaces modules with, and the module's files; the standard
 * library and the module cache are the toolchain's. A cgo package's headers are not listed:
 * then what it read is unknown.
 */
function goInputs(context: CheckContext): CheckInputs {
  const candidate = relative(context.scratchDir, context.copyPath);
  const folder = dirname(candidate);
  const files = context.copied.filter((name) => dirname(name) === folder && name.endsWith(".go"));
  const cgo = CGO_IMPORT.test(context.text) || files.some((name) => {
    try {
      return CGO_IMPORT.test(Deno.readTextFileSync(join(context.scratchDir, name)));
    } catch {
      return true;
    }
  });
  return {
    sources: cgo ? undefined : [...new Set([candidate, ...files]), ...replacedFolders(context)],
    unknown: 'the package uses cgo (import "C"), whose C headers go does not list',
    configs: context.copied.filter((name) => /^go\.(mod|sum)$/.test(name)),
  };
}

/**
 * `go vet` of the candidate's package in a copy of its module with the candidate in place: Go
 * type-checks a package as a whole (its tests included). Offline (`GOPROXY=off`), with the
 * installed toolchain (`GOTOOLCHAIN=local`), outside any `go.work`, with no `GOFLAGS` from the
 * environment (`-toolexec`, `-vettool` name programs); the build cache is the user's, as for
 * any `go` command. Only the analyzers `go test` runs report findings. It runs in the copy:
 * Go 1.19 finds the module from its working folder.
 */
function goVet(moduleDir: string | undefined): ProgramChecker {
  const packageFolder = (context: CheckContext) => {
    const folder = dirname(relative(context.scratchDir, context.copyPath));
    return folder === "." ? "." : `./${folder}`;
  };
  return {
    name: "go",
    program: () => "go",
    input: "crate",
    cwd: "scratch",
    ...(moduleDir ? { crateDir: moduleDir } : {}),
    args: (context) => [
      "vet",
      ...GO_TEST_ANALYZERS.map((name) => `-${name}`),
      packageFolder(context),
    ],
    env: () => ({ GOPROXY: "off", GOTOOLCHAIN: "local", GOWORK: "off", GOFLAGS: "" }),
    versionArgs: ["version"],
    parse: (output) => parseGoVet(output.stderr),
    unsupported: () =>
      moduleDir ? undefined : "the file lies in no Go module (no go.mod above it in the root)",
    // The copy is in place before the check starts: nothing to wait for.
    inputs: (context) => Promise.resolve(goInputs(context)),
  };
}

/**
 * The compiler gate of `language` (a registry name), or `undefined` when it has none.
 * `crateDir` is the folder of the Cargo workspace (else package) a Rust file belongs to, or
 * of the Go module a Go file belongs to.
 */
export function checkerFor(language: string, crateDir?: string): Checker | undefined {
  switch (language) {
    case "c":
      return gcc("gcc", "c");
    case "cpp":
      return gcc("g++", "c++");
    case "python":
      return python;
    case "javascript":
      return node;
    case "typescript":
    case "tsx":
      return denoCheck;
    case "java":
      return javac;
    case "rust":
      return crateDir === undefined ? rustc : cargo(crateDir);
    case "go":
      return goVet(crateDir);
    case "bash":
      return bash;
    case "json":
      return json;
    case "yaml":
      return yaml;
    case "toml":
      return toml;
    default:
      return undefined;
  }
}
