/**
 * `llm-ast-search` run as a remote module, the way JSR or any HTTP host serves it: the
 * repository is served from 127.0.0.1 and run with `--allow-read=<fixture dir>` and
 * `--allow-import` for that host only. Grammars, the tree-sitter runtime and the parse
 * workers all come over HTTP and load with no further permission.
 */
import assert from "node:assert/strict";
import { extname, join, normalize } from "node:path";
import { INLINE_BYTES } from "../tools/ast-search/engine.ts";
import { makeTree, REPO, runEntry, withoutRunFields } from "./helpers.ts";

const TYPES: Record<string, string> = {
  ".ts": "application/typescript",
  ".json": "application/json",
};

/** Serves the repository's files read-only; returns its origin and a stop function. */
function serveRepository(): { origin: string; stop: () => Promise<void> } {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (request) => {
      const path = normalize(decodeURIComponent(new URL(request.url).pathname));
      if (path.includes("..")) return new Response("forbidden", { status: 403 });
      try {
        const body = await Deno.readFile(join(REPO, path));
        const type = TYPES[extname(path)] ?? "application/octet-stream";
        return new Response(body, { headers: { "content-type": type } });
      } catch {
        return new Response("not found", { status: 404 });
      }
    },
  );
  return { origin: `http://127.0.0.1:${server.addr.port}`, stop: () => server.shutdown() };
}

/** C source with `count` functions, large enough in total to start parse workers. */
function manyFunctions(prefix: string, count: number): string {
  let text = "";
  for (let i = 0; i < count; i++) {
    text += `static int ${prefix}_${i}(int value)\n{\n\t/* ${"x".repeat(120)} */\n` +
      `\treturn value + ${i};\n}\n\n`;
  }
  return text;
}

Deno.test("remote module: grammars and workers load over HTTP with --allow-read=<dir> only", async () => {
  const files: Record<string, string> = { "main.c": "int main(void) { return 0; }\n" };
  for (let part = 0; part < 4; part++) files[`gen/part${part}.c`] = manyFunctions(`f${part}`, 2300);
  const fixture = await makeTree(files);
  const size = Object.values(files).reduce((sum, text) => sum + text.length, 0);
  assert.ok(size > INLINE_BYTES, "the fixture must be large enough to use workers");
  const { origin, stop } = serveRepository();
  try {
    const host = origin.slice("http://".length);
    const args = ["--kind", "function", "--limit", "0", "-j", "2", "-S"];
    const command = new Deno.Command("deno", {
      args: [
        "run",
        "--quiet",
        "--no-prompt",
        `--allow-read=${fixture}`,
        `--allow-import=${host}`,
        `--import-map=${origin}/deno.json`,
        `${origin}/tools/ast-search/main.ts`,
        ...args,
      ],
      cwd: fixture,
      stdout: "piped",
      stderr: "piped",
    });
    const output = await command.output();
    const stdout = new TextDecoder().decode(output.stdout);
    assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
    const envelope = JSON.parse(stdout);
    assert.equal(envelope.status, "ok");
    // A worker that failed to load would be reported (and its files parsed on the main thread).
    assert.deepEqual(envelope.diagnostics, []);
    assert.equal(envelope.data.match_count, 1 + 4 * 2300);
    assert.equal(envelope.data.files_searched, 5);
    assert.equal(envelope.data.matches[0].name, "f0_0");
    assert.deepEqual(envelope.data.matches[0].semantics, {
      semantic_kind: "function",
      language: "c",
    });
    // The same run from the local checkout gives the same answer; scoped to the fixture, its
    // workers could not read the package, so it says it parsed on one thread.
    const local = await runEntry("tools/ast-search/main.ts", args, {
      cwd: fixture,
      permissions: [`--allow-read=${fixture}`],
    });
    const localEnvelope = JSON.parse(local.stdout);
    assert.equal(
      withoutRunFields(JSON.stringify(localEnvelope.data)),
      withoutRunFields(JSON.stringify(envelope.data)),
    );
    assert.deepEqual(
      localEnvelope.diagnostics.map((d: { code: string; level: string }) => `${d.level} ${d.code}`),
      [
        "note LMA-PERM-001",
      ],
    );
    assert.equal(local.stderr, "");
  } finally {
    await stop();
    await Deno.remove(fixture, { recursive: true });
  }
});
