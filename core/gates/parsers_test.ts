import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import {
  parseBash,
  parseCargoJson,
  parseCargoMetadata,
  parseDenoCheck,
  parseDenoInfo,
  parseDepInfo,
  parseGccHeaders,
  parseGccJson,
  parseGccSearchDirs,
  parseGoVet,
  parseJavac,
  parseJavacSources,
  parseJavacVersion,
  parseNodeCheck,
  parsePythonReport,
  parsePythonVersion,
  parseRustcJson,
} from "./parsers.ts";

/** A compiler's real output, captured on this machine (see each test for the command). */
function captured(name: string): string {
  return Deno.readTextFileSync(fileURLToPath(new URL(`./testdata/${name}`, import.meta.url)));
}

Deno.test("gcc: JSON diagnostics with byte columns, the -W option and its link", () => {
  // gcc 12.2 -fsyntax-only -fdiagnostics-format=json -x c - < file
  const found = parseGccJson(captured("gcc.stderr"));
  assert.deepEqual(found.map((d) => [d.level, d.file, d.line, d.column, d.nativeCode]), [
    ["warning", "<stdin>", 3, 10, "-Wint-conversion"],
    ["warning", "<stdin>", 4, 2, "-Wimplicit-function-declaration"],
    ["error", "<stdin>", 5, 10, undefined],
  ]);
  assert.equal(found[2].message, "expected ‘;’ before ‘}’ token");
  assert.match(found[0].url!, /^https:\/\/gcc\.gnu\.org\/.*Wint-conversion$/);
  assert.ok(found.every((d) => d.columnUnit === "byte"));
});

Deno.test("g++: the same format", () => {
  const [error] = parseGccJson(captured("gxx.stderr"));
  assert.deepEqual([error.level, error.line, error.column], ["error", 2, 29]);
  assert.equal(error.message, "‘struct S<int>’ has no member named ‘u’");
});

Deno.test("python: the checker's JSON lines, offsets made 0-based UTF-16 columns", () => {
  const found = parsePythonReport(captured("python.stdout"));
  assert.deepEqual(found[0], {
    level: "error",
    message: "invalid syntax",
    nativeCode: "SyntaxError",
    line: 3,
    column: 6,
    columnUnit: "utf16",
  });
  assert.deepEqual([found[1].level, found[1].nativeCode, found[1].line], [
    "warning",
    "DeprecationWarning",
    2,
  ]);
  assert.equal(found[1].column, undefined);
  assert.equal(found.length, 2, "the version line is not a finding");
  assert.equal(parsePythonVersion(captured("python.stdout")), "Python 3.11.7");
});

Deno.test("javac -version: the version line before the check, on stdout (JDK 9+) or stderr", () => {
  assert.equal(parseJavacVersion({ stdout: "javac 17.0.15\n", stderr: "" }), "javac 17.0.15");
  assert.equal(
    parseJavacVersion({ stdout: "", stderr: "javac 1.8.0_402\nX.java:1: error: x\n" }),
    "javac 1.8.0_402",
  );
  assert.equal(parseJavacVersion({ stdout: "", stderr: "X.java:1: error: javac x\n" }), undefined);
});

Deno.test("node --check: file and line from the head, column from the caret", () => {
  const [error] = parseNodeCheck(captured("node.stderr"));
  assert.deepEqual(error, {
    level: "error",
    message: "Unexpected token ';'",
    nativeCode: "SyntaxError",
    file: "/tmp/cap/.llm-gate-0-c.js",
    line: 2,
    column: 17,
    columnUnit: "utf16",
  });
});

Deno.test("javac: each error with its caret column and its detail lines as note", () => {
  const found = parseJavac(captured("javac.stderr"));
  assert.deepEqual(found.map((d) => [d.level, d.line, d.column, d.message]), [
    ["error", 4, 15, "incompatible types: int cannot be converted to String"],
    ["error", 5, 11, "cannot find symbol"],
  ]);
  assert.equal(found[1].note, "symbol:   variable Baz\nlocation: class Foo");
  assert.equal(found[0].note, undefined);
});

Deno.test("rustc: JSON with exact byte ranges; the closing summaries are left out", () => {
  const found = parseRustcJson(captured("rustc.stderr"));
  assert.equal(found.length, 1);
  const [error] = found;
  assert.deepEqual([error.level, error.message, error.nativeCode, error.line], [
    "error",
    "mismatched types",
    "E0308",
    3,
  ]);
  // `"s"` on line 3, after a two-byte `é`: byte 50 (character 49).
  assert.deepEqual(error.byteRange, [50, 53]);
  assert.equal(error.url, "https://doc.rust-lang.org/error_codes/E0308.html");
  assert.match(error.note!, /expected `i32`, found `&str`/);
});

Deno.test("deno check: TS codes, positions, related information as note; summary dropped", () => {
  const found = parseDenoCheck(captured("deno.stderr"));
  assert.deepEqual(found.map((d) => [d.nativeCode, d.line, d.column, d.message]), [
    ["TS2322", 2, 6, "Type 'number' is not assignable to type 'string'."],
    ["TS2322", 4, 3, "Type 'string' is not assignable to type 'number'."],
  ]);
  assert.equal(found[0].file, "file:///tmp/cap/.llm-gate-0-v.ts");
  assert.match(found[1].note!, /^The expected type comes from property 'a'/);
});

Deno.test("deno check: a module error without a TS code", () => {
  const text = "TS2307 [ERROR]: Cannot find module 'file:///tmp/cap/nope.ts'.\n" +
    "    at file:///tmp/cap/.llm-gate-2-u.ts:1:19\n\nerror: Type checking failed.\n";
  const [error] = parseDenoCheck(text);
  assert.deepEqual([error.nativeCode, error.line, error.column], ["TS2307", 1, 18]);
});

Deno.test("deno check: a parse error, its code frame left out", () => {
  const text = "error: SyntaxError: Expected ',', got ';'\n  |\n1 | const x = (1;\n" +
    "  |             ~\n    at file:///tmp/cap/.llm-gate-9-u.ts:1:13\n\nStack backtrace:\n" +
    "   0: <unknown>\n";
  assert.deepEqual(parseDenoCheck(text), [{
    level: "error",
    message: "Expected ',', got ';'",
    nativeCode: "SyntaxError",
    file: "file:///tmp/cap/.llm-gate-9-u.ts",
    line: 1,
    column: 12,
    columnUnit: "utf16",
  }]);
});

Deno.test("bash -n: the message, and the quoted source line as its note", () => {
  assert.deepEqual(parseBash(captured("bash.stderr")), [{
    file: "/dev/stdin",
    line: 3,
    level: "error",
    message: "syntax error near unexpected token `fi'",
    note: "`fi fi'",
  }]);
});

Deno.test("what each compiler read: gcc -H, javac -verbose, rustc dep-info, deno info", () => {
  // gcc 12.2 -H: the header tree, then the include-guard advice (not headers read twice).
  const gcc = ". config.h\n.. /usr/include/stdio.h\nMultiple include guards may be useful for:\n" +
    "config.h\n[]\n";
  assert.deepEqual(parseGccHeaders(gcc), ["config.h", "/usr/include/stdio.h"]);
  assert.deepEqual(parseGccJson(gcc), []);
  // javac 17 -verbose
  const javac = "[parsing started SimpleFileObject[/t/com/ex/G.java]]\n[parsing completed 29ms]\n" +
    "[parsing started DirectoryFileObject[/t:com/ex/Names.java]]\n[checking com.ex.G]\n";
  assert.deepEqual(parseJavacSources(javac), ["/t/com/ex/G.java", "/t/com/ex/Names.java"]);
  // rustc --emit=dep-info (cargo's target/debug/deps/*.d have the same layout)
  const depInfo = "/t/d/app-1.d: app/src/main.rs app/src/helper.rs\n\n" +
    "app/src/main.rs:\napp/src/helper.rs:\n";
  assert.deepEqual(parseDepInfo(depInfo), ["app/src/main.rs", "app/src/helper.rs"]);
  // deno info --json: a remote module's `local` is Deno's cache, not a file of the project.
  const info = JSON.stringify({
    modules: [
      { kind: "esm", local: "/t/a.ts", specifier: "file:///t/a.ts" },
      { kind: "esm", local: "/c/deno/remote/x.ts", specifier: "https://x.test/x.ts" },
      { kind: "npm", specifier: "npm:zod@4" },
    ],
  });
  assert.deepEqual(parseDenoInfo(info), ["/t/a.ts"]);
});

Deno.test("the toolchain's own folders and a crate's graph: gcc -v, cargo metadata", () => {
  // gcc 12.2 -E -v -x c -: the quote folders are the project's, the system ones gcc's own.
  const gcc = 'ignoring nonexistent directory "/usr/local/include/x86_64-linux-gnu"\n' +
    '#include "..." search starts here:\n /t/src\n#include <...> search starts here:\n' +
    " /usr/lib/gcc/x86_64-linux-gnu/12/include\n /usr/include\nEnd of search list.\n";
  assert.deepEqual(parseGccSearchDirs(gcc), [
    "/usr/lib/gcc/x86_64-linux-gnu/12/include",
    "/usr/include",
  ]);
  assert.deepEqual(parseGccSearchDirs("gcc: fatal error\n"), []);
  // cargo metadata --format-version 1 (trimmed): a local package with a build script, a
  // registry proc macro.
  const metadata = JSON.stringify({
    packages: [
      {
        name: "app",
        source: null,
        manifest_path: "/t/app/Cargo.toml",
        targets: [{ kind: ["lib"] }, { kind: ["custom-build"] }],
      },
      {
        name: "serde_derive",
        source: "registry+https://github.com/rust-lang/crates.io-index",
        manifest_path: "/h/.cargo/registry/src/index/serde_derive-1.0.0/Cargo.toml",
        targets: [{ kind: ["proc-macro"] }],
      },
    ],
  });
  assert.deepEqual(parseCargoMetadata(metadata), [
    { name: "app", source: null, dir: "/t/app", kinds: ["lib", "custom-build"] },
    {
      name: "serde_derive",
      source: "registry+https://github.com/rust-lang/crates.io-index",
      dir: "/h/.cargo/registry/src/index/serde_derive-1.0.0",
      kinds: ["proc-macro"],
    },
  ]);
});

Deno.test("the other files a finding points into: rustc's spans and children, gcc's locations", () => {
  const rustc = JSON.stringify({
    message: "mismatched types",
    level: "error",
    spans: [
      {
        file_name: "a.rs",
        byte_start: 0,
        byte_end: 1,
        line_start: 1,
        column_start: 1,
        is_primary: true,
      },
      {
        file_name: "/o/x.rs",
        byte_start: 0,
        byte_end: 1,
        line_start: 1,
        column_start: 1,
        is_primary: false,
      },
    ],
    children: [{
      message: "defined here",
      level: "note",
      spans: [{
        file_name: "/o/y.rs",
        byte_start: 0,
        byte_end: 1,
        line_start: 1,
        column_start: 1,
        is_primary: true,
      }],
      children: [],
    }],
  });
  assert.deepEqual(parseRustcJson(rustc)[0].mentions, ["/o/x.rs", "/o/y.rs"]);
  const gcc = JSON.stringify([{
    kind: "error",
    message: "conflicting types",
    locations: [{ caret: { file: "<stdin>", line: 2, "byte-column": 5 } }],
    children: [{
      kind: "note",
      message: "previous declaration",
      locations: [{ caret: { file: "/o/x.h", line: 1, "byte-column": 5 } }],
    }],
  }]);
  assert.deepEqual(parseGccJson(gcc)[0].mentions, ["/o/x.h"]);
});

Deno.test("cargo: rustc's diagnostics from the compiler-message lines, each once", () => {
  const diagnostic = {
    $message_type: "diagnostic",
    message: "mismatched types",
    code: { code: "E0308" },
    level: "error",
    spans: [{
      file_name: "app/src/helper.rs",
      byte_start: 22,
      byte_end: 25,
      line_start: 1,
      column_start: 23,
      is_primary: true,
      label: "expected `i32`, found `&str`",
    }],
    children: [],
  };
  const line = JSON.stringify({ reason: "compiler-message", message: diagnostic });
  const summary = JSON.stringify({
    reason: "compiler-message",
    message: { ...diagnostic, message: "aborting due to 1 previous error", spans: [], code: null },
  });
  const stdout = [line, line, summary, JSON.stringify({ reason: "build-finished" })].join("\n");
  const found = parseCargoJson(stdout);
  assert.deepEqual(found.map((d) => [d.file, d.line, d.byteRange, d.nativeCode, d.note]), [
    ["app/src/helper.rs", 1, [22, 25], "E0308", "expected `i32`, found `&str`"],
  ]);
});

Deno.test("go vet: type errors (vet's own and the compiler's) and vet findings, under headers", () => {
  // go 1.19 vet: a type error of the package vetted, one of a package it imports, a finding.
  const stderr = "# example.com/fixture/util\nvet: util/util.go:5:9: undeclared name: y\n" +
    "# example.com/fixture/util\nutil/util.go:5:9: undefined: y\n# example.com/fixture\n" +
    "./main.go:15:2: fmt.Println call has possible formatting directive %d\n";
  assert.deepEqual(parseGoVet(stderr).map((d) => [d.file, d.line, d.column, d.message]), [
    ["util/util.go", 5, 8, "undeclared name: y"],
    ["util/util.go", 5, 8, "undefined: y"],
    ["main.go", 15, 1, "fmt.Println call has possible formatting directive %d"],
  ]);
});
