/**
 * The one registry of error codes (contract §4): every code any tool can emit, with its
 * meaning, likely cause, remediation and the exit code it leads to. `--explain CODE` on every
 * tool prints an entry of this table.
 *
 * Codes read `{PREFIX}-{CATEGORY}-{NNN}`. Besides the contract's categories, `INT` marks an
 * internal error (a bug: exit 5).
 *
 * @module
 */
import {
  LLM_AST_SEARCH,
  LLM_CONTEXT,
  LLM_DISCOVER,
  LLM_LOG,
  LLM_MCP,
  LLM_REFACTOR,
  LLM_SEARCH,
  LLM_SYMBOLS,
  LLM_TRANSFORM,
  LLM_VALIDATE,
  LLM_WRITE,
} from "./tool_names.ts";

/** Tool prefixes of the contract. */
export type CodePrefix =
  | "LMS"
  | "LMA"
  | "LMD"
  | "LMT"
  | "MAG"
  | "SPL"
  | "LFW"
  | "LMV"
  | "MCP"
  | "LML"
  | "LMC";

/** One registry entry. */
export interface ErrorCodeEntry {
  /** The code, e.g. `LMS-QRY-001`. */
  code: string;
  /** What happened, in one line. */
  meaning: string;
  /** The usual reason it happens. */
  cause: string;
  /** What to do about it. */
  remediation: string;
  /** The process exit code a run that fails with this code ends with. */
  exit: number;
}

/**
 * Exit codes of the contract (§6).
 *
 * @example Exit with the status of a refused input
 * ```ts
 * import assert from "node:assert/strict";
 * import { EXIT } from "@llm/search";
 * assert.equal(EXIT.badInput, 2);
 * ```
 */
export const EXIT = {
  ok: 0,
  pending: 1,
  badInput: 2,
  refused: 3,
  permission: 4,
  internal: 5,
} as const;

const TOOL_OF_PREFIX: Record<CodePrefix, string> = {
  LMS: LLM_SEARCH,
  LMA: LLM_AST_SEARCH,
  LMD: LLM_DISCOVER,
  LMT: LLM_TRANSFORM,
  MAG: LLM_SYMBOLS,
  SPL: LLM_REFACTOR,
  LFW: LLM_WRITE,
  LMV: LLM_VALIDATE,
  MCP: LLM_MCP,
  LML: LLM_LOG,
  LMC: LLM_CONTEXT,
};

type EntryText = Omit<ErrorCodeEntry, "code">;

/** `*-PERM-013` of each tool that writes files (llm-transform, llm-write, llm-refactor). */
const STATE_FOLDER_TARGET: EntryText = {
  meaning: "A path to write lies in `.llm/`, the toolkit's state folder; nothing was written.",
  cause: "The path (or a symbolic link or `..` on its way) leads into `<root>/.llm/`, where " +
    "the toolkit keeps its journals, indexes and logs: a file written there could forge a " +
    "journal that an undo follows, or break an index.",
  remediation: "Write the file elsewhere in the root; the toolkit manages `.llm/` itself " +
    "(undo with --undo, rebuild the index with `llm-symbols index`, or delete `.llm/` by hand).",
  exit: EXIT.permission,
};

/** Codes the shared framework and walker emit, the same for every prefix. */
function commonCodes(prefix: CodePrefix): Record<string, EntryText> {
  const tool = TOOL_OF_PREFIX[prefix];
  return {
    [`${prefix}-ARG-001`]: {
      meaning: "A command-line flag or argument is unknown or malformed.",
      cause: "A typo in a flag name, a missing value after a flag, or a flag another tool takes.",
      remediation: `Run \`${tool} --help\` for the flags it accepts.`,
      exit: EXIT.badInput,
    },
    [`${prefix}-ARG-002`]: {
      meaning: "The input does not satisfy the tool's input schema.",
      cause: "A value of the wrong type, out of range, or a required field left out.",
      remediation:
        "Fix the field named in the diagnostic; the tool's JSON Schema lists every field.",
      exit: EXIT.badInput,
    },
    [`${prefix}-ARG-003`]: {
      meaning: "Unknown file type in --type or --type-not.",
      cause: "The type name is not in the file-type table.",
      remediation: "Use one of the type names listed in the diagnostic's note.",
      exit: EXIT.badInput,
    },
    [`${prefix}-ARG-004`]: {
      meaning: "A --glob pattern is invalid.",
      cause: "Unbalanced brackets or braces in the glob.",
      remediation: "Correct the glob; `!` at its start negates it.",
      exit: EXIT.badInput,
    },
    [`${prefix}-ARG-005`]: {
      meaning: "Text input is not valid UTF-8; nothing was done with it.",
      cause: "A plan, a snippet or other text on standard input or in a named file holds bytes " +
        "that are not UTF-8 (e.g. Latin-1), or a JSON string holds a lone surrogate escape " +
        '(`"\\ud800"`) that UTF-8 cannot encode; read loosely, it would become U+FFFD.',
      remediation: "Convert the text to UTF-8 first (e.g. `iconv -f latin1 -t utf-8`); to " +
        "write a file's exact bytes, pipe them to `llm-write --path FILE` on standard input.",
      exit: EXIT.badInput,
    },
    [`${prefix}-IO-001`]: {
      meaning: "A path given on the command line does not exist.",
      cause:
        "A typo, a relative path resolved against another working directory, or a file removed.",
      remediation: "Check the path; relative paths are resolved against the current directory.",
      exit: EXIT.badInput,
    },
    [`${prefix}-IO-002`]: {
      meaning: "A file or directory could not be read and was skipped.",
      cause: "The operating system refused access (EACCES) or the entry vanished during the walk.",
      remediation: "Fix the entry's permissions, or ignore it with --glob '!path'.",
      exit: EXIT.badInput,
    },
    [`${prefix}-IO-003`]: {
      meaning: "A symbolic link was not followed.",
      cause: "The link forms a loop, or it points outside the root while --follow is off.",
      remediation:
        "Name the target as a path of its own, or pass --follow for links inside the root.",
      exit: EXIT.badInput,
    },
    [`${prefix}-IO-004`]: {
      meaning: "A path that must name a readable file names something else.",
      cause:
        "The path is a directory, a FIFO or device, contains a NUL byte, or is not a valid file name.",
      remediation: "Name a regular file (a directory is not accepted where a file is expected).",
      exit: EXIT.badInput,
    },
    [`${prefix}-IO-005`]: {
      meaning: "A line of an ignore file is not a valid glob; the line was skipped.",
      cause: "Unbalanced brackets or braces, a reversed range or a dangling backslash in a rule.",
      remediation:
        "Correct the line named in the diagnostic (escape a literal `[` or `{` with `\\`).",
      exit: EXIT.ok,
    },
    [`${prefix}-IO-006`]: {
      meaning: "A file or directory name is not valid UTF-8; the entry was skipped.",
      cause:
        "The name holds bytes that are not UTF-8 (e.g. Latin-1); Deno cannot name such a path exactly.",
      remediation:
        "Rename the entry to a UTF-8 name (e.g. `convmv -f latin1 -t utf8`); the rest of the run is unaffected.",
      exit: EXIT.ok,
    },
    [`${prefix}-IO-020`]: {
      meaning: "The run's record was not written to the execution log; the run itself went on.",
      cause:
        "No write permission for <root>/.llm/log (a read-only run given --log), or the folder cannot be created or written.",
      remediation:
        "Add --allow-write=<root>/.llm to the deno command (read-only tools log only when it is granted).",
      exit: EXIT.ok,
    },
    [`${prefix}-IO-021`]: {
      meaning:
        "One run's record is larger than the execution log's size cap; it is logged without its results.",
      cause:
        "The run produced a result larger than the cap (16 MiB, or the server's --log-max-bytes).",
      remediation:
        "Narrow the query so its result is smaller, or raise the server's --log-max-bytes.",
      exit: EXIT.ok,
    },
    [`${prefix}-PERM-020`]: {
      meaning: "The execution log's folder is a symbolic link or not a directory; it is not used.",
      cause:
        "<root>/.llm or <root>/.llm/log is a link (perhaps planted to redirect writes out of the root) or a file.",
      remediation: "Remove the link or file; the tools recreate the folder as a real directory.",
      exit: EXIT.permission,
    },
    [`${prefix}-PERM-001`]: {
      meaning: "The run lacks read permission for a path it needs.",
      cause: "Deno was started without --allow-read, or with --allow-read scoped to other paths.",
      remediation:
        "Add --allow-read (or --allow-read=<path> covering the path) to the deno command.",
      exit: EXIT.permission,
    },
    [`${prefix}-PERM-002`]: {
      meaning: "The run lacks write permission for a path it must change.",
      cause: "Deno was started without --allow-write, or with --allow-write scoped to other paths.",
      remediation:
        "Add --allow-write (or --allow-write=<path> covering the path) to the deno command.",
      exit: EXIT.permission,
    },
    [`${prefix}-PERM-003`]: {
      meaning: "The run lacks a permission other than read or write.",
      cause: "The operation needs environment, network or subprocess access it was not given.",
      remediation: "Add the Deno flag the diagnostic names, scoped as narrowly as you like.",
      exit: EXIT.permission,
    },
    [`${prefix}-INT-001`]: {
      meaning: "Internal error: the tool failed in a way it does not expect.",
      cause: "A bug in the tool.",
      remediation: "Re-run with --debug for the stack trace and report it with the input.",
      exit: EXIT.internal,
    },
  };
}

/**
 * Tool prefixes whose runs pass files through the validation gates (`core/gates/`): `llm-write`
 * (`LFW`), `llm-transform --validate` (`LMT`), `llm-validate` (`LMV`) and `llm-refactor` (`SPL`).
 * Each gets every gate
 * code under its own prefix, so a refusal names the tool that refused.
 */
export type GatePrefix = "LFW" | "LMT" | "LMV" | "SPL";

/** The prefixes of {@linkcode GatePrefix}, in registry order. */
export const GATE_PREFIXES: readonly GatePrefix[] = ["LFW", "LMT", "LMV", "SPL"];

/**
 * The category and number of each gate code; the full code is `{prefix}-{suffix}` (see
 * {@linkcode gateCode}).
 */
export const GATE_CODE_SUFFIXES = {
  /** The syntax gate found an ERROR or MISSING node. */
  syntax: "AST-101",
  /** The syntax gate could not run (no grammar loads the language, or the parser failed). */
  syntaxSkipped: "AST-102",
  /** A compiler gate reported an error. */
  compilerError: "V-101",
  /** A compiler gate reported a warning or a note. */
  compilerWarning: "V-102",
  /** A compiler gate was skipped: its compiler is not on PATH. */
  compilerMissing: "V-103",
  /** A compiler gate was skipped: the run may not start the compiler (`--allow-run`). */
  runNotAllowed: "V-104",
  /** A compiler gate ran past its time limit and was stopped. */
  timeout: "V-105",
  /** A compiler gate could not run: the compiler failed to start or crashed. */
  compilerFailed: "V-106",
  /** No compiler gate exists for the language. */
  noCompilerGate: "V-107",
  /** A compiler gate was skipped: the run may not write the hidden copy it checks. */
  copyNotAllowed: "V-108",
  /** A compiler gate was skipped: it cannot check this file in its context. */
  contextUnsupported: "V-109",
  /** A compiler gate was skipped: it would run the project's code (build scripts, proc macros). */
  buildScriptsNotRun: "V-110",
  /** A compiler gate's messages are withheld: they may quote a file outside the root. */
  textWithheld: "V-111",
  /** The language asked for is not in the grammar registry. */
  unknownLanguage: "ARG-101",
  /** The file to validate lies outside the root. */
  outsideRoot: "PERM-101",
} as const;

/** The name of a gate code. */
export type GateCodeName = keyof typeof GATE_CODE_SUFFIXES;

/**
 * The registry code of gate code `name` under `prefix`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { gateCode } from "@llm/search/schema";
 * assert.equal(gateCode("LFW", "syntax"), "LFW-AST-101");
 * ```
 */
export function gateCode(prefix: GatePrefix, name: GateCodeName): string {
  return `${prefix}-${GATE_CODE_SUFFIXES[name]}`;
}

const GATE_ENTRIES: Record<GateCodeName, EntryText> = {
  syntax: {
    meaning:
      "The syntax gate rejected the file: the parser found a syntax error at the span given.",
    cause: "An unbalanced bracket, a missing token or text the language does not allow.",
    remediation: "Fix the code at the line and column given (`missing X`: insert X there).",
    exit: EXIT.refused,
  },
  syntaxSkipped: {
    meaning: "The syntax gate did not run for the file; the other gates still decided.",
    cause:
      "No embedded grammar parses the language (yaml, elm, ql), or the parser failed on the file.",
    remediation: "Nothing to do; check the file's syntax by other means if no compiler gate ran.",
    exit: EXIT.ok,
  },
  compilerError: {
    meaning: "A compiler gate rejected the file; the message is the compiler's own.",
    cause: "A type, name or syntax error that the language's compiler reports.",
    remediation:
      "Fix the code at the line and column given; `native_code` is the compiler's own code.",
    exit: EXIT.refused,
  },
  compilerWarning: {
    meaning: "A compiler gate reported a warning or a note; the file was not rejected for it.",
    cause: "Code that compiles but that the compiler finds suspect.",
    remediation: "Read the compiler's message; fix it if it is a real problem.",
    exit: EXIT.ok,
  },
  compilerMissing: {
    meaning: "A compiler gate was skipped: its compiler is not on PATH; the syntax gate decided.",
    cause: "The toolchain of the language is not installed, or not on the PATH of the run.",
    remediation: "Install the compiler named in the note (or put it on PATH) to have it check.",
    exit: EXIT.ok,
  },
  runNotAllowed: {
    meaning:
      "A compiler gate was skipped: the run may not start the compiler; the syntax gate decided.",
    cause: "Deno was started without --allow-run, or with --allow-run scoped to other programs.",
    remediation:
      "Add --allow-run=<compiler> (the one named in the note) to the deno command to run the gate.",
    exit: EXIT.ok,
  },
  timeout: {
    meaning: "A compiler gate ran past its time limit and was stopped; it did not decide.",
    cause: "A large file or a slow toolchain (a first `cargo check` builds the dependencies).",
    remediation: "Raise the gate timeout, or check the file with the compiler directly.",
    exit: EXIT.ok,
  },
  compilerFailed: {
    meaning: "A compiler gate could not run: the compiler failed to start or crashed.",
    cause: "A broken installation, a compiler killed by a signal, or a temporary file refused.",
    remediation: "Run the compiler named in the note by hand to see why it fails.",
    exit: EXIT.ok,
  },
  noCompilerGate: {
    meaning: "No compiler gate exists for the file's language; only the syntax gate checked it.",
    cause: "The toolkit runs compilers for C, C++, Python, JavaScript, TypeScript, Java, Rust, " +
      "Go, shell, and parsers for JSON, YAML and TOML only.",
    remediation: "Nothing to do; check the file with its language's own tools if it matters.",
    exit: EXIT.ok,
  },
  copyNotAllowed: {
    meaning: "A compiler gate was skipped: the run may not write the hidden copy it checks.",
    cause: "node, deno, javac and rustc check a hidden copy beside the file (cargo a copy of " +
      "the crate in its folder, go one of the module) so imports resolve, which needs write " +
      "permission there; read-only runs lack it.",
    remediation: "Add --allow-write for the file's folder to run the gate (the copy is removed " +
      "at once; the file itself is never written).",
    exit: EXIT.ok,
  },
  contextUnsupported: {
    meaning: "A compiler gate was skipped: it cannot check this file in its context.",
    cause: "A Rust file no target of its Cargo package includes (no `mod` names it), a Go " +
      "file in no module (no go.mod), a crate or module too large to copy, JSX for node, zsh for bash, JSON with comments, or a folder " +
      "outside the root.",
    remediation: "Check the file with the project's own build (e.g. `cargo check`) after writing.",
    exit: EXIT.ok,
  },
  buildScriptsNotRun: {
    meaning: "A compiler gate was skipped: its check would run code of the project, which no " +
      "gate does unless asked; the syntax gate decided.",
    cause: "The Rust crate's graph (`cargo metadata`) has a build script (`build.rs`) or a proc " +
      "macro crate, which `cargo check` builds and runs; the file checked may be the build " +
      "script itself.",
    remediation: "If you trust the project's code, pass --allow-build-scripts (MCP: " +
      "allow_build_scripts: true) to run the check; otherwise run `cargo check` yourself.",
    exit: EXIT.ok,
  },
  textWithheld: {
    meaning: "A compiler gate's verdict stands, but the text of its messages (all of them, or " +
      "those in a file outside the root) is withheld: it may quote a file outside the root.",
    cause: "The checked code made the compiler read a file outside the root (`#include " +
      '"/abs/x.h"`, `include_str!`, an import of `../../x.ts`, a link that points out), or the ' +
      "compiler stopped before it could say which files it read.",
    remediation: "Fix the file at the positions and codes given, or run the compiler yourself; " +
      "keep includes and imports inside the project.",
    exit: EXIT.ok,
  },
  outsideRoot: {
    meaning: "The file to validate lies outside the root; it was not checked.",
    cause: "An absolute path or `..` that leaves the root, or a link that points out of it.",
    remediation: "Name a file inside the root (the working directory, or the server's --root).",
    exit: EXIT.permission,
  },
  unknownLanguage: {
    meaning: "The language given for validation is unknown.",
    cause: "The language name or alias is not in the grammar registry.",
    remediation: "Give a registry language name (e.g. `c`, `python`, `typescript`), or leave " +
      "the language out to take it from the file name.",
    exit: EXIT.badInput,
  },
};

/** The gate codes of every gate prefix. */
function gateCodes(prefix: GatePrefix): Record<string, EntryText> {
  const names = Object.keys(GATE_ENTRIES) as GateCodeName[];
  return Object.fromEntries(names.map((name) => [gateCode(prefix, name), GATE_ENTRIES[name]]));
}

const SPECIFIC_CODES: Record<string, EntryText> = {
  // llm-search
  "LMS-QRY-001": {
    meaning: "A search pattern is not a valid JavaScript regular expression.",
    cause: "Unbalanced parentheses or brackets, a dangling quantifier, or PCRE-only syntax.",
    remediation: "Fix the pattern at the position given, or pass -F to search it as fixed text.",
    exit: EXIT.badInput,
  },
  "LMS-QRY-002": {
    meaning: "No search pattern was given.",
    cause: "Neither a positional PATTERN nor any -e/--regexp was given.",
    remediation: "Give a pattern: `llm-search PATTERN [PATH...]` or `-e PATTERN`.",
    exit: EXIT.badInput,
  },
  "LMS-QRY-003": {
    meaning:
      "The search ran out of its time budget (--timeout); the results found so far are kept.",
    cause:
      "A tree, or a file (named), too large to search in the budget; patterns run in time linear in the text under a budget.",
    remediation: "Narrow the paths or the file types, or raise --timeout.",
    exit: EXIT.ok,
  },
  "LMS-QRY-004": {
    meaning:
      "A search with a time budget or a cancel (--timeout, every MCP call) cannot run this pattern.",
    cause:
      "A backreference or a look-around of more than one character needs a backtracking matcher, which can take time exponential in a line and cannot be stopped; under a bound, patterns run on a linear-time matcher instead.",
    remediation:
      "Rewrite the pattern without backreferences and multi-character look-arounds (ripgrep refuses them too), or run it on the command line without --timeout.",
    exit: EXIT.badInput,
  },
  // llm-context
  "LMC-ARG-010": {
    meaning: "The task is empty.",
    cause:
      "No task text was given (positional, --task-file, or - for standard input), or it is blank.",
    remediation: "Give the task: the issue's text, a request, a traceback.",
    exit: EXIT.badInput,
  },
  "LMC-ARG-011": {
    meaning: "The task file cannot be read as text.",
    cause: "--task-file names a binary file, a file over 1 MiB, a missing file or a folder.",
    remediation: "Give a text file of the task (up to 1 MiB), or the text itself.",
    exit: EXIT.badInput,
  },
  "LMC-ARG-012": {
    meaning: "The task is long: only its start and its end were read.",
    cause: "A task text over 64 Ki characters (a long log pasted whole).",
    remediation: "Nothing to do, or cut the task to what matters (the error, its traceback).",
    exit: EXIT.ok,
  },
  "LMC-ARG-013": {
    meaning: "A --focus or --exclude path lies outside the root.",
    cause: "An absolute path, a .. or a link that leads out of the root.",
    remediation: "Name files and folders inside the root, as root-relative paths.",
    exit: EXIT.badInput,
  },
  "LMC-QRY-001": {
    meaning: "No block fits the budget.",
    cause: "The budget is smaller than the best block (a whole definition).",
    remediation: "Raise --budget, or ask the block by --symbol NAME at a larger budget.",
    exit: EXIT.ok,
  },
  "LMC-QRY-002": {
    meaning: "No definition has the name --symbol gives.",
    cause: "The name is not defined in the indexed files (a typo, or a name of a library).",
    remediation: "Find the name first (llm-symbols find NAME), or ask with the task's text.",
    exit: EXIT.badInput,
  },
  "LMC-IO-010": {
    meaning: "There is no symbol index in the root: the run ranked from one built in memory.",
    cause:
      "llm-context ranks from the symbol index (.llm/index.db); there is none yet and the run may not write .llm/, so the index was built for this run only.",
    remediation:
      "Run `llm-symbols index` in the root once (or allow writing <root>/.llm): later runs start at once.",
    exit: EXIT.ok,
  },

  "LMC-IO-012": {
    meaning: "A file changed since the index read it: its blocks were found in its bytes again.",
    cause: "The file was edited after the last `llm-symbols index` (or the MCP server's refresh).",
    remediation:
      "Nothing to do; `llm-symbols index` brings the index up to date for the next runs.",
    exit: EXIT.ok,
  },
  "LMC-IO-011": {
    meaning: "The symbol index was built for this run.",
    cause: "The root had no index, and the run may write <root>/.llm.",
    remediation: "Nothing to do: later runs use it (and refresh it).",
    exit: EXIT.ok,
  },
  "LMS-IO-010": {
    meaning:
      "The repository index (.llm/trigram.idx) was not used; the files were searched directly.",
    cause:
      "The index file fails its checksums or format check (corrupt, truncated, another version) or was built for another root.",
    remediation:
      "Run `llm-symbols index` in the root to rebuild it; results are correct meanwhile.",
    exit: EXIT.ok,
  },
  "LMS-IO-011": {
    meaning:
      "A long-lived host (the MCP server) kept the repository index fresh by a stat of every indexed file at this search, not by a file watcher.",
    cause:
      "The server may not write <root>/.llm (before each answer it writes a fence file there and waits for its event, to make sure its file watcher has reported every change), no file watcher could start on the root (no inotify watches or instances left, or a file system without them), or the index lists hidden files or follows links (the watcher cannot vouch for those).",
    remediation:
      "Results are correct; for faster warm searches start the server with --allow-write=<root>/.llm, or raise fs.inotify.max_user_watches (or max_user_instances) and restart it.",
    exit: EXIT.ok,
  },
  // llm-ast-search
  "LMA-QRY-001": {
    meaning: "The tree-sitter query does not compile for the language.",
    cause: "A node type or field the grammar does not have, or unbalanced parentheses.",
    remediation: "Fix the query at the offset given; node types are the grammar's own names.",
    exit: EXIT.badInput,
  },
  "LMA-ARG-010": {
    meaning: "Unknown language.",
    cause: "The --language name or alias is not in the grammar registry.",
    remediation: "Use one of the languages listed in the diagnostic's note.",
    exit: EXIT.badInput,
  },
  "LMA-AST-001": {
    meaning: "The file has syntax errors; it was still searched.",
    cause: "The file does not parse cleanly with the grammar (or uses a newer syntax).",
    remediation: "Matches inside the error region may be missing; check the span named.",
    exit: EXIT.refused,
  },
  "LMA-AST-002": {
    meaning: "The language is known but its grammar cannot be loaded by this runtime.",
    cause:
      "yaml's scanner needs symbols web-tree-sitter 0.25 lacks; elm and ql grammars are built for ABI versions it no longer accepts.",
    remediation: "Search those files with llm-search instead.",
    exit: EXIT.refused,
  },
  "LMA-AST-003": {
    meaning: "A grammar failed to load.",
    cause: "The embedded grammar module is damaged or out of date.",
    remediation: "Run `deno task grammars` to rebuild the embedded grammars and report it.",
    exit: EXIT.internal,
  },
  "LMA-AST-004": {
    meaning: "The language has no definition query, so --kind and --name cannot search it.",
    cause: "Definition queries exist for a subset of the languages (grammars/queries/*.scm).",
    remediation:
      "Write a tree-sitter query for that language instead, or add its definition query.",
    exit: EXIT.badInput,
  },
  "LMA-QRY-002": {
    meaning: "Nothing to search for: no query, --kind or --name was given (or the query is empty).",
    cause: "The query argument was left out.",
    remediation:
      "Give a query (`llm-ast-search '(function_definition) @f' src/`), --query-file, or --kind.",
    exit: EXIT.badInput,
  },
  "LMA-QRY-003": {
    meaning: "--name is not a valid JavaScript regular expression.",
    cause: "Unbalanced parentheses or brackets, or a dangling quantifier.",
    remediation: "Fix the pattern; it is tested against each symbol name, e.g. '^parse'.",
    exit: EXIT.badInput,
  },
  "LMA-ARG-011": {
    meaning: "Both --query and --query-file were given.",
    cause: "A query can come from one place only.",
    remediation: "Keep one of the two.",
    exit: EXIT.badInput,
  },
  "LMA-ARG-012": {
    meaning: "A file named with --language has a name of another language.",
    cause: "--language forces the grammar of the files named on the command line.",
    remediation: "Drop --language to parse each file by its name, or keep it if the name misleads.",
    exit: EXIT.badInput,
  },
  "LMA-QRY-004": {
    meaning: "The query nests parentheses and brackets deeper than tree-sitter can compile safely.",
    cause:
      "tree-sitter compiles queries recursively on a small stack; about 2,500 levels overflow it " +
      "and corrupt the parser runtime, so more than 256 are refused.",
    remediation: "Flatten the query: real patterns nest a few levels.",
    exit: EXIT.badInput,
  },
  "LMA-AST-005": {
    meaning: "A file larger than --max-parse-bytes was not parsed; the run is partial.",
    cause:
      "Generated or minified files: the parser needs up to 300 bytes of memory per byte of dense " +
      "code and its heap aborts at 2 GiB (30 MB of minified JavaScript).",
    remediation:
      "Pass --max-parse-bytes with the size given to parse it, or search it with llm-search.",
    exit: EXIT.refused,
  },
  "LMA-AST-006": {
    meaning:
      "A parse was stopped when the parser heap passed --max-parse-memory; the run is partial.",
    cause: "Code so dense (one node per byte) that the tree outgrows the memory allowed.",
    remediation:
      "Raise --max-parse-memory (at most 1536 MiB: the runtime aborts at 2048), or search the file with llm-search.",
    exit: EXIT.refused,
  },
  "LMA-AST-007": {
    meaning:
      "The parse or query of a file ran past --file-timeout and was stopped; the run is partial.",
    cause:
      "A very large file, or a tree that makes the query quadratic (a huge error node: thousands of unclosed brackets).",
    remediation: "Raise --file-timeout, narrow the query, or search the file with llm-search.",
    exit: EXIT.refused,
  },
  "LMA-AST-008": {
    meaning: "The parser failed on a file, which was not searched; the other files were.",
    cause:
      "The parser runtime aborted (out of memory), a parse worker died, or a query predicate threw.",
    remediation:
      "Skip the file with --glob '!path' or search it with llm-search; report it if it is an ordinary file.",
    exit: EXIT.refused,
  },
  // llm-discover
  "LMD-IO-010": {
    meaning: "The repository index (.llm/trigram.idx) was not used; the tree was walked directly.",
    cause:
      "The index file fails its checksums or format check (corrupt, truncated, another version) or was built for another root.",
    remediation:
      "Run `llm-symbols index` in the root to rebuild it; results are correct meanwhile.",
    exit: EXIT.ok,
  },
  "LMD-QRY-001": {
    meaning: "The fuzzy query is too large: over 4096 bytes or 128 terms.",
    cause:
      "Scoring costs each term's length times each path's; no path is longer than 4096 bytes, so " +
      "no longer term can match.",
    remediation: "Give the distinctive part of the name: a few short terms.",
    exit: EXIT.badInput,
  },
  "LMD-QRY-002": {
    meaning: "The fuzzy query is not text: it holds a NUL byte or a lone UTF-16 surrogate.",
    cause: "A query built from binary data, or JSON with a broken \\u escape.",
    remediation: "Give the query as plain UTF-8 text.",
    exit: EXIT.badInput,
  },
  "LMD-QRY-003": {
    meaning: "The query holds U+FFFD, the mark left by invalid UTF-8 in an argument.",
    cause: "A command-line argument that is not valid UTF-8: each bad byte arrives as U+FFFD.",
    remediation: "Give the query as UTF-8 text; it matches only names that are invalid UTF-8 too.",
    exit: EXIT.badInput,
  },
  // llm-transform
  "LMT-ARG-010": {
    meaning: "The edit plan is not valid JSON.",
    cause: "A truncated or hand-edited plan, or a file that is not JSON.",
    remediation: "Fix the JSON at the position given.",
    exit: EXIT.badInput,
  },
  "LMT-V-001": {
    meaning: "A file's checksum differs from the one the plan expects.",
    cause: "The file changed since it was read.",
    remediation: "Read the file again, rebuild the plan from its current bytes, and retry.",
    exit: EXIT.refused,
  },
  "LMT-V-002": {
    meaning: "A span's checksum differs from the one the edit expects.",
    cause: "The bytes under the span changed, or the offsets point elsewhere than intended.",
    remediation: "Search again for the text and use the fresh span and checksum.",
    exit: EXIT.refused,
  },
  "LMT-V-003": {
    meaning: "A span lies outside the file.",
    cause: "Offsets taken from another version of the file, or counted in characters.",
    remediation: "Offsets are UTF-8 byte offsets; the diagnostic gives the file's length.",
    exit: EXIT.badInput,
  },
  "LMT-V-004": {
    meaning: "A span starts after it ends.",
    cause: "byte_start and byte_end swapped.",
    remediation: "Give byte_start <= byte_end.",
    exit: EXIT.badInput,
  },
  "LMT-V-005": {
    meaning: "A span boundary falls inside a multi-byte UTF-8 character.",
    cause: "Offsets counted in UTF-16 units or characters instead of bytes.",
    remediation: "Use UTF-8 byte offsets as the search tools report them.",
    exit: EXIT.badInput,
  },
  "LMT-V-006": {
    meaning: "Two edits overlap.",
    cause: "The plan changes the same bytes twice.",
    remediation: "Merge the overlapping edits into one.",
    exit: EXIT.badInput,
  },
  "LMT-V-007": {
    meaning: "The text to replace does not occur in the file.",
    cause: "The file differs from what was expected (whitespace, indentation, an earlier edit).",
    remediation: "Read the closest line given in the diagnostic and retry with the exact text.",
    exit: EXIT.refused,
  },
  "LMT-V-008": {
    meaning: "The text to replace occurs more often than allowed.",
    cause: "The text is not unique in the file.",
    remediation: "Add surrounding lines to make it unique, or pass --count N or --all.",
    exit: EXIT.refused,
  },
  "LMT-V-009": {
    meaning: "A file changed between verification and writing; nothing was written.",
    cause: "Another process wrote the file while the edit was in progress.",
    remediation: "Re-read the file and retry the edit.",
    exit: EXIT.refused,
  },
  "LMT-V-010": {
    meaning: "Undo refused: the files changed after the operation.",
    cause: "Something edited the files since the operation being undone.",
    remediation: "Undo the later changes first, or restore by hand from the journal backups.",
    exit: EXIT.refused,
  },
  "LMT-V-011": {
    meaning: "The text to replace occurs fewer times than --count says.",
    cause: "The file differs from what was expected, or the count is wrong.",
    remediation: "Check the candidate spans listed, then fix the text or the --count.",
    exit: EXIT.refused,
  },
  "LMT-V-012": {
    meaning: "Recovery left a file alone: it holds neither its prior nor its new bytes.",
    cause: "Something changed the file after the interrupted operation touched it.",
    remediation:
      "Compare the file with the backup in the journal directory named, fix it by hand, " +
      "then delete that journal directory.",
    exit: EXIT.refused,
  },
  "LMT-PERM-010": {
    meaning: "A path lies outside the workspace root.",
    cause: "An absolute path, `..`, or a symbolic link that leads out of the root.",
    remediation: "Give paths inside the root, or pass --root covering them.",
    exit: EXIT.permission,
  },
  "LMT-PERM-011": {
    meaning:
      "The tool's state folder is not a real directory inside the root; nothing was written.",
    cause:
      "`.llm`, `.llm/journal`, a journal directory or one of its files is a symbolic link (or " +
      "not a directory): backups of file contents would be written or read elsewhere.",
    remediation: "Remove the link named (the tool recreates `.llm/journal` itself), then retry.",
    exit: EXIT.permission,
  },
  "LMT-PERM-012": {
    meaning: "A journal names a path outside the root; nothing was touched.",
    cause:
      "A crafted or stale `.llm/journal/*/manifest.json`: an absolute path elsewhere, `..`, or " +
      "a path through a symbolic link (the root was moved, or a directory replaced by a link).",
    remediation:
      "Inspect the journal directory named; delete it if you did not create it, then retry.",
    exit: EXIT.permission,
  },
  "LMT-PERM-013": STATE_FOLDER_TARGET,
  "LMT-IO-010": {
    meaning: "A file named by the plan does not exist.",
    cause: "The file was moved or deleted since the plan was made.",
    remediation: "Rebuild the plan against the current tree.",
    exit: EXIT.badInput,
  },
  "LMT-IO-011": {
    meaning: "A file could not be written; nothing was changed.",
    cause: "The file or its directory is not writable (EACCES) or the file system is read-only.",
    remediation: "Fix the permissions of the file and its directory, then retry.",
    exit: EXIT.refused,
  },
  "LMT-REF-001": {
    meaning: "No journal exists for that execution id.",
    cause: "A mistyped id, or the journal was removed.",
    remediation: "Use an execution_id printed by an earlier llm-transform run in this root.",
    exit: EXIT.badInput,
  },
  "LMT-REF-002": {
    meaning: "That operation's journal cannot be used for this.",
    cause: "It was already undone, rolled back or interrupted, or its journal is damaged.",
    remediation: "Run --recover for an interrupted operation; the message says which case it is.",
    exit: EXIT.refused,
  },
  "LMT-REF-003": {
    meaning: "An earlier operation in this root was interrupted and is not recovered yet.",
    cause: "A process was killed while it wrote files; its journal is still open.",
    remediation: "Run `llm-transform --recover` to roll it back (or finish it).",
    exit: EXIT.refused,
  },
  "LMT-IO-012": {
    meaning: "A path named by the plan is not a regular file.",
    cause: "A directory, a FIFO or a device was given where a file was expected.",
    remediation: "Name regular files only.",
    exit: EXIT.badInput,
  },
  "LMT-V-013": {
    meaning: "A file the edits touch fails a validation gate; nothing was written.",
    cause:
      "With validate on, the edited bytes do not parse (syntax gate) or do not compile (compiler gate).",
    remediation:
      "Fix the edits at the line and column of the gate diagnostics listed, then retry; " +
      "validate none writes without the gates.",
    exit: EXIT.refused,
  },
  "LMT-V-014": {
    meaning: "An edited file did not parse before the edit either; the edit was not refused.",
    cause:
      "The file already held a syntax error (or syntax the embedded grammar does not know), so " +
      "the syntax gate cannot tell whether the edit broke it.",
    remediation:
      "Check the file's syntax; pass validate: all to have the compiler gate decide instead.",
    exit: EXIT.ok,
  },
  // llm-write
  "LFW-ARG-010": {
    meaning: "The write plan is not valid JSON.",
    cause: "A truncated or hand-edited plan, or a file that is not JSON.",
    remediation: "Fix the JSON at the position given.",
    exit: EXIT.badInput,
  },
  "LFW-V-001": {
    meaning: "A file fails a validation gate; nothing was written.",
    cause: "Its content does not parse (syntax gate) or does not compile (compiler gate).",
    remediation:
      "Fix the content at the line and column of the gate diagnostics listed, then write again.",
    exit: EXIT.refused,
  },
  "LFW-V-002": {
    meaning: "The file already exists; nothing was written.",
    cause: "A write names an existing file without overwrite.",
    remediation:
      "Pass overwrite with expected_checksum (the sha256 of the file now, from the note), or " +
      "pick another path; llm-transform edits a file in place.",
    exit: EXIT.refused,
  },
  "LFW-V-003": {
    meaning: "An overwrite gives no expected_checksum; nothing was written.",
    cause: "overwrite replaces a file only when the caller proves which bytes it replaces.",
    remediation: "Add expected_checksum: the sha256 of the file now (given in the note).",
    exit: EXIT.badInput,
  },
  "LFW-V-004": {
    meaning: "The file's checksum differs from expected_checksum; nothing was written.",
    cause: "The file changed since it was read, or it does not exist.",
    remediation: "Read the file again and retry with its current checksum.",
    exit: EXIT.refused,
  },
  "LFW-V-005": {
    meaning: "A file changed between verification and writing; nothing was written.",
    cause: "Another process wrote (or created) the file while the write was in progress.",
    remediation: "Re-read the file and retry the write.",
    exit: EXIT.refused,
  },
  "LFW-V-006": {
    meaning: "Undo refused: the files changed after the write.",
    cause: "Something edited or removed the written files since.",
    remediation: "Undo the later changes first, or restore by hand from the journal backups.",
    exit: EXIT.refused,
  },
  "LFW-V-007": {
    meaning: "The same file is named twice in one write.",
    cause: "A plan lists a path twice (perhaps spelled differently, or through a link).",
    remediation: "Give each file once with its whole content.",
    exit: EXIT.badInput,
  },
  "LFW-PERM-010": {
    meaning: "A path lies outside the workspace root; nothing was written.",
    cause: "An absolute path, `..`, or a symbolic link (a file's or a folder's) that leads out.",
    remediation: "Give paths inside the root, or pass --root covering them.",
    exit: EXIT.permission,
  },
  "LFW-PERM-011": {
    meaning:
      "The tool's state folder is not a real directory inside the root; nothing was written.",
    cause: "`.llm`, `.llm/journal` or a journal is a symbolic link (or not a directory).",
    remediation: "Remove the link named (the tool recreates `.llm/journal` itself), then retry.",
    exit: EXIT.permission,
  },
  "LFW-PERM-012": {
    meaning: "A journal names a path outside the root; nothing was touched.",
    cause: "A crafted or stale `.llm/journal/*/manifest.json`, or the root was moved.",
    remediation:
      "Inspect the journal directory named; delete it if you did not create it, then retry.",
    exit: EXIT.permission,
  },
  "LFW-PERM-013": STATE_FOLDER_TARGET,
  "LFW-IO-010": {
    meaning:
      "A path to write names something other than a regular file, or a folder on its way is a file.",
    cause: "A directory, FIFO or device at the path, or a parent that is a file.",
    remediation: "Name a new file (or an existing regular file with overwrite).",
    exit: EXIT.badInput,
  },
  "LFW-IO-011": {
    meaning: "A file could not be written; nothing was changed.",
    cause: "The file or its directory is not writable (EACCES) or the file system is read-only.",
    remediation: "Fix the permissions of the file and its directory, then retry.",
    exit: EXIT.refused,
  },
  "LFW-REF-001": {
    meaning: "No journal exists for that execution id.",
    cause: "A mistyped id, or the journal was removed.",
    remediation: "Use an execution_id printed by an earlier write (or transform) in this root.",
    exit: EXIT.badInput,
  },
  "LFW-REF-002": {
    meaning: "That operation's journal cannot be undone.",
    cause: "It was already undone, rolled back or interrupted, or its journal is damaged.",
    remediation: "Run `llm-transform --recover` for an interrupted operation.",
    exit: EXIT.refused,
  },
  // llm-symbols
  "MAG-IO-010": {
    meaning: "The index database file is not an SQLite database; it is left untouched.",
    cause: "--db names a file of another kind (or a damaged database).",
    remediation:
      "Name another --db path (default <root>/.llm/index.db); the tool never overwrites a file it did not create.",
    exit: EXIT.refused,
  },
  "MAG-IO-011": {
    meaning: "The index database is an SQLite database of another program; it is left untouched.",
    cause: "--db names a database whose application id or tables are not llm-symbols'.",
    remediation:
      "Name another --db path, or remove that file if it is yours and disposable; it is never overwritten.",
    exit: EXIT.refused,
  },
  "MAG-IO-012": {
    meaning: "The index was written by a newer llm-symbols (a higher index schema version).",
    cause: "A newer version of the tool indexed this root; this version cannot read its tables.",
    remediation:
      "Upgrade llm-symbols, or index into another --db (or delete the index file and run `llm-symbols index`).",
    exit: EXIT.refused,
  },
  "MAG-IO-013": {
    meaning: "There is no symbol index at the database path yet.",
    cause: "`llm-symbols index` has not been run on this root (or --db names another file).",
    remediation:
      "Run `llm-symbols index` in the root (it needs --allow-write=<root>/.llm), then ask again.",
    exit: EXIT.refused,
  },
  "MAG-IO-028": {
    meaning: "There was no symbol index: the host built it on the first call that needed it.",
    cause:
      "A long-lived host (the MCP server) that may write <root>/.llm was asked a symbol, graph or map question on a tree without an index.",
    remediation: "Nothing to do: the index is kept fresh from now on.",
    exit: EXIT.ok,
  },
  "MAG-IO-029": {
    meaning:
      "The symbol index is still being built: the answer covers the files indexed so far (partial).",
    cause:
      "A long-lived host (the MCP server) started building the index of a tree that had none, and a call needed it before the build ended, past the time it waits.",
    remediation:
      "Call again shortly for an answer over every file; `symbols` with relation `status` shows how far the build is.",
    exit: EXIT.ok,
  },
  "MAG-IO-014": {
    meaning: "The index database stayed locked by another run past the busy timeout.",
    cause:
      "Another `llm-symbols index` run is writing a large batch, or a process holds the database.",
    remediation: "Retry when the other run has finished.",
    exit: EXIT.refused,
  },
  "MAG-IO-015": {
    meaning:
      "A file was not indexed this run; its previous facts, if any, are kept, except after a failed extraction (then recorded with the file's content hash).",
    cause:
      "It is larger than max_file_bytes, could not be read, or its extraction failed or ran out of time.",
    remediation:
      "Raise max_file_bytes or timeout_ms, or exclude the file with a glob; the next `index` retries it (a failed extraction once the file's content changes).",
    exit: EXIT.ok,
  },
  "MAG-IO-016": {
    meaning: "The index run stopped at its time limit; the files left are indexed by the next run.",
    cause: "timeout_ms passed before every changed file was parsed.",
    remediation: "Run `llm-symbols index` again (it resumes: indexed files are not parsed twice).",
    exit: EXIT.ok,
  },
  "MAG-IO-017": {
    meaning: "The answer comes from the index as it is; it may be stale.",
    cause:
      "The MCP server may not write the index, so it cannot re-index the files changed since the last index run.",
    remediation:
      "Run `llm-symbols index` (or start the server with --allow-write=<root>/.llm) to bring it up to date.",
    exit: EXIT.ok,
  },
  "MAG-IO-018": {
    meaning: "No symbol index to take relationships from; the results are unchanged.",
    cause:
      "A relationship flag (with_callers, with_callees, with_imports, with_exports, -R) was given in a root without <root>/.llm/index.db.",
    remediation:
      "Run `llm-symbols index` in the root (it needs --allow-write=<root>/.llm), then ask again.",
    exit: EXIT.ok,
  },
  "MAG-IO-019": {
    meaning: "Results in files changed since the last index run have no relationships.",
    cause:
      "Their file's size, time or content differs from the index, so its spans may name other code.",
    remediation: "Run `llm-symbols index` to bring the index up to date, then ask again.",
    exit: EXIT.ok,
  },
  "MAG-IO-020": {
    meaning:
      "Files whose extraction failed before still have the content they failed on; they were not parsed again.",
    cause:
      "An earlier `index` run recorded their failure (a parser crash, a grammar that failed to load) with their content hash.",
    remediation:
      "`llm-symbols status` lists them with the reason; edit or exclude them (a glob), or index into a fresh --db after an upgrade.",
    exit: EXIT.ok,
  },
  "MAG-IO-021": {
    meaning:
      "The repository index (.llm/trigram.idx, used by llm-search) was not written; the symbol index was.",
    cause:
      "The .llm folder is not writable or not a real folder, the disk is full, or the posting lists exceed 4 GiB.",
    remediation:
      "Fix the cause and run `llm-symbols index` again; searches scan the files meanwhile (correct, slower).",
    exit: EXIT.ok,
  },
  "MAG-IO-022": {
    meaning: "The symbol index database is damaged; it was not read.",
    cause:
      "The file was cut short or some of its bytes changed (a copy or disk fault, another program writing it): SQLite reports it malformed, or its own check (quick_check) fails.",
    remediation:
      "Run `llm-symbols index`: it deletes a damaged index and builds it anew. If a query still refuses it (an index over 64 MiB is not checked whole by `index`, only as it is read), delete the index file and its -wal/-shm files, then run `llm-symbols index`.",
    exit: EXIT.refused,
  },
  "MAG-IO-023": {
    meaning: "A row of the symbol index names a file outside the root; the index is not served.",
    cause:
      "The index holds an absolute path, one with `..` (a crafted or damaged index), or a path whose folder is now a symbolic link that leads out of the root.",
    remediation:
      "Run `llm-symbols index`: it builds a crafted index anew and drops the files its walk (which never leaves the root) no longer reaches.",
    exit: EXIT.refused,
  },
  "MAG-IO-024": {
    meaning:
      "`index` found the index damaged or naming files outside the root, deleted it and built it anew.",
    cause:
      "The database was cut short, changed by another program, or crafted (see the message for what was found).",
    remediation:
      "Nothing to do; if it happens again, look for what writes to the .llm folder besides llm-symbols.",
    exit: EXIT.ok,
  },
  "MAG-IO-025": {
    meaning:
      "The index database path (or its -wal/-shm file) holds a directory, FIFO, socket or device, not a file; nothing was opened or changed.",
    cause:
      "Another program or a mistaken command made it there, or --db names a folder; llm-symbols only ever makes a regular file there.",
    remediation:
      "Move or remove what is there yourself (llm-symbols never deletes it), or name another --db path.",
    exit: EXIT.refused,
  },
  "MAG-IO-026": {
    meaning:
      "A file's facts were taken from its first part only: its syntax tree is larger than a file's facts are taken from.",
    cause:
      "The file is generated or data (hundreds of thousands of statements, such as a table written as code); no hand-written source comes near the bound.",
    remediation:
      "Exclude the file from the index with a glob (`--glob '!path'`) if its facts are not wanted; its first part stays searchable by name.",
    exit: EXIT.ok,
  },
  "MAG-IO-027": {
    meaning:
      "The answer comes from the index as it is: another run was bringing it up to date, and the server did not wait for it.",
    cause:
      "An `llm-symbols index` run or a refactoring was walking and parsing the root; the files it had not written yet are answered as they were.",
    remediation:
      "Ask again once that run has finished: the next answer brings the index up to date first.",
    exit: EXIT.ok,
  },
  "MAG-AST-001": {
    meaning: "A file has syntax errors; it was indexed as far as its tree allows.",
    cause:
      "The parser met code it could not read (a syntax error, or a dialect the grammar lacks).",
    remediation: "Nothing to do unless its symbols are missing; fix the syntax error and re-index.",
    exit: EXIT.ok,
  },
  "MAG-PERM-010": {
    meaning: "The index database path is outside the root, or reached through a symbolic link.",
    cause:
      "--db names a path outside the root, or its folder (or the file) is a link that may redirect writes.",
    remediation:
      "Name a --db path inside the root whose folders are real directories (default <root>/.llm/index.db).",
    exit: EXIT.permission,
  },
  "MAG-REF-001": {
    meaning: "No symbol of that name is in the index.",
    cause: "A typo, a name of a file not indexed, or an index older than the code.",
    remediation:
      "Use one of the close names in the note, try `llm-symbols find --match fuzzy NAME`, or re-run `llm-symbols index`.",
    exit: EXIT.badInput,
  },
  "MAG-REF-002": {
    meaning: "The file is not in the index.",
    cause:
      "It is not under the root, not of an indexed language, ignored, or added after the last index run.",
    remediation: "Check the path (close indexed paths are in the note) or run `llm-symbols index`.",
    exit: EXIT.badInput,
  },
  "MAG-REF-003": {
    meaning: "The symbol named denotes several definitions; nothing is picked for you.",
    cause: "The name is defined more than once (other files, overloads, other languages).",
    remediation:
      "Give a qualified name or one of the symbol_ids listed in the note (`llm-symbols find NAME` lists them).",
    exit: EXIT.badInput,
  },
  "MAG-REF-004": {
    meaning: "No definition in the index has the symbol_id given.",
    cause: "A mistyped id, or the definition moved, was renamed or was removed since the id " +
      "was listed (an id is derived from the language, file, qualified name and kind).",
    remediation: "Look the symbol up again with `llm-symbols find NAME` and use the id it lists " +
      "now (the note lists the ids of the name given, if any); re-run `llm-symbols index` if " +
      "the code changed.",
    exit: EXIT.badInput,
  },
  "MAG-REF-005": {
    meaning: "The name and the symbol_id given name different definitions; nothing is picked " +
      "for you.",
    cause: "The id is of another symbol than the name (a copied id of another result, or a " +
      "definition renamed since).",
    remediation: "Give the name or the symbol_id alone, or the two of one definition (the note " +
      "lists the name's ids; `llm-symbols find NAME` lists them too).",
    exit: EXIT.badInput,
  },
  // llm-refactor
  "SPL-ARG-010": {
    meaning: "The refactor plan is not valid JSON, or a step lacks what its operation needs.",
    cause: "A truncated or hand-edited plan, a rename step without `to`, a patch without `with`.",
    remediation: "Fix the plan at the step and field named; `llm-refactor plan --help` shows one.",
    exit: EXIT.badInput,
  },
  "SPL-ARG-011": {
    meaning: "The new name of a rename is not an identifier of the symbol's language.",
    cause: "An empty name, a name with spaces or punctuation (Rust's raw `r#name` included).",
    remediation: "Give a plain identifier (letters, digits, `_`, not starting with a digit).",
    exit: EXIT.badInput,
  },
  "SPL-ARG-012": {
    meaning: "The new name of a rename is a reserved word of the symbol's language; nothing " +
      "was changed.",
    cause: "A keyword (`int`, `return`, `class`, `fn`, …), a literal (`true`, `null`), a name " +
      "the language forbids (Go's `_` and `init`, JavaScript's `eval` in strict code), a " +
      "name a type may not take (TypeScript's `string`, Java's `var`), or a name C and C++ " +
      "reserve for the implementation (`__x`, `_X`). Soft keywords (Python's `match`) are " +
      "allowed.",
    remediation: "Pick another name; the message says why this one is reserved.",
    exit: EXIT.badInput,
  },
  "SPL-REF-001": {
    meaning: "No definition of that name (or symbol_id) is in the index.",
    cause: "A typo, a symbol of a file the index does not cover, or a local variable (which " +
      "the index does not list).",
    remediation: "Look the symbol up with `llm-symbols find NAME`; the note lists close names.",
    exit: EXIT.badInput,
  },
  "SPL-REF-002": {
    meaning: "Several definitions match; nothing was changed.",
    cause: "The name is defined in several files or scopes.",
    remediation: "Add file and kind (or give the symbol_id) of one of the candidates listed.",
    exit: EXIT.refused,
  },
  "SPL-REF-003": {
    meaning: "No journal exists for that execution id.",
    cause: "A mistyped id, or the journal was removed (the newest 100 are kept).",
    remediation: "Use an execution_id printed by an earlier applied refactor (`llm-refactor log`).",
    exit: EXIT.badInput,
  },
  "SPL-REF-004": {
    meaning: "That operation's journal cannot be undone.",
    cause: "It was already undone, rolled back or interrupted, or its journal is damaged.",
    remediation: "Run `llm-refactor recover` for an interrupted operation.",
    exit: EXIT.refused,
  },
  "SPL-REF-005": {
    meaning: "The name is a C or C++ field (of a struct, union or class); nothing was changed.",
    cause: "llm-refactor does not rename, patch or delete fields: the symbol index holds no " +
      "field, and which struct `p->name` or `x.name` reaches depends on the type of `p` or " +
      "`x`, which only the compiler knows (another struct, or a system header's, may have a " +
      "field of that name).",
    remediation: "Rename the field with a type-aware tool (clangd's rename), or edit the " +
      "declaration and the places the compiler then reports (`llm-transform`, the gcc gate).",
    exit: EXIT.refused,
  },
  "SPL-REF-006": {
    meaning: "The name and the symbol_id given name different definitions; nothing was changed.",
    cause: "The id is of another symbol than the name (a copied id of another result, or a " +
      "definition renamed since the id was listed).",
    remediation: "Give the name or the symbol_id alone, or the two of one definition " +
      "(`llm-symbols find NAME` lists each definition's symbol_id).",
    exit: EXIT.badInput,
  },
  "SPL-V-001": {
    meaning: "The new name collides with a name in an affected scope; nothing was changed.",
    cause: "A definition, a local variable or a use of the new name in a file the rename " +
      "touches (or a definition of it in the symbol's own scope).",
    remediation: "Pick another name, or rename the colliding symbol first (places listed).",
    exit: EXIT.refused,
  },
  "SPL-V-002": {
    meaning: "References to the symbol remain; it was not deleted.",
    cause: "Code still uses the definition to delete.",
    remediation: "Remove or rewrite the uses listed first, or pass force to delete anyway.",
    exit: EXIT.refused,
  },
  "SPL-V-003": {
    meaning: "An edited file fails a validation gate; nothing was changed.",
    cause: "The edit breaks the file's syntax (syntax gate) or introduces a compiler error " +
      "(compiler gate, errors the file already had before the edit are not counted).",
    remediation: "Read the gate diagnostics listed (file, line, message) and fix the new text.",
    exit: EXIT.refused,
  },
  "SPL-V-004": {
    meaning: "A file's checksum differs from the expected one; nothing was changed.",
    cause: "The file changed since the caller read it.",
    remediation: "Read the file again and retry with its current checksum.",
    exit: EXIT.refused,
  },
  "SPL-V-005": {
    meaning: "A file changed between verification and writing; nothing was changed.",
    cause: "Another process wrote one of the files while the operation was in progress.",
    remediation: "Retry the operation.",
    exit: EXIT.refused,
  },
  "SPL-V-006": {
    meaning: "Undo refused: the files changed after the operation.",
    cause: "Something edited or removed the refactored files since.",
    remediation: "Undo the later changes first, or restore by hand from the journal backups.",
    exit: EXIT.refused,
  },
  "SPL-V-007": {
    meaning: "A use of the name cannot be told apart from another symbol's; nothing was changed.",
    cause: "A member access on a receiver of unknown type (`obj.name`) while several members " +
      "have that name, a use that resolves to several definitions, or an object shorthand.",
    remediation: "Rename the places listed by hand (llm-transform), or rename through a plan " +
      "that patches them; the note lists each place.",
    exit: EXIT.refused,
  },
  "SPL-V-008": {
    meaning: "The rename's proof failed: an invariant of the symbol graph does not hold.",
    cause: "A use the rename did not reach, a new name captured by another definition, or " +
      "an id of another symbol changed.",
    remediation: "Read the invariants in the result; rename the remaining places by hand.",
    exit: EXIT.refused,
  },
  "SPL-V-009": {
    meaning: "The symbol's language or kind is not supported by this operation.",
    cause: "A file without grammar, or a rename the tool cannot do soundly (see the scope " +
      "table of the README: C struct fields, macros' parameters).",
    remediation: "Edit the places with llm-transform instead.",
    exit: EXIT.refused,
  },
  "SPL-V-010": {
    meaning: "An edited file fails a gate, but with the errors it had before the edit; it was " +
      "not refused for them.",
    cause: "The file did not compile before either (a header or include path the compiler " +
      "gate lacks, code the grammar does not know).",
    remediation: "Nothing for the edit; check the file with the project's own build.",
    exit: EXIT.ok,
  },
  "SPL-PERM-010": {
    meaning: "A path lies outside the workspace root; nothing was changed.",
    cause: "An absolute path, `..`, or a symbolic link that leads out of the root.",
    remediation: "Give paths inside the root (the working directory).",
    exit: EXIT.permission,
  },
  "SPL-PERM-011": {
    meaning:
      "The tool's state folder is not a real directory inside the root; nothing was changed.",
    cause: "`.llm`, `.llm/journal` or a journal is a symbolic link (or not a directory).",
    remediation: "Remove the link named (the tool recreates `.llm/journal` itself), then retry.",
    exit: EXIT.permission,
  },
  "SPL-PERM-012": {
    meaning: "A journal names a path outside the root; nothing was touched.",
    cause: "A crafted or stale `.llm/journal/*/manifest.json`, or the root was moved.",
    remediation: "Inspect the journal directory named; delete it if you did not create it.",
    exit: EXIT.permission,
  },
  "SPL-PERM-013": STATE_FOLDER_TARGET,
  "SPL-IO-010": {
    meaning: "A file could not be written; nothing was changed.",
    cause: "The file or its directory is not writable (EACCES) or the file system is read-only.",
    remediation: "Fix the permissions of the file and its directory, then retry.",
    exit: EXIT.refused,
  },
  "SPL-IO-011": {
    meaning: "The symbol index could not be opened or brought up to date.",
    cause: "The index database is damaged, locked by a writer, or of another version.",
    remediation: "Run `llm-symbols index` (or remove `.llm/index.db`) and retry.",
    exit: EXIT.refused,
  },
  // llm-mcp
  "MCP-ARG-010": {
    meaning: "Unknown tool name.",
    cause: "The client called a tool the server does not list (it may need write permission).",
    remediation: "Call tools/list for the tools this server offers.",
    exit: EXIT.badInput,
  },
  "MCP-ARG-011": {
    meaning:
      "A message on stdin is not JSON; it was answered with a JSON-RPC parse error (-32700).",
    cause: "A client or a script wrote a line that does not parse as JSON.",
    remediation: "Send one JSON-RPC 2.0 message per line, encoded as UTF-8 JSON.",
    exit: EXIT.badInput,
  },
  "MCP-ARG-013": {
    meaning: "--tools names a tool the toolkit does not have.",
    cause:
      "A misspelt MCP tool name, or a command's name (llm-search) in place of its tool's (search).",
    remediation:
      "Name MCP tools as tools/list does (context, search, symbols_find…), comma-separated.",
    exit: EXIT.badInput,
  },
  "MCP-ARG-012": {
    meaning: "A message is JSON but not a JSON-RPC 2.0 message; it was answered with -32600.",
    cause:
      "A batch array, a value that is not an object, a missing or wrong `jsonrpc`, or a request without a string `method`.",
    remediation: 'Send one object per line with "jsonrpc": "2.0", a string "method" and an id.',
    exit: EXIT.badInput,
  },
  "MCP-REF-001": {
    meaning: "No execution with that id is in the log.",
    cause: "A mistyped id, or the call was made by another server whose log is elsewhere.",
    remediation: "Use an execution_id from an earlier result of this server, or pass --log-dir.",
    exit: EXIT.badInput,
  },
  "MCP-IO-005": {
    meaning: "The workspace root is not a directory.",
    cause: "--root names a file (or a device) instead of the folder to serve.",
    remediation: "Pass the project's folder as --root.",
    exit: EXIT.badInput,
  },
  "MCP-QRY-001": {
    meaning: "The result was cut into pages to fit the server's output budget.",
    cause: "The tool returned more items than fit in --max-output-bytes.",
    remediation: "Call the tool again with the `offset` the diagnostic names, or narrow the query.",
    exit: EXIT.ok,
  },
  "MCP-QRY-002": {
    meaning: "Long strings or lists of the result were shortened to fit the output budget.",
    cause: "One item or a mutation result alone was larger than --max-output-bytes.",
    remediation:
      "Read the full result with `llm-log show ID` (the store of the root), or narrow the request.",
    exit: EXIT.ok,
  },
  "MCP-QRY-003": {
    meaning: "Diagnostics beyond three of each code were left out of a full answer.",
    cause: "The diagnostics alone would have taken more than a quarter of --max-output-bytes, " +
      "crowding out the results.",
    remediation: "Read them all with `llm-mcp log show ID --log-dir DIR`; the compact form " +
      "(the default) counts them by code.",
    exit: EXIT.ok,
  },
  "MCP-QRY-010": {
    meaning: "The call was cancelled by the client; its work was stopped.",
    cause:
      "The client sent notifications/cancelled for the request (e.g. the user interrupted it).",
    remediation:
      "Nothing to do; call the tool again to get a result, with a narrower query if it was slow.",
    exit: EXIT.refused,
  },
  "MCP-QRY-011": {
    meaning: "The call ran longer than the server's time limit and was stopped; it has no result.",
    cause: "A query too costly for the tree (a catastrophic regex, an AST query over a huge tree).",
    remediation:
      "Narrow the query (paths, globs, a simpler pattern), or start the server with a larger --call-timeout-ms.",
    exit: EXIT.refused,
  },
  "MCP-PERM-010": {
    meaning: "A path argument lies outside the server's workspace root; the call was refused.",
    cause: "An absolute path or `..` that leaves --root, or a symlink that points out of it.",
    remediation: "Use a path inside the root, or start the server with a --root that covers it.",
    exit: EXIT.permission,
  },
  "MCP-PERM-011": {
    meaning: "Tool calls run on the server's main thread: a slow call delays every other request.",
    cause:
      "The server cannot read its own modules (--allow-read scoped to the root only), so it cannot start call workers.",
    remediation:
      "Add the package's folder to --allow-read (or use -R), or run the published package or a compiled binary.",
    exit: EXIT.permission,
  },
  // llm-log
  "LML-REF-001": {
    meaning: "No execution with that id is in the log.",
    cause:
      "A mistyped id, a run whose record was rotated out, or a run logged in another root's store (or a --log-dir).",
    remediation:
      "List the runs with `llm-log list`; pass --root (or the server's --log-dir) of the run.",
    exit: EXIT.badInput,
  },
};

function buildRegistry(): ReadonlyMap<string, ErrorCodeEntry> {
  const entries = new Map<string, ErrorCodeEntry>();
  const prefixes = Object.keys(TOOL_OF_PREFIX) as CodePrefix[];
  for (
    const table of [...prefixes.map(commonCodes), ...GATE_PREFIXES.map(gateCodes), SPECIFIC_CODES]
  ) {
    for (const [code, text] of Object.entries(table)) entries.set(code, { code, ...text });
  }
  return new Map([...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * Every error code, sorted by code.
 *
 * @example Look up a code
 * ```ts
 * import assert from "node:assert/strict";
 * import { ERROR_CODES } from "@llm/search/schema";
 * assert.equal(ERROR_CODES.get("LMS-QRY-001")?.exit, 2);
 * ```
 */
export const ERROR_CODES: ReadonlyMap<string, ErrorCodeEntry> = buildRegistry();

/**
 * The registry entry of `code`, or `undefined` for an unknown code (case-insensitive).
 *
 * @example Tell the user how to fix an error
 * ```ts
 * import assert from "node:assert/strict";
 * import { explainCode } from "@llm/search/schema";
 * assert.match(explainCode("lms-perm-001")?.remediation ?? "", /--allow-read/);
 * ```
 */
export function explainCode(code: string): ErrorCodeEntry | undefined {
  return ERROR_CODES.get(code.trim().toUpperCase());
}
