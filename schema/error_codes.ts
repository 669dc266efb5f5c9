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

/** Tool prefixes of the contract. */
export type CodePrefix = "LMS" | "LMA" | "LMD" | "LMT" | "MAG" | "SPL" | "LFW" | "MCP";

/** Categories of the contract, plus `INT` for internal errors. */
export type CodeCategory = "IO" | "QRY" | "REF" | "V" | "AST" | "PERM" | "ARG" | "INT";

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

/** Exit codes of the contract (§6). */
export const EXIT = {
  ok: 0,
  pending: 1,
  badInput: 2,
  refused: 3,
  permission: 4,
  internal: 5,
} as const;

const TOOL_OF_PREFIX: Record<CodePrefix, string> = {
  LMS: "llm-search",
  LMA: "llm-ast-search",
  LMD: "llm-discover",
  LMT: "llm-transform",
  MAG: "llm-symbols",
  SPL: "llm-refactor",
  LFW: "llm-write",
  MCP: "llm-mcp",
};

type EntryText = Omit<ErrorCodeEntry, "code">;

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
      "A pattern with nested quantifiers backtracking catastrophically on the file named, or a tree too large for the budget.",
    remediation:
      "Rewrite the pattern without nested quantifiers (e.g. `(a+)+` → `a+`), narrow the paths, or raise --timeout.",
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
  // llm-mcp
  "MCP-ARG-010": {
    meaning: "Unknown tool name.",
    cause: "The client called a tool the server does not list (it may need write permission).",
    remediation: "Call tools/list for the tools this server offers.",
    exit: EXIT.badInput,
  },
  "MCP-REF-001": {
    meaning: "No execution with that id is in the log.",
    cause: "A mistyped id, or the call was made by another server whose log is elsewhere.",
    remediation: "Use an execution_id from an earlier result of this server, or pass --log-dir.",
    exit: EXIT.badInput,
  },
  "MCP-IO-010": {
    meaning: "The execution log could not be written; calls are kept in memory only.",
    cause: "The --log-dir is not writable by this run.",
    remediation: "Grant --allow-write for the log directory or choose another one.",
    exit: EXIT.badInput,
  },
  "MCP-IO-011": {
    meaning: "One execution was too large for the log file's size cap; it is kept in memory only.",
    cause: "A call returned a result larger than --log-max-bytes.",
    remediation: "Raise --log-max-bytes, or narrow the query so results are smaller.",
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
      "Read the full result with `llm-mcp log show ID --log-dir DIR`, or narrow the request.",
    exit: EXIT.ok,
  },
  "MCP-PERM-010": {
    meaning: "A path argument lies outside the server's workspace root; the call was refused.",
    cause: "An absolute path or `..` that leaves --root, or a symlink that points out of it.",
    remediation: "Use a path inside the root, or start the server with a --root that covers it.",
    exit: EXIT.permission,
  },
};

function buildRegistry(): ReadonlyMap<string, ErrorCodeEntry> {
  const entries = new Map<string, ErrorCodeEntry>();
  const prefixes = Object.keys(TOOL_OF_PREFIX) as CodePrefix[];
  for (const table of [...prefixes.map(commonCodes), SPECIFIC_CODES]) {
    for (const [code, text] of Object.entries(table)) entries.set(code, { code, ...text });
  }
  return new Map([...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * Every error code, sorted by code.
 *
 * @example
 * ```ts
 * import { ERROR_CODES } from "@llm/search/schema";
 * ERROR_CODES.get("LMS-QRY-001")?.exit; // 2
 * ```
 */
export const ERROR_CODES: ReadonlyMap<string, ErrorCodeEntry> = buildRegistry();

/**
 * The registry entry of `code`, or `undefined` for an unknown code (case-insensitive).
 *
 * @example
 * ```ts
 * import { explainCode } from "@llm/search/schema";
 * explainCode("lms-perm-001")?.remediation.includes("--allow-read"); // true
 * ```
 */
export function explainCode(code: string): ErrorCodeEntry | undefined {
  return ERROR_CODES.get(code.trim().toUpperCase());
}

/** The name of the tool that owns a code prefix, e.g. `llm-search` for `LMS`. */
export function toolOfPrefix(prefix: CodePrefix): string {
  return TOOL_OF_PREFIX[prefix];
}
