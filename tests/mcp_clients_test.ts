/**
 * llm-mcp driven by third-party MCP clients, as agents' hosts drive it: the Python `mcp` client
 * from PyPI and the MCP Inspector CLI from npm. Each does search → ast_search → discover →
 * transform → undo on a copy of `tests/fixtures/mcp_clients/repo`, with a server whose read and
 * write permissions are scoped to that copy, started from an unrelated working directory.
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

/** The file the transform edits and the undo restores. */
const EDITED = "src/greet.c";

/** One tool call of the sequence. */
type Call = [tool: string, args: Record<string, unknown>];

/**
 * The sequence every client makes. The undo names the transform's execution id; the Python
 * client resolves `$transform.execution_id` itself, the Inspector test before the call.
 */
const CALLS: Call[] = [
  ["search", { patterns: ["greet_count"] }],
  ["ast_search", { kind: ["function"], name: "^greet" }],
  ["discover", { query: "parse config" }],
  ["context", { task: "greet_count(3) should greet three times but returns early", budget: 2000 }],
  ["transform", { file: EDITED, old: 'printf("hello', new: 'printf("goodbye' }],
  ["transform", { undo: "$transform.execution_id" }],
];

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

/**
 * Asserts the real results of the sequence. The checks read values, not one envelope layout
 * (a compact layout groups matches by file): the search shows the matched line of both files,
 * the AST search names both C functions in `src/greet.c`, discover ranks `src/parse_config.py`
 * first, the transform changed the file and the undo restored its original bytes.
 */
async function assertSequence(reports: CallReport[], original: string): Promise<void> {
  assert.deepEqual(reports.map((report) => report.tool), CALLS.map(([tool]) => tool));
  for (const report of reports) {
    assert.ok(!report.is_error, `${report.tool}: ${JSON.stringify(report.structured)}`);
    assert.equal(report.structured.status, "ok", `${report.tool} status`);
  }
  const [search, ast, discover, context, transform, undo] = reports.map((report) =>
    leaves(report.structured)
  );

  assert.ok(search.includes("src/greet.c") && search.includes("include/greet.h"), "search files");
  assert.ok(search.includes("int greet_count(int times)"), "search shows the matched line");

  assert.ok(ast.includes("src/greet.c"), "ast_search names the file");
  for (const name of ["greet", "greet_count"]) assert.ok(ast.includes(name), `definition ${name}`);
  assert.ok(!ast.includes("parse_config"), "ast_search keeps to the name filter");

  const fixtures = await fixturePaths();
  const ranked = discover.filter((value) => typeof value === "string" && fixtures.has(value));
  assert.equal(ranked[0], "src/parse_config.py", `discover ranked ${ranked.join(", ")}`);

  assert.ok(transform.includes(EDITED), "transform names the edited file");
  assert.equal(reports[4].watched, original.replace('printf("hello', 'printf("goodbye'));
  assert.ok(undo.includes(reports[4].structured.execution_id as string), "undo names the run");
  assert.equal(reports[5].watched, original, "undo restores the original bytes");

  // llm-context built the index (the server may write .llm) and lists the function named.
  assert.ok(context.includes("greet_count"), "context lists greet_count");
  assert.ok(context.includes("src/greet.c"), "context names its file");
}

Deno.test({
  name:
    `mcp clients: Python mcp ${PYTHON_MCP_VERSION} from PyPI — search, ast_search, discover, transform, undo, context (needs python3 + pip)`,
  ignore: !hasPythonClient,
  async fn() {
    const { root, elsewhere, cleanup } = await workspace();
    try {
      const original = await Deno.readTextFile(join(root, EDITED));
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
      for (const tool of ["search", "ast_search", "discover", "transform", "get_execution"]) {
        assert.ok(answer.tools.includes(tool), `tools/list offers ${tool}`);
      }
      await assertSequence(answer.results, original);
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
    `mcp clients: MCP Inspector CLI ${INSPECTOR_VERSION} from npm — search, ast_search, discover, transform, undo, context (needs npm)`,
  ignore: !hasInspector,
  async fn() {
    const { root, elsewhere, cleanup } = await workspace();
    try {
      const original = await Deno.readTextFile(join(root, EDITED));
      const callOnce = async ([tool, args]: Call, earlier: CallReport[]): Promise<CallReport> => {
        const resolved = Object.fromEntries(
          Object.entries(args).map(([key, value]) => [
            key,
            value === "$transform.execution_id"
              ? earlier.find((report) => report.tool === "transform")?.structured.execution_id
              : value,
          ]),
        );
        const answer = await inspectorCall(root, elsewhere, [tool, resolved]);
        return {
          tool,
          is_error: answer.isError === true,
          structured: answer.structuredContent as Record<string, unknown>,
          watched: await Deno.readTextFile(join(root, EDITED)),
        };
      };
      // One server process per Inspector call: the read-only calls run side by side to keep
      // CI short, the transform and its undo one after the other.
      const reports = await Promise.all(
        CALLS.filter(([tool]) => tool !== "transform").map((call) => callOnce(call, [])),
      );
      for (const call of CALLS.filter(([tool]) => tool === "transform")) {
        reports.push(await callOnce(call, reports));
      }
      await assertSequence(reports, original);
    } finally {
      await cleanup();
    }
  },
});
