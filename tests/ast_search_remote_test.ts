/**
 * `llm-ast-search` and `llm-search` run as remote modules, the way JSR or any HTTP host serves them: the
 * repository is served from 127.0.0.1 and run with `--allow-read=<fixture dir>` and
 * `--allow-import` for that host only. Grammars, the tree-sitter runtime and the parse
 * workers all come over HTTP and load with no further permission.
 */
import assert from "node:assert/strict";
import { extname, join, normalize } from "node:path";
import { INLINE_BYTES } from "../tools/ast-search/engine.ts";
import { makeTree, REPO, runEntry, withoutRunFields } from "./helpers.ts";
import { CATASTROPHIC, SLOW_PATTERN, slowText } from "./slow_search.ts";

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

Deno.test("remote module: a search under --timeout keeps its bound with workers, as from a checkout", async () => {
  // A catastrophic pattern (linear under a budget: exact and at once), then a search of seconds
  // cut by its budget inside the file it matches, on 450 files (so a search takes workers).
  const files: Record<string, string> = { "a.txt": "aaa\n", "b.txt": CATASTROPHIC.line };
  const slow = slowText(0.02);
  for (let i = 0; i < 450; i++) files[`s/${String(i).padStart(3, "0")}.txt`] = slow;
  const fixture = await makeTree(files);
  const { origin, stop } = serveRepository();
  try {
    const host = origin.slice("http://".length);
    const run = async (pattern: string, timeout: string, paths: string[]) => {
      const started = Date.now();
      const output = await new Deno.Command("deno", {
        args: [
          "run",
          "--quiet",
          "--no-prompt",
          `--allow-read=${fixture}`,
          `--allow-import=${host}`,
          `--import-map=${origin}/deno.json`,
          `${origin}/tools/search/main.ts`,
          "--timeout",
          timeout,
          "--",
          pattern,
          ...paths,
        ],
        cwd: fixture,
        stdout: "piped",
        stderr: "piped",
      }).output();
      assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
      return {
        elapsed: Date.now() - started,
        envelope: JSON.parse(new TextDecoder().decode(output.stdout)) as {
          status: string;
          data: { matches: { span: { file_path: string } }[] };
          diagnostics: { code: string; file?: string }[];
        },
      };
    };
    const catastrophic = await run(CATASTROPHIC.pattern, "20000", ["a.txt", "b.txt"]);
    assert.equal(catastrophic.envelope.status, "ok");
    assert.deepEqual(catastrophic.envelope.data.matches.map((m) => m.span.file_path), ["a.txt"]);
    const cut = await run(SLOW_PATTERN, "500", ["."]);
    assert.equal(cut.envelope.status, "partial");
    assert.ok(cut.envelope.diagnostics.some((d) => d.code === "LMS-QRY-003"));
    // Module loading over HTTP aside, the 9 s of matching stopped at 500 ms.
    assert.ok(cut.elapsed < 8_000, `took ${cut.elapsed} ms`);
  } finally {
    await stop();
    await Deno.remove(fixture, { recursive: true });
  }
});
