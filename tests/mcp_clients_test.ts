/**
 * llm-mcp driven by third-party MCP clients, as agents' hosts drive it: the Python `mcp` client
 * from PyPI and the MCP Inspector CLI from npm. Each calls every tool of the default surface, and
 * every `relation` of `symbols`, `algorithm` of `graph` and `op` of `refactor`, once (issue 33's
 * acceptance; the official SDK client does the same with the samples of `tests/mcp_helpers.ts`
 * in `mcp_concurrency_test.ts`): context (which builds the symbol index on first need), the
 * searches, the symbol and graph queries, repo_map, validate, get_execution, a transform and its
 * undo, a write, a refactor rename and its undo, and refactor previews, on a copy of
 * `tests/fixtures/mcp_clients/repo`, with a server whose read and write permissions are scoped to
 * that copy, started from an unrelated working directory.
 *
 * The clients are installed once into a cache outside the repository
 * (`$LLM_SEARCH_TEST_CACHE`, default `~/.cache/llm-search-test`) by
 * `tests/fixtures/mcp_clients/install.sh`; a client that cannot be installed makes its test
 * ignored (named with what it needs), never passed.
 */
import assert from "node:assert/strict";
import { cp } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { REPO } from "./helpers.ts";
import { serverCommand } from "./mcp_helpers.ts";
import { DEFAULT_TOOL_NAMES } from "../tools/mcp/surface.ts";

const FIXTURES = join(REPO, "tests", "fixtures", "mcp_clients");
const INSTALLER = join(FIXTURES, "install.sh");

/** The exact version `install.sh` pins in its `name=version` line. */
function pinned(name: string): string {
  const version = Deno.readTextFileSync(INSTALLER).match(new RegExp(`^${name}=(\\S+)$`, "m"))?.[1];
  assert.ok(version, `install.sh pins ${name}`);
  return version;
}

const PYTHON_MCP_VERSION = pinned("python_mcp_version");
const INSPECTOR_VERSION = pinned("inspector_version");
const CACHE = Deno.env.get("LLM_SEARCH_TEST_CACHE") ?? join(homedir(), ".cache", "llm-search-test");
const PYTHON = join(CACHE, "venv", "bin", "python");
const INSPECTOR = join(CACHE, "inspector", "node_modules", ".bin", "mcp-inspector");

/** The file the transform and the rename edit and their undos restore. */
const EDITED = "src/greet.c";

/** The file the refactor previews name, and leave as it was. */
const PREVIEWED = "src/parse_config.py";

/** One tool call of the sequence. */
type Call = [tool: string, args: Record<string, unknown>];

/**
 * The sequence every client makes. A `$<tool>.execution_id` argument names the execution id of
 * that tool's first call (the transform's for its undo, the rename's for the refactor undo); the
 * Python client resolves it itself, the Inspector test before the call. Arguments are the listed
 * ones (the Inspector converts a `key=value` by the type its inputSchema lists).
 */
const CALLS: Call[] = [
  ["context", { task: "greet_count(3) should greet three times but returns early", budget: 2000 }],
  ["search", { patterns: ["greet_count"] }],
  ["ast_search", { kind: ["function"], name: "^greet" }],
  ["discover", { query: "parse config" }],
  ["symbols", { relation: "find", name: "greet_count" }],
  ["symbols", { relation: "refs", name: "greet" }],
  ["symbols", { relation: "callers", name: "greet" }],
  ["symbols", { relation: "callees", name: "greet_count" }],
  ["symbols", { relation: "outline", file: EDITED }],
  ["symbols", { relation: "imports", file: EDITED }],
  ["symbols", { relation: "importers", file: "include/greet.h" }],
  ["symbols", { relation: "status" }],
  ["graph", { algorithm: "reachable", name: "greet_count" }],
  ["graph", { algorithm: "dead_code" }],
  ["graph", { algorithm: "cycles" }],
  ["graph", { algorithm: "paths", from: "greet_count", to: "greet" }],
  ["graph", { algorithm: "impact", name: "greet" }],
  ["graph", { algorithm: "export", graph_format: "dot" }],
  ["repo_map", { tokens: 200 }],
  ["validate", { path: PREVIEWED, content: "def parse_config(text):\n    return {}\n" }],
  ["get_execution", { execution_id: "$search.execution_id" }],
  ["transform", { file: EDITED, old: 'printf("hello', new: 'printf("goodbye' }],
  ["transform", { undo: "$transform.execution_id" }],
  ["write", {
    path: "src/farewell.py",
    content: "def farewell(name):\n    return 'bye ' + name\n",
  }],
  ["refactor", {
    op: "rename",
    symbol: "greet_count",
    to: "count_greetings",
    dry_run: false,
    gates: "syntax",
  }],
  ["refactor", { op: "undo", execution_id: "$refactor.execution_id", dry_run: false }],
  ["refactor", {
    op: "patch",
    symbol: "parse_config",
    text:
      "def parse_config(text):\n    return dict(line.split('=', 1) for line in text.splitlines())\n",
    gates: "syntax",
  }],
  ["refactor", { op: "delete", symbol: "parse_config", gates: "syntax" }],
  ["refactor", {
    op: "insert",
    symbol: "parse_config",
    text: "def dump_config(pairs):\n    return sorted(pairs)\n",
    gates: "syntax",
  }],
  ["refactor", {
    op: "plan",
    steps: [{ op: "rename", symbol: "parse_config", to: "read_config" }],
    gates: "syntax",
  }],
];

/** The tools whose calls only read (the Inspector runs them side by side). */
const READERS = new Set([
  "search",
  "ast_search",
  "discover",
  "symbols",
  "graph",
  "repo_map",
  "validate",
]);

/** A call's name in messages: the tool, and a merged tool's relation, algorithm or op. */
function label([tool, args]: Call): string {
  const value = args.relation ?? args.algorithm ?? args.op;
  return value === undefined ? tool : `${tool} ${value}`;
}

/** What a client reported for one call. */
interface CallReport {
  tool: string;
  is_error: boolean;
  structured: Record<string, unknown>;
  /** Text of the edited file right after the call. */
  watched: string;
}

/** Runs the installer for `part` when its client is missing; true when it is usable after. */
async function ensureClient(part: "python" | "inspector", probe: string[]): Promise<boolean> {
  const usable = async () => {
    try {
      const [command, ...args] = probe;
      const { success } = await new Deno.Command(command, { args, stdout: "null", stderr: "null" })
        .output();
      return success;
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return false;
      throw error;
    }
  };
  if (await usable()) return true;
  const install = await new Deno.Command("bash", {
    args: [INSTALLER, CACHE, part],
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  return install.success && await usable();
}

const hasPythonClient = await ensureClient("python", [
  PYTHON,
  "-c",
  `import importlib.metadata as m; assert m.version("mcp") == "${PYTHON_MCP_VERSION}"`,
]);
const hasInspector = await ensureClient("inspector", [
  "node",
  "-e",
  `process.exit(require(${
    JSON.stringify(
      join(CACHE, "inspector/node_modules/@modelcontextprotocol/inspector/package.json"),
    )
  }).version === "${INSPECTOR_VERSION}" ? 0 : 1)`,
]);

/** A fresh copy of the fixture repository and an unrelated working directory. */
async function workspace(): Promise<{ root: string; elsewhere: string; cleanup(): Promise<void> }> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "llm-mcp-client-" }));
  await cp(join(FIXTURES, "repo"), root, { recursive: true });
  const elsewhere = await Deno.makeTempDir({ prefix: "llm-mcp-cwd-" });
  return {
    root,
    elsewhere,
    async cleanup() {
      await Deno.remove(root, { recursive: true });
      await Deno.remove(elsewhere, { recursive: true });
    },
  };
}

/** The server command line, permissions scoped to `root`. */
function server(root: string): string[] {
  return [
    "deno",
    ...serverCommand({
      root,
      permissions: [`--allow-read=${root}`, `--allow-write=${root}`],
    }),
  ];
}

/** Every string and number in a JSON value, depth first in document order. */
function leaves(value: unknown): (string | number)[] {
  if (typeof value === "string" || typeof value === "number") return [value];
  if (Array.isArray(value)) return value.flatMap(leaves);
  if (value && typeof value === "object") return Object.values(value).flatMap(leaves);
  return [];
}

/** Fixture files by their repository-relative path. */
async function fixturePaths(): Promise<Set<string>> {
  const paths = new Set<string>();
  const walk = async (dir: string, prefix: string) => {
    for await (const entry of Deno.readDir(dir)) {
      const path = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory) await walk(join(dir, entry.name), path);
      else paths.add(path);
    }
  };
  await walk(join(FIXTURES, "repo"), "");
  return paths;
}

/** The value at `path` (keys and indexes) in a structured result. */
function at(value: unknown, ...path: (string | number)[]): unknown {
  return path.reduce<unknown>(
    (inner, key) => (inner as Record<string | number, unknown> | undefined)?.[key],
    value,
  );
}

/**
 * Asserts the real results of the sequence. The checks read values, not one envelope layout
 * (a compact layout groups matches by file): the search shows the matched line of both files,
 * the AST search names both C functions in `src/greet.c`, discover ranks `src/parse_config.py`
 * first, each symbol and graph query answers what the fixture holds, the transform and the rename
 * changed the file and their undos restored its original bytes, the write created its file and
 * the refactor previews changed nothing.
 */
async function assertSequence(
  root: string,
  reports: CallReport[],
  original: string,
  previewed: string,
): Promise<void> {
  assert.deepEqual(reports.map((report) => report.tool), CALLS.map(([tool]) => tool));
  const byLabel = new Map<string, CallReport>();
  reports.forEach((report, i) => {
    const name = label(CALLS[i]);
    assert.ok(!report.is_error, `${name}: ${JSON.stringify(report.structured)}`);
    const status = report.structured.status;
    assert.ok(status === "ok" || status === "approved", `${name} status ${status}`);
    if (!byLabel.has(name)) byLabel.set(name, report);
  });
  const report = (name: string): CallReport => {
    const found = byLabel.get(name);
    assert.ok(found, `a call of ${name}`);
    return found;
  };
  const values = (name: string) => leaves(report(name).structured);
  const data = (name: string, ...path: (string | number)[]) =>
    at(report(name).structured, "data", ...path);
  const result = (name: string, ...path: (string | number)[]) =>
    at(report(name).structured, "result", ...path);

  const search = values("search");
  assert.ok(search.includes("src/greet.c") && search.includes("include/greet.h"), "search files");
  assert.ok(search.includes("int greet_count(int times)"), "search shows the matched line");

  const ast = values("ast_search");
  assert.ok(ast.includes("src/greet.c"), "ast_search names the file");
  for (const name of ["greet", "greet_count"]) assert.ok(ast.includes(name), `definition ${name}`);
  assert.ok(!ast.includes("parse_config"), "ast_search keeps to the name filter");

  const fixtures = await fixturePaths();
  const ranked = values("discover").filter((value) =>
    typeof value === "string" && fixtures.has(value)
  );
  assert.equal(ranked[0], "src/parse_config.py", `discover ranked ${ranked.join(", ")}`);

  // llm-context built the index (the server may write .llm) and lists the function named.
  const context = values("context");
  assert.ok(context.includes("greet_count"), "context lists greet_count");
  assert.ok(context.includes("src/greet.c"), "context names its file");

  // The symbol index's queries, on the index context built.
  assert.equal(data("symbols find", "results", 0, "span", "file_path"), EDITED);
  assert.equal(data("symbols find", "results", 0, "name"), "greet_count");
  assert.ok(values("symbols refs").includes("include/greet.h"), "refs of greet: its declaration");
  assert.equal(data("symbols callers", "results", 0, "span", "file_path"), EDITED);
  assert.equal(data("symbols callees", "results", 0, "name"), "greet", "greet_count calls greet");
  const outline = (data("symbols outline", "results") as { name: string }[]).map((symbol) =>
    symbol.name
  );
  assert.deepEqual(outline, ["greet", "greet_count"]);
  assert.ok(values("symbols imports").includes("include/greet.h"), "greet.c includes greet.h");
  assert.equal(data("symbols importers", "results", 0, "span", "file_path"), EDITED);
  assert.equal(data("symbols status", "files"), 3, "status: the 3 source files indexed");

  assert.equal(data("graph reachable", "results", 0, "name"), "greet");
  assert.equal(data("graph dead_code", "total"), 0, "no dead code");
  assert.equal(data("graph cycles", "total"), 0, "no cycles");
  assert.equal(data("graph paths", "count"), 1, "one path from greet_count to greet");
  assert.equal(data("graph impact", "results", 0, "name"), "greet_count", "greet's impact");
  assert.match(String(data("graph export", "text")), /^digraph symbols \{/);
  assert.match(String(data("repo_map", "text")), /int greet_count\(int times\)/);
  assert.equal(data("validate", "status"), "approved");
  assert.ok(
    values("get_execution").includes(report("search").structured.execution_id as string),
    "get_execution returns the logged search",
  );

  const edits = reports.filter((each) => each.tool === "transform");
  assert.ok(leaves(edits[0].structured).includes(EDITED), "transform names the edited file");
  assert.equal(edits[0].watched, original.replace('printf("hello', 'printf("goodbye'));
  assert.ok(
    leaves(edits[1].structured).includes(edits[0].structured.execution_id as string),
    "undo names the run",
  );
  assert.equal(edits[1].watched, original, "undo restores the original bytes");

  assert.equal(report("write").structured.status, "approved");
  assert.equal(
    await Deno.readTextFile(join(root, "src/farewell.py")),
    "def farewell(name):\n    return 'bye ' + name\n",
  );

  assert.equal(result("refactor rename", "dry_run"), false);
  assert.equal(
    report("refactor rename").watched,
    original.replaceAll("greet_count", "count_greetings"),
  );
  assert.equal(
    result("refactor undo", "undone_execution_id"),
    report("refactor rename").structured.execution_id,
  );
  assert.equal(report("refactor undo").watched, original, "refactor undo restores the bytes");
  for (const op of ["patch", "delete", "insert", "plan"]) {
    assert.equal(result(`refactor ${op}`, "dry_run"), true, `refactor ${op} previews`);
    assert.equal(result(`refactor ${op}`, "files", 0, "file_path"), PREVIEWED, `refactor ${op}`);
  }
  assert.equal(await Deno.readTextFile(join(root, PREVIEWED)), previewed, "previews write nothing");
}

Deno.test({
  name:
    `mcp clients: Python mcp ${PYTHON_MCP_VERSION} from PyPI — every default tool, relation, algorithm and op (needs python3 + pip)`,
  ignore: !hasPythonClient,
  async fn() {
    const { root, elsewhere, cleanup } = await workspace();
    try {
      const original = await Deno.readTextFile(join(root, EDITED));
      const previewed = await Deno.readTextFile(join(root, PREVIEWED));
      const [command, ...args] = server(root);
      const plan = { command, args, cwd: elsewhere, calls: CALLS, watch: join(root, EDITED) };
      const output = await new Deno.Command(PYTHON, {
        args: [join(FIXTURES, "python_client.py"), JSON.stringify(plan)],
        cwd: elsewhere,
        stdout: "piped",
        stderr: "piped",
      }).output();
      const stderr = new TextDecoder().decode(output.stderr);
      assert.ok(output.success, `python client failed:\n${stderr}`);
      const answer = JSON.parse(new TextDecoder().decode(output.stdout)) as {
        server: string;
        tools: string[];
        results: CallReport[];
      };
      assert.equal(answer.server, "llm-mcp");
      assert.deepEqual(answer.tools, DEFAULT_TOOL_NAMES, "tools/list offers the default surface");
      await assertSequence(root, answer.results, original, previewed);
    } finally {
      await cleanup();
    }
  },
});

/** One `--cli --method tools/call` run of the Inspector; its JSON answer. */
async function inspectorCall(
  root: string,
  cwd: string,
  [tool, args]: Call,
): Promise<Record<string, unknown>> {
  const toolArgs = Object.entries(args).map(([key, value]) =>
    `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`
  );
  const output = await new Deno.Command(INSPECTOR, {
    // The server command goes after `--`: the Inspector would read deno's `--config` as its own.
    args: [
      "--cli",
      "--method",
      "tools/call",
      "--tool-name",
      tool,
      "--tool-arg",
      ...toolArgs,
      "--",
      ...server(root),
    ],
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(output.stderr);
  assert.ok(output.success, `inspector ${tool} failed:\n${stderr}`);
  return JSON.parse(new TextDecoder().decode(output.stdout));
}

Deno.test({
  name:
    `mcp clients: MCP Inspector CLI ${INSPECTOR_VERSION} from npm — every default tool, relation, algorithm and op (needs npm)`,
  ignore: !hasInspector,
  async fn() {
    const { root, elsewhere, cleanup } = await workspace();
    try {
      const original = await Deno.readTextFile(join(root, EDITED));
      const previewed = await Deno.readTextFile(join(root, PREVIEWED));
      const reports: CallReport[] = [];
      const callOnce = async (index: number): Promise<void> => {
        const [tool, args] = CALLS[index];
        const resolved = Object.fromEntries(
          Object.entries(args).map(([key, value]) => {
            const named = typeof value === "string" ? /^\$(\w+)\.execution_id$/.exec(value) : null;
            if (!named) return [key, value];
            const earlier = reports.find((report) => report?.tool === named[1]);
            assert.ok(earlier, `${label(CALLS[index])}: no earlier ${named[1]} call`);
            return [key, earlier.structured.execution_id];
          }),
        );
        const answer = await inspectorCall(root, elsewhere, [tool, resolved]);
        reports[index] = {
          tool,
          is_error: answer.isError === true,
          structured: answer.structuredContent as Record<string, unknown>,
          watched: await Deno.readTextFile(join(root, EDITED)),
        };
      };
      // One server process per Inspector call. context first, alone: its server builds the symbol
      // index on first need, which the queries after it read. Then the calls that only read run
      // side by side to keep CI short, and the others (get_execution of the logged search, the
      // edits and their undos) one after the other, in order.
      const indexes = CALLS.map((_, i) => i);
      const reading = indexes.filter((i) => READERS.has(CALLS[i][0]));
      await callOnce(indexes.find((i) => CALLS[i][0] === "context")!);
      await Promise.all(reading.map(callOnce));
      for (const i of indexes) {
        if (!reports[i]) await callOnce(i);
      }
      await assertSequence(root, reports, original, previewed);
    } finally {
      await cleanup();
    }
  },
});
