/**
 * The compiler gate of each language: which program checks it, with which arguments, how the
 * candidate bytes reach it and how its output is read. Every checker reads the candidate in
 * its real context without the user's file being written:
 *
 * - `stdin`: the bytes go to standard input, the working directory is the target's folder
 *   (gcc and g++ also get it as `-iquote`, so `#include "x.h"` resolves as from the file);
 * - `copy`: a hidden copy `.llm-gate-<uuid>-<name>` beside the target, so relative imports,
 *   `mod` declarations and the nearest `package.json`/`deno.json` resolve as for the file;
 * - `folder`: a hidden folder `.llm-gate-<uuid>/` beside the target holding `<name>` (javac needs
 *   the file name to match the public class) and the compiler's output;
 * - `crate`: a hidden folder `.llm-gate-<uuid>/` in the Cargo workspace (else package) folder,
 *   or the Go module's folder, holding a copy of it with the candidate in place (`cargo check`
 *   reads a whole crate, `go vet` a whole package and the packages it imports).
 *
 * @module
 */
import { dirname, join, relative } from "../path_syntax.ts";
import type { NativeDiagnostic } from "./native.ts";
import { isFile } from "./toolchain.ts";
import { checkJson } from "./json.ts";
import { checkToml } from "./toml.ts";
import { checkYaml } from "./yaml.ts";
import {
  parseBash,
  parseCargoJson,
  parseDenoCheck,
  parseDenoInfo,
  parseDepInfo,
  parseGccHeaders,
  parseGccJson,
  parseGoVet,
  parseJavac,
  parseJavacSources,
  parseJavacVersion,
  parseNodeCheck,
  parsePythonReport,
  parsePythonVersion,
  parseRustcJson,
} from "./parsers.ts";

/** Where a checker runs and what it checks. */
export interface CheckContext {
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
  /** Whether the checker should say what it read (a cache will keep the verdict). */
  collectInputs: boolean;
}

/** What a program printed. */
export interface ProgramOutput {
  /** Exit code. */
  code: number;
  /** Standard output, decoded. */
  stdout: string;
  /** Standard error, decoded. */
  stderr: string;
}

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
  /** Environment variables to add. */
  env?: Record<string, string>;
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
  /**
   * The files it read besides the candidate, as it names them (absolute, relative to its
   * working folder, or in the scratch folder), from its output or records (read before the
   * scratch folder is removed): a cached verdict holds while none of them changed. Absent, the
   * verdict depends on the bytes alone.
   */
  inputs?: (context: CheckContext, output: ProgramOutput) => Promise<string[]>;
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

function gcc(name: "gcc" | "g++", language: "c" | "c++"): ProgramChecker {
  return {
    name,
    program: () => name,
    input: "stdin",
    args: (context) => [
      "-fsyntax-only",
      "-fdiagnostics-format=json",
      "-x",
      /\.(h|hh|hpp|hxx|h\+\+)$/i.test(context.name) ? `${language}-header` : language,
      "-iquote",
      context.dir,
      ...(context.collectInputs ? ["-H"] : []),
      "-",
    ],
    parse: (output) => parseGccJson(output.stderr),
    inputs: (_context, output) => Promise.resolve(parseGccHeaders(output.stderr)),
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

const python: ProgramChecker = {
  name: "python3",
  program: () => "python3",
  input: "stdin",
  args: (context) => ["-c", PYTHON_CHECK, context.filePath],
  env: { PYTHONDONTWRITEBYTECODE: "1" },
  parse: (output) => parsePythonReport(output.stdout),
  version: (output) => parsePythonVersion(output.stdout),
  candidateNames: (context) => [context.filePath],
};

const node: ProgramChecker = {
  name: "node",
  program: () => "node",
  input: "copy",
  args: (context) => ["--check", context.copyPath],
  parse: (output) => parseNodeCheck(output.stderr),
  inputs: (context) => Promise.resolve(configChain(context.dir, ["package.json"])),
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

/** The local modules of the copy's graph, from `deno info --json` (no type check: fast). */
async function denoGraph(context: CheckContext): Promise<string[]> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", context.copyPath],
    cwd: context.dir,
    env: { NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).output();
  if (!output.success) return [];
  return parseDenoInfo(new TextDecoder().decode(output.stdout));
}

const denoCheck: ProgramChecker = {
  name: "deno",
  program: () => Deno.execPath(),
  input: "copy",
  args: (context) => ["check", "--quiet", context.copyPath],
  env: { NO_COLOR: "1" },
  parse: (output) => parseDenoCheck(output.stderr),
  inputs: async (context) => [
    ...await denoGraph(context),
    ...configChain(context.dir, DENO_CONFIGS),
  ],
};

/** The package a Java file declares, or `undefined` for the default package. */
function javaPackage(text: string): string | undefined {
  return /^\s*package\s+([\w.]+)\s*;/m.exec(text)?.[1];
}

/** The folder of the Java source tree the file belongs to, from its package and folder. */
function javaSourceRoot(context: CheckContext): string {
  const parts = javaPackage(context.text)?.split(".") ?? [];
  const dirParts = context.dir.split("/");
  const tail = dirParts.slice(dirParts.length - parts.length);
  const matches = parts.length > 0 && tail.join("/") === parts.join("/");
  return matches ? dirParts.slice(0, dirParts.length - parts.length).join("/") || "/" : context.dir;
}

const javac: ProgramChecker = {
  name: "javac",
  program: () => "javac",
  input: "folder",
  args: (context) => [
    "-version",
    ...(context.collectInputs ? ["-verbose"] : []),
    "-proc:none",
    "-implicit:none",
    "-d",
    join(context.scratchDir, "classes"),
    "-sourcepath",
    javaSourceRoot(context),
    context.copyPath,
  ],
  parse: (output) => parseJavac(output.stderr),
  version: (output) => parseJavacVersion(output),
  inputs: (_context, output) => Promise.resolve(parseJavacSources(output.stderr)),
};

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
  parse: (output) => parseRustcJson(output.stderr),
  inputs: (context) => depInfo([join(context.scratchDir, "check.d")]),
};

/**
 * `cargo check` of a copy of the crate's context (its workspace, else its package) with the
 * candidate in place, offline, its build folder inside the copy: the user's tree is only read.
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
    env: { CARGO_TARGET_DIR: "target", CARGO_TERM_COLOR: "never" },
    parse: (output) => parseCargoJson(output.stdout),
    inputs: async (context) => [
      ...await depInfo(await depFiles(join(context.scratchDir, "target", "debug", "deps"))),
      ...context.copied.filter((name) => /(^|\/)Cargo\.(toml|lock)$|(^|\/)build\.rs$/.test(name)),
    ],
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

/**
 * `go vet` of the candidate's package in a copy of its module with the candidate in place: Go
 * type-checks a package as a whole (its tests included). Offline (`GOPROXY=off`), with the
 * installed toolchain (`GOTOOLCHAIN=local`), outside any `go.work`; the build cache is the
 * user's, as for any `go` command. Only the analyzers `go test` runs report findings.
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
    ...(moduleDir ? { crateDir: moduleDir } : {}),
    args: (context) => [
      "vet",
      ...GO_TEST_ANALYZERS.map((name) => `-${name}`),
      packageFolder(context),
    ],
    env: { GOPROXY: "off", GOTOOLCHAIN: "local", GOWORK: "off" },
    versionArgs: ["version"],
    parse: (output) => parseGoVet(output.stderr),
    unsupported: () =>
      moduleDir ? undefined : "the file lies in no Go module (no go.mod above it in the root)",
    // The files of its package folder (build constraints are not read) and the module's files.
    inputs: (context) => {
      const candidate = relative(context.scratchDir, context.copyPath);
      const folder = dirname(candidate);
      const read = context.copied.filter((name) =>
        (dirname(name) === folder && name.endsWith(".go")) || /^go\.(mod|sum)$/.test(name)
      );
      return Promise.resolve([...new Set([candidate, ...read])]);
    },
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
