/** Facts extracted from small sources in every language with a reference query. */
import assert from "node:assert/strict";
import { extractFacts } from "./extract.ts";
import { decodeFile } from "../utf8.ts";
import type { Extent, FileFacts, ReferenceFact } from "./facts.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The bytes of `text` an extent covers. */
function sliced(text: string, extent: Extent): string {
  return decoder.decode(encoder.encode(text).subarray(extent.byte_start, extent.byte_end));
}

/** Checks that every name extent, reference and import slices back to what it names. */
function assertExtents(text: string, facts: FileFacts): void {
  const lines = text.split("\n");
  const check = (extent: Extent, expected: string) => {
    assert.equal(sliced(text, extent), expected);
    const line = encoder.encode(lines[extent.start_line - 1]);
    assert.equal(
      decoder.decode(
        line.subarray(extent.start_col, extent.start_col + encoder.encode(expected).length),
      ),
      expected,
      `line ${extent.start_line} col ${extent.start_col}`,
    );
  };
  for (const symbol of facts.symbols) check(symbol.name_extent, symbol.name);
  for (const reference of facts.references) check(reference.extent, reference.name);
}

/** `kind name@enclosing` of each call, in order. */
function calls(facts: FileFacts): string[] {
  return facts.references.filter((r) => r.kind === "call").map(describe);
}

function describe(reference: ReferenceFact): string {
  const qualifier = reference.qualifier === undefined ? "" : `${reference.qualifier}.`;
  return `${qualifier}${reference.name}@${reference.enclosing ?? "<file>"}`;
}

function referenceNames(facts: FileFacts): string[] {
  return facts.references.filter((r) => r.kind === "reference").map((r) => r.name);
}

function qualifiedNames(facts: FileFacts): string[] {
  return facts.symbols.map((s) => `${s.kind} ${s.qualified_name}`);
}

Deno.test("extractFacts: C functions, calls with their callers, references, includes", async () => {
  const text = [
    "#include <linux/sched.h>",
    '#include "local.h"',
    "struct point { int x; };",
    "static int limit = 3;",
    "static int __init setup(int count, struct point *p)",
    "{",
    "\tint total = count + limit;",
    "\tp->ops->run(total);",
    "\tfor_each_cpu(cpu) {",
    "\t\tDO_THING(cpu);",
    "\t}",
    "\treturn helper(total, callback);",
    "}",
    "",
  ].join("\n");
  const facts = await extractFacts("c", text);
  assert.deepEqual(qualifiedNames(facts), ["struct point", "variable limit", "function setup"]);
  const setup = facts.symbols[2];
  assert.equal(setup.signature, "static int __init setup(int count, struct point *p)");
  assert.deepEqual(calls(facts), [
    "p->ops.run@setup",
    "for_each_cpu@setup",
    "DO_THING@setup",
    "helper@setup",
  ]);
  const references = referenceNames(facts);
  for (const name of ["point", "limit", "callback"]) assert.ok(references.includes(name), name);
  // Parameters and locals of the function are not references to symbols.
  for (const name of ["count", "total", "p", "setup"]) assert.ok(!references.includes(name), name);
  assert.deepEqual(facts.imports.map((i) => `${i.kind} ${i.target}`), [
    "include linux/sched.h",
    "include local.h",
  ]);
  assert.equal(sliced(text, facts.imports[1].extent), '#include "local.h"\n');
  assertExtents(text, facts);
});

Deno.test("extractFacts: a C macro in a function header is no variable", async () => {
  const text = "static int __init early(void)\n{\n\treturn probe();\n}\n";
  const facts = await extractFacts("c", text);
  assert.deepEqual(qualifiedNames(facts), ["function early"]);
  assert.deepEqual(calls(facts), ["probe@early"]);
});

Deno.test("extractFacts: C++ qualified names with ::, scoped and member calls, using", async () => {
  const text = [
    "#include <vector>",
    "using namespace std;",
    "namespace geo {",
    "class Shape : public Base {",
    " public:",
    "  double area(const Box& box) { return std::max(box.w, 0.0) + this->scale(); }",
    "};",
    "double Shape::perimeter() { return compute<int>(1) + Util::twice(2); }",
    "}",
    "",
  ].join("\n");
  const facts = await extractFacts("cpp", text);
  assert.deepEqual(qualifiedNames(facts), [
    "module geo",
    "class geo::Shape",
    "method geo::Shape::area",
    "method geo::Shape::perimeter",
  ]);
  assert.equal(facts.symbols[3].parent, "geo::Shape");
  assert.deepEqual(calls(facts), [
    "std.max@geo::Shape::area",
    "this.scale@geo::Shape::area",
    "compute@geo::Shape::perimeter",
    "Util.twice@geo::Shape::perimeter",
  ]);
  assert.ok(referenceNames(facts).includes("Base"));
  assert.ok(referenceNames(facts).includes("Box"));
  assert.deepEqual(facts.imports.map((i) => `${i.kind} ${i.target}`), [
    "include vector",
    "import std",
  ]);
  assertExtents(text, facts);
});

Deno.test("extractFacts: Rust impl methods, paths, macros, use lists and mod", async () => {
  const text = [
    "use std::collections::{HashMap, HashSet};",
    "use crate::store::Index;",
    "mod util;",
    "mod inner {",
    "    pub struct Parser { map: HashMap<String, u8> }",
    "    impl Parser {",
    "        pub fn parse(&self, input: &str) -> Index {",
    '            let n = helper::<u8>(input); println!("{}", LIMIT); Index::new(n).finish()',
    "        }",
    "    }",
    "}",
    "",
  ].join("\n");
  const facts = await extractFacts("rust", text);
  assert.deepEqual(qualifiedNames(facts), [
    "module util",
    "module inner",
    "struct inner::Parser",
    "method inner::Parser::parse",
  ]);
  assert.equal(facts.symbols[3].signature, "pub fn parse(&self, input: &str) -> Index {");
  assert.deepEqual(calls(facts), [
    "helper@inner::Parser::parse",
    "println@inner::Parser::parse",
    "Index.new@inner::Parser::parse",
    "Index::new(n).finish@inner::Parser::parse",
  ]);
  assert.ok(referenceNames(facts).includes("LIMIT"));
  assert.ok(!referenceNames(facts).includes("input"));
  assert.deepEqual(
    facts.imports.map((i) => `${i.target} ${i.names?.join(",") ?? ""}`),
    ["std::collections HashMap,HashSet", "crate::store::Index ", "util "],
  );
  assertExtents(text, facts);
});

Deno.test("extractFacts: Python methods, self calls, imports with names", async () => {
  const text = [
    "import os, sys",
    "from .models import User, Group as G",
    "class Service(Base):",
    "    LIMIT = 3",
    "    @cached",
    "    def run(self, user, *args):",
    "        result = validate(user)",
    "        self.store(result, os.sep, TIMEOUT, retries=RETRIES)",
    "",
  ].join("\n");
  const facts = await extractFacts("python", text);
  assert.deepEqual(qualifiedNames(facts), [
    "class Service",
    "constant Service.LIMIT",
    "method Service.run",
  ]);
  assert.equal(facts.symbols[2].signature, "@cached def run(self, user, *args):");
  assert.deepEqual(calls(facts), ["validate@Service.run", "self.store@Service.run"]);
  assert.equal(facts.parse_errors, 0);
  const references = referenceNames(facts);
  for (const name of ["Base", "TIMEOUT", "os", "RETRIES"]) {
    assert.ok(references.includes(name), name);
  }
  // Parameters, locals and keyword argument names are no references to symbols.
  for (const name of ["self", "user", "result", "retries"]) {
    assert.ok(!references.includes(name), name);
  }
  assert.deepEqual(
    facts.imports.map((i) => `${i.target}:${i.names?.join(",") ?? ""}`),
    ["os:", "sys:", ".models:User,Group"],
  );
  assertExtents(text, facts);
});

Deno.test("extractFacts: JavaScript calls, new, require, import and export from", async () => {
  const text = [
    'import React, { useState } from "react";',
    'export { helper } from "./helper.js";',
    'const fs = require("fs");',
    "function render(props, depth = 0) {",
    "  const node = build(props);",
    "  return new Widget(node).mount(document, depth);",
    "}",
    "",
  ].join("\n");
  const facts = await extractFacts("javascript", text);
  assert.deepEqual(calls(facts), [
    "require@<file>",
    "build@render",
    "Widget@render",
    "new Widget(node).mount@render",
  ]);
  assert.ok(referenceNames(facts).includes("document"));
  assert.ok(!referenceNames(facts).includes("node"));
  assert.deepEqual(
    facts.imports.map((i) => `${i.target}:${i.names?.join(",") ?? ""}`),
    ["react:React,useState", "./helper.js:helper", "fs:"],
  );
  assertExtents(text, facts);
});

Deno.test("extractFacts: TypeScript and TSX types, calls and imports", async () => {
  const text = [
    'import type { Props } from "./types";',
    "export class View implements Renderer {",
    "  draw(props: Props): Shape { return paint(props, this.canvas.context()); }",
    "}",
    "",
  ].join("\n");
  for (const language of ["typescript", "tsx"]) {
    const facts = await extractFacts(language, text);
    assert.deepEqual(qualifiedNames(facts), ["class View", "method View.draw"]);
    assert.deepEqual(calls(facts), ["paint@View.draw", "this.canvas.context@View.draw"]);
    const references = referenceNames(facts);
    for (const name of ["Renderer", "Props", "Shape"]) assert.ok(references.includes(name));
    assert.deepEqual(facts.imports.map((i) => i.target), ["./types"]);
    assertExtents(text, facts);
  }
});

Deno.test("extractFacts: Go receivers as parents, selector calls, imports", async () => {
  const text = [
    "package main",
    'import (\n\t"fmt"\n\tstr "strings"\n)',
    "type Server struct{ limit Limit }",
    "func (s *Server) Serve(port int) error {",
    "\taddr := format(port)",
    "\tfmt.Println(addr, str.ToUpper(Name))",
    "\treturn nil",
    "}",
    "",
  ].join("\n");
  const facts = await extractFacts("go", text);
  assert.deepEqual(qualifiedNames(facts), ["struct Server", "method Server.Serve"]);
  assert.deepEqual(calls(facts), [
    "format@Server.Serve",
    "fmt.Println@Server.Serve",
    "str.ToUpper@Server.Serve",
  ]);
  const references = referenceNames(facts);
  for (const name of ["Limit", "Name", "Server"]) assert.ok(references.includes(name), name);
  for (const name of ["int", "error", "addr", "port"]) assert.ok(!references.includes(name), name);
  assert.deepEqual(facts.imports.map((i) => i.target), ["fmt", "strings"]);
  assertExtents(text, facts);
});

Deno.test("extractFacts: Java invocations, constructors and imports", async () => {
  const text = [
    "package app;",
    "import java.util.List;",
    "class Repo extends Base {",
    "  List<Item> load(int count) { Item first = fetch(count); this.cache.put(first); return new ArrayList<>(); }",
    "}",
    "",
  ].join("\n");
  const facts = await extractFacts("java", text);
  assert.deepEqual(qualifiedNames(facts), ["class Repo", "method Repo.load"]);
  assert.deepEqual(calls(facts), [
    "fetch@Repo.load",
    "this.cache.put@Repo.load",
    "ArrayList@Repo.load",
  ]);
  assert.ok(referenceNames(facts).includes("Item"));
  assert.ok(!referenceNames(facts).includes("first"));
  assert.deepEqual(facts.imports.map((i) => i.target), ["java.util.List"]);
  assertExtents(text, facts);
});

Deno.test("extractFacts: C#, Kotlin, PHP, Ruby and Bash calls and imports", async () => {
  const cases: { language: string; text: string; calls: string[]; imports: string[] }[] = [
    {
      language: "csharp",
      text:
        "using System.IO;\nclass A { void F(int x) { G(x); Console.WriteLine(x); new Foo(); } }\n",
      calls: ["G@A.F", "Console.WriteLine@A.F", "Foo@A.F"],
      imports: ["System.IO"],
    },
    {
      language: "kotlin",
      text:
        "import kotlin.math.max\nclass A {\n  fun f(x: Int): Int { return g(x) + obj.h(x) }\n}\n",
      calls: ["g@A.f", "obj.h@A.f"],
      imports: ["kotlin.math.max"],
    },
    {
      language: "php",
      text:
        '<?php\nuse App\\Models\\User;\nrequire_once "lib.php";\nclass A { function f($x) { g($x); $this->h(); B::s(); new Foo(); } }\n',
      calls: ["g@A.f", "$this.h@A.f", "B.s@A.f", "Foo@A.f"],
      imports: ["App\\Models\\User", "lib.php"],
    },
    {
      language: "ruby",
      text: 'require "json"\nclass A\n  def f(x)\n    g(x)\n    obj.h(x)\n  end\nend\n',
      calls: ["require@<file>", "g@A.f", "obj.h@A.f"],
      imports: ["json"],
    },
    {
      language: "bash",
      text: "source ./lib.sh\nsetup() { helper 1; }\nsetup\n",
      calls: ["source@<file>", "helper@setup", "setup@<file>"],
      imports: ["./lib.sh"],
    },
  ];
  for (const { language, text, calls: expected, imports } of cases) {
    const facts = await extractFacts(language, text);
    assert.deepEqual(calls(facts), expected, language);
    assert.deepEqual(facts.imports.map((i) => i.target), imports, language);
    assertExtents(text, facts);
  }
});

Deno.test("extractFacts: byte extents count UTF-8 bytes after multi-byte text", async () => {
  const text = "# héllo wörld 🙂\ndef naïve(x):\n    return grüße(x)\n";
  const facts = await extractFacts("python", text);
  const [symbol] = facts.symbols;
  assert.equal(symbol.name, "naïve");
  // "# héllo wörld 🙂\n" is 21 bytes (é, ö: 2 each; 🙂: 4), then "def ".
  assert.equal(symbol.name_extent.byte_start, 25);
  assert.equal(symbol.name_extent.byte_end, 25 + 6);
  assert.deepEqual([symbol.name_extent.start_line, symbol.name_extent.start_col], [2, 4]);
  assert.deepEqual(calls(facts), ["grüße@naïve"]);
  assert.equal(facts.references[0].extent.start_col, 11);
  assertExtents(text, facts);
});

Deno.test("extractFacts: extents of a file's bytes count its BOM and its invalid bytes", async () => {
  // A BOM (3 bytes, one code unit) and an invalid byte (1 byte, read as U+FFFD: 3 bytes once
  // encoded again) before the definition: its extents are offsets into these very bytes.
  const bytes = new Uint8Array([
    ...[0xef, 0xbb, 0xbf],
    ...encoder.encode("# "),
    0xff,
    ...encoder.encode("\ndef f(x):\n    return g(x)\n"),
  ]);
  const facts = await extractFacts("python", decodeFile(bytes));
  const [symbol] = facts.symbols;
  assert.deepEqual(
    [symbol.name_extent.byte_start, symbol.name_extent.start_line, symbol.name_extent.start_col],
    [11, 2, 4],
  );
  assert.equal(bytes[symbol.name_extent.byte_start], 0x66); // f
  const { extent } = facts.references[0];
  assert.deepEqual([extent.byte_start, extent.start_line, extent.start_col], [28, 3, 11]);
});

Deno.test("extractFacts: a file with a syntax error gives what its tree holds", async () => {
  const text =
    "int ok(void) { return g(1); }\nint broken( { h(2);\nint after(void) { return k(3); }\n";
  const facts = await extractFacts("c", text);
  assert.ok(facts.parse_errors > 0);
  assert.ok(facts.symbols.some((s) => s.name === "ok"));
  assert.ok(calls(facts).includes("g@ok"));
  assertExtents(text, facts);
});

Deno.test("extractFacts: signatures are cut at 200 bytes on a character boundary", async () => {
  const text = `def f(${"ä".repeat(150)}):\n    pass\n`;
  const [symbol] = (await extractFacts("python", text)).symbols;
  assert.ok(encoder.encode(symbol.signature).length <= 200);
  assert.ok(symbol.signature.endsWith("ä"));
});

Deno.test("extractFacts: a grammar without queries gives no facts but its error count", async () => {
  const facts = await extractFacts("css", "a { color: red; }\n");
  assert.deepEqual(facts.references, []);
  assert.deepEqual(facts.imports, []);
  assert.equal(facts.parse_errors, 0);
});

Deno.test("extractFacts: a name read through a module the file binds is a use, through a value not", async () => {
  const script = [
    'import * as ns from "./m.mjs";',
    "const obj = { target: 1 };",
    "function run(target) {",
    "  return [ns.target, obj.target, ns.other(target)];",
    "}",
    "",
  ].join("\n");
  const js = await extractFacts("javascript", script);
  const members = (facts: FileFacts) =>
    facts.references.filter((r) => r.kind === "reference" && r.qualifier !== undefined)
      .map(describe);
  // `ns.target` is kept although `run` has a parameter `target`; `obj.target` is no use.
  assert.deepEqual(members(js), ["ns.target@run"]);
  assert.deepEqual(calls(js), ["ns.other@run"]);
  assertExtents(script, js);
  const go = [
    "package main",
    "",
    'import (\n\t"example.com/demo/util"\n\tu2 "example.com/demo/util"\n\t"gopkg.in/yaml.v3"\n)',
    "",
    "type box struct{ Helper int }",
    "",
    "func main() {",
    "\tb := box{}",
    "\t_ = []any{util.Helper, u2.Helper, yaml.Marshal, b.Helper}",
    "}",
    "",
  ].join("\n");
  const facts = await extractFacts("go", go);
  assert.deepEqual(members(facts), ["util.Helper@main", "u2.Helper@main", "yaml.Marshal@main"]);
  assertExtents(go, facts);
});

Deno.test("extractFacts: a C++ member function declared in its class is a reference", async () => {
  const text = "struct Box {\n  static int make(int v);\n  int (*hook)(int);\n};\n";
  const facts = await extractFacts("cpp", text);
  assert.deepEqual(
    facts.references.filter((r) => r.name === "make").map((r) => `${r.name}@${r.enclosing}`),
    ["make@Box"],
  );
  assert.ok(!referenceNames(facts).includes("hook"));
});
