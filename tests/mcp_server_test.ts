/**
 * llm-mcp through the official SDK's stdio client, on a fixture repository, with read
 * permission only (scoped to the fixture, as a user would grant it): the default surface's read
 * tools, each relation and algorithm of `symbols` and `graph` called once.
 */
import assert from "node:assert/strict";
import { Ajv2020 } from "ajv/dist/2020.js";
import { type Envelope, ExecutionRecordSchema, GetExecutionEnvelopeSchema } from "../schema/mod.ts";
import { DEFAULT_TOOLS } from "../tools/mcp/surface.ts";
import type { Tool } from "../core/tool.ts";
import { makeTree } from "./helpers.ts";
import {
  connect,
  FIXTURE,
  indexFixture,
  listAllTools,
  sampleCall,
  sampleDefinition,
  SAMPLES,
  serverCommand,
  unsampled,
} from "./mcp_helpers.ts";

interface CallOutcome {
  structuredContent: Record<string, unknown>;
  content: { type: string; text: string }[];
  isError?: boolean;
}

/** The fields of a `tools/list` entry the tests read (the SDK's types do not reach deno check). */
interface ListedTool {
  name: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean };
}

const ajv = new Ajv2020({ strict: false, validateFormats: false });

/**
 * Checks an envelope against the zod output schema of the definition that answered (a merged
 * tool's member) and against the outputSchema the server listed for the tool called, `name`
 * (what an MCP client validates with; listed with `--output-schemas`).
 */
function assertEnvelope(tool: Tool, name: string, listed: ListedTool[], envelope: unknown): void {
  const compact = (envelope as { form?: string }).form === "compact";
  const schema = compact ? tool.compact?.output : tool.output;
  assert.ok(schema, `${tool.name} has a schema of its ${compact ? "compact" : "full"} form`);
  const parsed = schema.safeParse(envelope);
  assert.ok(parsed.success, `zod: ${parsed.success ? "" : JSON.stringify(parsed.error.issues)}`);
  const listedSchema = listed.find((entry) => entry.name === name)?.outputSchema;
  assert.ok(listedSchema, `${name} has an outputSchema`);
  const validate = ajv.compile(listedSchema);
  assert.ok(validate(envelope), `outputSchema: ${JSON.stringify(validate.errors)}`);
}

/** The default surface's tools a read-only server lists. */
const READ_ONLY = DEFAULT_TOOLS.filter((tool) => !tool.permissions.includes("write"));

/** The samples of those tools: every relation of `symbols` and algorithm of `graph` among them. */
const READ_SAMPLES = Object.keys(SAMPLES).filter((key) =>
  READ_ONLY.some((tool) => tool.mcpName === SAMPLES[key].tool)
);

Deno.test("mcp: initialize, list, call every read-only tool, refusals, get_execution", async (t) => {
  const root = await makeTree(FIXTURE);
  await indexFixture(root);
  // The outputSchemas are listed only when asked for (issue 33): this test validates with them.
  const server = await connect({
    root,
    permissions: [`--allow-read=${root}`],
    args: ["--output-schemas"],
  });
  try {
    await t.step("initialize negotiates 2025-11-25 and names the server", () => {
      const info = server.client.getServerVersion();
      assert.equal(info?.name, "llm-mcp");
      assert.ok(server.client.getServerCapabilities()?.tools, "tools capability");
      assert.match(server.client.getInstructions() ?? "", /get_execution/);
    });

    const tools = await listAllTools<ListedTool>(server.client);
    await t.step("tools/list: the default surface's order, read tools only, get_execution", () => {
      assert.deepEqual(tools.map((tool) => tool.name), [
        ...READ_ONLY.map((tool) => tool.mcpName),
        "get_execution",
      ]);
      for (const tool of tools) {
        assert.equal(tool.annotations?.readOnlyHint, true, `${tool.name} is read-only`);
        assert.equal(tool.annotations?.destructiveHint, false);
      }
    });

    await t.step("every inputSchema and outputSchema is a valid JSON Schema (ajv 2020)", () => {
      for (const tool of tools) {
        assert.equal(tool.inputSchema.type, "object");
        assert.ok(ajv.validateSchema(tool.inputSchema), `${tool.name} input: ${ajv.errorsText()}`);
        ajv.compile(tool.inputSchema);
        assert.ok(tool.outputSchema, `${tool.name} has an outputSchema`);
        assert.ok(
          ajv.validateSchema(tool.outputSchema),
          `${tool.name} output: ${ajv.errorsText()}`,
        );
        ajv.compile(tool.outputSchema);
      }
    });

    await t.step("annotations are the definitions' own", () => {
      for (const definition of READ_ONLY) {
        const listed = tools.find((tool) => tool.name === definition.mcpName);
        assert.deepEqual(
          {
            readOnlyHint: listed?.annotations?.readOnlyHint,
            destructiveHint: listed?.annotations?.destructiveHint,
            idempotentHint: listed?.annotations?.idempotentHint,
          },
          definition.annotations,
        );
      }
    });

    const executions = new Map<string, Record<string, unknown>>();
    await t.step("every default tool, relation, algorithm and op has a sample", () => {
      assert.deepEqual(unsampled(), [], "calls without a sample in tests/mcp_helpers.ts");
    });

    for (const key of READ_SAMPLES) {
      await t.step(`call ${key}: structured envelope valid and as text`, async () => {
        const sample = SAMPLES[key];
        const definition = sampleDefinition(key);
        const result = await server.client.callTool(sampleCall(key)) as CallOutcome;
        const envelope = result.structuredContent;
        assert.notEqual(result.isError, true, JSON.stringify(envelope));
        assertEnvelope(definition, sample.tool, tools, envelope);
        assert.notEqual(envelope.status, "error");
        assert.equal(envelope.tool, definition.name);
        sample.check(envelope);
        assert.equal(result.content[0].type, "text");
        assert.deepEqual(JSON.parse(result.content[0].text), envelope);
        executions.set(key, envelope);
      });
    }

    await t.step("get_execution returns each past envelope unchanged", async () => {
      for (const [key, envelope] of executions) {
        const { tool: name, args } = SAMPLES[key];
        const result = await server.client.callTool({
          name: "get_execution",
          arguments: { execution_id: envelope.execution_id, detail: "full" },
        }) as CallOutcome;
        const parsed = GetExecutionEnvelopeSchema.parse(result.structuredContent);
        assert.equal(parsed.status, "ok");
        const record = ExecutionRecordSchema.parse(
          (parsed.data as { execution: unknown }).execution,
        );
        assert.equal(record.tool, name);
        assert.deepEqual(record.arguments, args);
        assert.equal(record.status, envelope.status);
        // The log keeps the full envelope; a compact answer is its compact form.
        const definition = sampleDefinition(key);
        const logged = envelope.form === "compact"
          ? definition.compact?.form.compact(record.envelope as Envelope)
          : record.envelope;
        assert.deepEqual(logged, envelope);
      }
      const legacy = await server.client.callTool({
        name: "get_execution",
        arguments: { operation_id: [...executions.values()][0].execution_id },
      }) as CallOutcome;
      assert.equal(legacy.structuredContent.status, "ok", "operation_id is an alias");
    });

    await t.step("a tool's own failure is a result with isError and the diagnostic", async () => {
      const result = await server.client.callTool({
        name: "search",
        arguments: { patterns: ["(unclosed"] },
      }) as CallOutcome;
      assert.equal(result.isError, true);
      const envelope = result.structuredContent;
      assertEnvelope(sampleDefinition("search"), "search", tools, envelope);
      const [diagnostic] = envelope.diagnostics as { code: string; remediation?: string }[];
      assert.equal(diagnostic.code, "LMS-QRY-001");
      assert.ok(diagnostic.remediation);
    });

    await t.step("get_execution of an unknown id: isError MCP-REF-001", async () => {
      const result = await server.client.callTool({
        name: "get_execution",
        arguments: { execution_id: crypto.randomUUID() },
      }) as CallOutcome;
      assert.equal(result.isError, true);
      const envelope = GetExecutionEnvelopeSchema.parse(result.structuredContent);
      assert.equal(envelope.diagnostics[0].code, "MCP-REF-001");
    });

    await t.step("unknown tool: JSON-RPC error -32602 with MCP-ARG-010", async () => {
      await assert.rejects(
        () => server.client.callTool({ name: "no_such_tool", arguments: {} }),
        (error: Error & { code?: number; data?: { diagnostic: { code: string } } }) => {
          assert.equal(error.code, -32602);
          assert.equal(error.data?.diagnostic.code, "MCP-ARG-010");
          return true;
        },
      );
    });

    await t.step(
      "bad arguments: an isError result naming the field and the valid ones",
      async () => {
        // Issue 13 changed this from a JSON-RPC -32602 error, which the model never sees.
        const refusal = async (args: Record<string, unknown>) => {
          const result = await server.client.callTool({
            name: "search",
            arguments: args,
          }) as CallOutcome;
          assert.equal(result.isError, true, JSON.stringify(args));
          const [diagnostic] = result.structuredContent.diagnostics as {
            code: string;
            message: string;
            note?: string;
          }[];
          assert.equal(diagnostic.code, "LMS-ARG-002");
          assert.ok(result.content.length > 0, "the model reads the refusal as text");
          return diagnostic;
        };
        assert.match((await refusal({ patterns: 5 })).message, /\$\.patterns/);
        const unknown = await refusal({ patterns: ["x"], patern: 1 });
        assert.match(unknown.message, /unknown argument 'patern' \(did you mean 'patterns'\?\)/);
        assert.match(unknown.note ?? "", /search takes: patterns, paths, .*glob/);
        assert.match((await refusal({ patterns: ["x"], offset: -1 })).message, /offset/);
      },
    );

    await t.step(
      "a merged tool's call mixing another value's arguments: isError *-ARG-002 with the combinations",
      async () => {
        const refusal = async (name: string, args: Record<string, unknown>) => {
          const result = await server.client.callTool({ name, arguments: args }) as CallOutcome;
          assert.equal(result.isError, true, JSON.stringify(args));
          const [diagnostic] = result.structuredContent.diagnostics as {
            code: string;
            message: string;
            note?: string;
          }[];
          assert.match(diagnostic.code, /^[A-Z]+-ARG-002$/, JSON.stringify(diagnostic));
          assert.ok(result.content.length > 0, "the model reads the refusal as text");
          return diagnostic;
        };
        const mixed = await refusal("symbols", { relation: "outline", name: "greet" });
        assert.match(mixed.message, /relation outline does not take 'name'/);
        assert.match(mixed.note ?? "", /relation: find takes [^;]*\bname\b/);
        assert.match(mixed.note ?? "", /relation: outline takes [^;]*\bfile\b/);
        const graph = await refusal("graph", { algorithm: "cycles", from: "add" });
        assert.match(graph.message, /algorithm cycles does not take 'from'/);
        assert.match(graph.note ?? "", /algorithm: paths takes [^;]*\bfrom\b/);
        const unknown = await refusal("symbols", { relation: "definition", name: "greet" });
        assert.match(unknown.message, /\$\.relation\b.*find.*refs.*callers/);
        const none = await refusal("graph", {});
        assert.match(none.message, /algorithm/);
      },
    );

    await t.step(
      "aliases agents type are accepted: pattern, path, a lone string for a list",
      async () => {
        const result = await server.client.callTool({
          name: "search",
          arguments: { pattern: "greet", path: "src", globs: "*.ts", detail: "full" },
        }) as CallOutcome;
        assert.notEqual(result.isError, true, JSON.stringify(result.structuredContent));
        const matches =
          (result.structuredContent.data as { matches: { span: { file_path: string } }[] })
            .matches;
        assert.ok(matches.length > 0);
        assert.ok(matches.every((match) => match.span.file_path.startsWith("src/")));
        const outside = await server.client.callTool({
          name: "search",
          arguments: { pattern: "root", path: "/etc" },
        }) as CallOutcome;
        assert.equal(outside.isError, true, "an aliased path is scoped like the field itself");
        const diagnostic = (outside.structuredContent.diagnostics as { code: string }[])[0];
        assert.equal(diagnostic.code, "MCP-PERM-010");
      },
    );

    await t.step("paths outside the root are refused with MCP-PERM-010", async () => {
      for (const path of ["/etc", "..", "src/../../"]) {
        const result = await server.client.callTool({
          name: "search",
          arguments: { patterns: ["root"], paths: [path] },
        }) as CallOutcome;
        assert.equal(result.isError, true, path);
        const diagnostic = (result.structuredContent.diagnostics as { code: string }[])[0];
        assert.equal(diagnostic.code, "MCP-PERM-010", path);
      }
      await Deno.symlink("/etc", `${root}/escape`);
      const linked = await server.client.callTool({
        name: "search",
        arguments: { patterns: ["root"], paths: ["escape"] },
      }) as CallOutcome;
      assert.equal(linked.isError, true, "a symlink out of the root is refused");
      await Deno.remove(`${root}/escape`);
      const inside = await server.client.callTool({
        name: "search",
        arguments: { patterns: ["greet"], paths: ["src/../src"] },
      }) as CallOutcome;
      assert.notEqual(inside.isError, true, "a path that stays inside is fine");
    });

    await t.step("logs go to stderr only", () => {
      assert.match(server.stderr(), /llm-mcp: serving /);
    });
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("mcp: --tools serves the tools it names (and get_execution), a merged tool's member by its own name; an unknown name is MCP-ARG-013", async () => {
  const root = await makeTree(FIXTURE);
  await indexFixture(root);
  try {
    const server = await connect({
      root,
      permissions: [`--allow-read=${root}`],
      args: ["--tools", "search,symbols_find,context", "--tools", "graph,symbols_verify"],
    });
    try {
      const names = (await listAllTools(server.client)).map((tool) => tool.name);
      // The default surface's order, then the registry's, whatever the order written.
      assert.deepEqual(names, [
        "context",
        "search",
        "graph",
        "symbols_find",
        "symbols_verify",
        "get_execution",
      ]);
      // A member named by its own name answers as `symbols` with its relation does.
      const { relation: _relation, ...args } = SAMPLES["symbols:find"].args;
      const found = await server.client.callTool({
        name: "symbols_find",
        arguments: args,
      }) as CallOutcome;
      assert.notEqual(found.isError, true, JSON.stringify(found.structuredContent));
      SAMPLES["symbols:find"].check(found.structuredContent);
      // A maintenance tool, outside the default surface.
      const verified = await server.client.callTool(sampleCall("symbols_verify")) as CallOutcome;
      assert.notEqual(verified.isError, true, JSON.stringify(verified.structuredContent));
      SAMPLES.symbols_verify.check(verified.structuredContent);
      // A tool left out is unknown to this server (MCP-ARG-010, a JSON-RPC error).
      await assert.rejects(
        server.client.callTool({ name: "discover", arguments: { query: "x" } }),
        /MCP-ARG-010/,
      );
    } finally {
      await server.close();
    }
    const unknown = await new Deno.Command("deno", {
      args: serverCommand({
        root,
        permissions: [`--allow-read=${root}`],
        args: ["--tools", "grep"],
      }),
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(unknown.code, 2);
    const stderr = new TextDecoder().decode(unknown.stderr);
    assert.match(stderr, /MCP-ARG-013: --tools names no tool: grep/);
    assert.match(stderr, /context, search/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
