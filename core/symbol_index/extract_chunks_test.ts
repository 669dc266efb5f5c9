import assert from "node:assert/strict";
import { chunkTexts } from "./extract_chunks.ts";
import { extractFacts } from "./extract.ts";
import { factRows } from "./fact_rows.ts";

/** The range of `part` in `text` (its first occurrence) up to the end of `until` after it. */
function range(text: string, part: string, until: string, signature: string) {
  const start = text.indexOf(part);
  const end = text.indexOf(until, start) + until.length;
  return { start, end, signature };
}

Deno.test("chunkTexts: each definition without its nested ones, which leave their signature", () => {
  const text = "alpha\nclass Outer:\n  beta\n  def inner():\n    gamma\n  delta\nepsilon\n";
  const chunks = chunkTexts(text, [
    range(text, "class", "delta", "class Outer:"),
    range(text, "def", "gamma", "def inner():"),
  ]);
  assert.deepEqual(chunks.definitions, ["outer beta inner delta", "inner gamma"]);
  assert.equal(chunks.module, "alpha epsilon");
});

Deno.test("chunkTexts: three levels, in any order; siblings; an empty file", () => {
  const text = "top\nA {\n a1\n B {\n  b1\n  C { c1 }\n  b2\n }\n a2\n}\nD { d1 }\nend\n";
  const a = range(text, "A {", "a2\n}", "A");
  const b = range(text, "B {", "b2\n }", "B");
  const c = range(text, "C {", "c1 }", "C");
  const d = range(text, "D {", "d1 }", "D");
  const chunks = chunkTexts(text, [c, a, d, b]);
  assert.deepEqual(chunks.definitions, ["c1", "a1 a2", "d1", "b1 b2"]);
  assert.equal(chunks.module, "top end");
  assert.deepEqual(chunkTexts("", []), { definitions: [], module: "" });
});

Deno.test("chunkTexts: definitions that overlap without nesting share their common text", () => {
  const text = "one two three four";
  const chunks = chunkTexts(text, [
    { start: 0, end: 13, signature: "" },
    { start: 4, end: 18, signature: "" },
  ]);
  assert.deepEqual(chunks.definitions, ["one two three", "two three four"]);
  assert.equal(chunks.module, "");
});

Deno.test("chunkTexts: each chunk is capped, its children's signatures counted", () => {
  const body = Array.from({ length: 50 }, (_, i) => `word${i}x`).join(" "); // 100 terms
  const text = `class K:\n  ${body}\n  def method_name(): ${body}\n`;
  const sources = (signature: string) => [
    range(text, "class", `(): ${body}`, "class K:"),
    range(text, "def", `(): ${body}`, signature),
  ];
  const capped = chunkTexts(text, sources("def method_name():"), 10);
  assert.deepEqual(capped.definitions.map((chunk) => chunk.split(" ").length), [10, 10]);
  assert.ok(capped.definitions[0].startsWith("word word0x"));
  const tight = chunkTexts(text, sources("def method_name():"), 101);
  assert.equal(tight.definitions[0].split(" ").at(-1), "method");
  const roomy = chunkTexts(text, sources("def method_name():"), 1000);
  assert.equal(roomy.definitions[0].split(" ").at(-1), "methodname");
});

Deno.test("extractFacts with chunks: a Python class, its methods and the module's code", async () => {
  const text = [
    "import os",
    "LIMIT = compute_limit()",
    "",
    "class HTTPServer(BaseServer):",
    '    """Serves requests over HTTP."""',
    "    default_port = 8080",
    "",
    "    def handle_request(self, request):",
    "        return self.dispatch(request.path)",
    "",
    "    def close(self):",
    "        os.close(self.socket_fd)",
    "",
    "def main():",
    "    HTTPServer().serve_forever()",
    "",
  ].join("\n");
  const facts = await extractFacts("python", text, undefined, { chunks: true });
  assert.deepEqual(facts.symbols.map((symbol) => symbol.qualified_name), [
    "LIMIT",
    "HTTPServer",
    "HTTPServer.handle_request",
    "HTTPServer.close",
    "main",
  ]);
  const byName = Object.fromEntries(
    facts.symbols.map((symbol, index) => [symbol.qualified_name, facts.chunks!.definitions[index]]),
  );
  assert.equal(
    byName["HTTPServer"],
    "http server httpserver base server baseserver serves requests over http " +
      "default port defaultport handle request handlerequest request close",
  );
  assert.equal(
    byName["HTTPServer.handle_request"],
    "handle request handlerequest request dispatch request path",
  );
  assert.equal(byName["HTTPServer.close"], "close os close socket fd socketfd");
  assert.equal(byName["main"], "main http server httpserver serve forever serveforever");
  // A module-level variable is a definition, its statement its chunk; class attributes are not.
  assert.equal(byName["LIMIT"], "limit compute limit computelimit");
  assert.equal(facts.chunks!.module, "os");
  // Without the option, no chunks.
  assert.equal((await extractFacts("python", text)).chunks, undefined);
  // The rows: one name and body per definition, then the module's.
  const rows = factRows("web/http_server.py", facts);
  assert.equal(rows.chunks.length, 2 * (facts.symbols.length + 1));
  assert.deepEqual(rows.chunks.slice(-2), ["web http server httpserver", "os"]);
  const close = 2 * facts.symbols.findIndex((symbol) => symbol.name === "close");
  assert.equal(
    rows.chunks[close],
    "close http server httpserver close web http server httpserver",
  );
});
