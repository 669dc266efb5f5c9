import assert from "node:assert/strict";
import { seededRandom } from "./helpers.ts";
import { decodeText } from "../core/utf8.ts";
import {
  extractTerms,
  messageFragments,
  splitIdentifier,
  type TaskTerm,
  type TaskTerms,
} from "../tools/context/terms.ts";
import { parseExceptionLine, pathSuffix } from "../tools/context/frames.ts";

/** Issue texts of the development set (SWE-bench Lite: requests, flask, seaborn, xarray, sympy). */
const TASKS: Record<string, string> = Object.fromEntries(
  (JSON.parse(
    await Deno.readTextFile(new URL("./fixtures/context/tasks.json", import.meta.url)),
  ) as { instance_id: string; problem_statement: string }[]).map((t) => [
    t.instance_id,
    t.problem_statement,
  ]),
);

const FENCE = "`".repeat(3);

function term(result: TaskTerms, kind: TaskTerm["kind"], value: string): TaskTerm | undefined {
  return result.terms.find((t) => t.kind === kind && t.value === value);
}

function values(result: TaskTerms, kind: TaskTerm["kind"]): string[] {
  return result.terms.filter((t) => t.kind === kind).map((t) => t.value);
}

function frames(result: TaskTerms): (string | number | undefined)[][][] {
  return result.tracebacks.map((tb) =>
    tb.frames.map((f) => [f.suffix, f.line, f.function, f.distance])
  );
}

// --- Real issues (the development set) ---------------------------------------------------------

Deno.test("terms: a Python traceback's frames in order, the innermost at distance 0", () => {
  const result = extractTerms(TASKS["sympy__sympy-12454"]);
  assert.deepEqual(frames(result), [[
    ["sympy/matrices/matrices.py", 1112, "is_upper", 4],
    ["sympy/matrices/matrices.py", 1113, undefined, 3], // `in <genexpr>`: no function
    ["sympy/matrices/dense.py", 119, "__getitem__", 2],
    ["sympy/matrices/matrices.py", 352, "extract", 1],
    ["sympy/matrices/matrices.py", 5261, "a2idx", 0],
  ]]);
  assert.deepEqual(result.terms.slice(0, 2).map((t) => [t.kind, t.value, t.weight]), [
    ["frame", "sympy/matrices/matrices.py:5261", 10],
    ["path", "sympy/matrices/matrices.py", 10],
  ]);
  assert.equal(term(result, "frame", "sympy/matrices/matrices.py:1112")?.weight, 8);
  const message = term(result, "message", "Index out of range: a[2]");
  assert.deepEqual([message?.exception, message?.fragments, message?.weight], [
    "IndexError",
    ["Index out of range"],
    6,
  ]);
  // The frame's function, the dotted name in prose and the call in code.
  assert.equal(term(result, "identifier", "a2idx")?.context, "traceback");
  assert.equal(term(result, "identifier", "is_upper")?.weight, 6); // its frame's 8, less 2
  assert.equal(term(result, "identifier", "Matrix.is_upper")?.weight, 3.5);
  assert.equal(term(result, "identifier", "sympy.zeros")?.weight, 5);
  assert.deepEqual(result.spans.map((s) => s.kind), ["fence", "fence", "fence"]);
});

Deno.test("terms: IPython's `File path:line, in f` frames; pseudo-files are no frames", () => {
  const result = extractTerms(TASKS["mwaskom__seaborn-3010"]);
  assert.equal(result.tracebacks.length, 1);
  const [first, ...rest] = result.tracebacks[0].frames;
  assert.deepEqual([first.suffix, first.line, first.function, first.distance], [
    "IPython/core/formatters.py",
    343,
    "BaseFormatter.__call__",
    10,
  ]);
  assert.ok(first.path.startsWith("~/miniconda3/envs/"));
  // `File <__array_function__ internals>:180, in polyfit(...)` is left out.
  assert.deepEqual(rest.map((f) => `${f.suffix}:${f.line}`), [
    "seaborn/_core/plot.py:265",
    "seaborn/_core/plot.py:804",
    "seaborn/_core/plot.py:822",
    "seaborn/_core/plot.py:1110",
    "seaborn/_stats/regression.py:41",
    "seaborn/_core/groupby.py:109",
    "seaborn/_stats/regression.py:30",
    "numpy/lib/polynomial.py:668",
    "numpy/linalg/linalg.py:2300",
    "numpy/linalg/linalg.py:101",
  ]);
  // The gold file of this issue, by its closest frame.
  assert.equal(term(result, "path", "seaborn/_stats/regression.py")?.weight, 8.5);
  assert.equal(term(result, "identifier", "_fit_predict")?.weight, 6.5);
  // `so.PolyFit()` of the sample outweighs the frame's qualifier (6.5 × 0.6).
  assert.deepEqual([
    term(result, "identifier", "PolyFit")?.weight,
    term(result, "identifier", "PolyFit")?.context,
  ], [5, "code"]);
  assert.equal(
    term(result, "message", "SVD did not converge in Linear Least Squares")?.exception,
    "LinAlgError",
  );
  assert.deepEqual(result.spans.map((s) => s.lang), ["python", "python-traceback"]);
  // `<details><summary>Traceback</summary>`: markup, no words.
  assert.equal(term(result, "word", "details"), undefined);
  assert.equal(term(result, "word", "summary"), undefined);
});

Deno.test("terms: IPython's old `path in f(args)` frames, their lines from the `-->` arrows", () => {
  const result = extractTerms(TASKS["mwaskom__seaborn-2848"]);
  // Three chained exceptions, three tracebacks.
  assert.deepEqual(frames(result).map((tb) => tb.length), [1, 1, 9]);
  assert.deepEqual(frames(result)[0], [["seaborn/_core.py", 144, "_lookup_single", 0]]);
  assert.deepEqual(frames(result)[2].map((f) => f.slice(0, 3)), [
    ["seaborn/axisgrid.py", 1265, "map"],
    ["seaborn/axisgrid.py", 1465, "_map_bivariate"],
    ["seaborn/axisgrid.py", 1505, "_plot_bivariate"],
    ["seaborn/_decorators.py", 46, "inner_f"],
    ["seaborn/relational.py", 820, "scatterplot"],
    ["seaborn/relational.py", 628, "plot"],
    ["seaborn/_core.py", 63, "__call__"],
    ["seaborn/_core.py", 63, undefined], // in <listcomp>
    ["seaborn/_core.py", 151, "_lookup_single"],
  ]);
  assert.equal(term(result, "identifier", "_lookup_single")?.weight, 8);
  // `<ipython-input-3-46dd21e9c95a> in <module>` and Python's headers give nothing.
  for (const word of ["ipython", "module", "recent", "traceback", "handling", "occurred"]) {
    assert.equal(term(result, "word", word), undefined, word);
  }
  assert.equal(term(result, "identifier", "listcomp"), undefined);
  // `KeyError: 'setosa'` holds only a value: no message to search.
  assert.deepEqual(values(result, "message").slice(0, 2), [
    "'NoneType' object is not callable",
    "ufunc 'isnan' not supported for the input types, and the inputs could not be safely " +
    "coerced to any supported types according to the casting rule ''safe''",
  ]);
  assert.deepEqual(term(result, "message", "'NoneType' object is not callable")?.fragments, [
    "object is not callable",
  ]);
  // The title's inline code.
  assert.equal(term(result, "identifier", "hue")?.context, "code");
  assert.equal(term(result, "word", "pair")?.weight, 1.5);
});

Deno.test("terms: site-packages, egg folders and the standard library come off a frame's path", () => {
  const result = extractTerms(TASKS["psf__requests-2148"]);
  assert.deepEqual(result.tracebacks[0].frames.map((f) => f.suffix), [
    "requests/models.py",
    "requests/models.py",
    "requests/models.py",
    "requests/packages/urllib3/response.py",
    "requests/packages/urllib3/response.py",
    "httplib.py",
    "httplib.py",
    "httplib.py",
    "socket.py",
    "gevent/socket.py",
  ]); // The redacted `/home/rtdean/***/***.py` is no file.
  assert.equal(term(result, "frame", "requests/models.py:627")?.function, "generate");
  const message = term(result, "message", "[Errno 104] Connection reset by peer");
  assert.deepEqual([message?.exception, message?.fragments], [
    "socket.error",
    ["Connection reset by peer"],
  ]);
  assert.equal(term(result, "identifier", "requests.exceptions.ConnectionError")?.weight, 3.5);
});

Deno.test("terms: dotted names in code and prose, their parts, messages in inline code", () => {
  const result = extractTerms(TASKS["pallets__flask-4992"]);
  assert.deepEqual(
    ["flask.Config.from_file", "from_file", "tomllib.load", "app.config.from_mapping"].map((v) =>
      term(result, "identifier", v)?.weight
    ),
    [5, 5, 5, 5],
  );
  assert.deepEqual(term(result, "identifier", "flask.Config.from_file")?.parts, [
    "flask",
    "config",
    "from",
    "file",
  ]);
  // The qualifying parts weigh less than the name they qualify.
  assert.equal(term(result, "identifier", "flask")?.weight, 3);
  assert.equal(term(result, "identifier", "Config")?.weight, 3);
  const message = term(
    result,
    "message",
    "File must be opened in binary mode, e.g. use `open('foo.toml', 'rb')`",
  );
  assert.equal(message?.exception, "TypeError");
  assert.deepEqual(values(result, "path"), ["config.toml", "foo.toml"]);
  assert.equal(result.tracebacks.length, 0);
  assert.equal(result.spans.filter((s) => s.kind === "fence").length, 4);
});

Deno.test("terms: a Windows path in an indented doctest's traceback", () => {
  const result = extractTerms(TASKS["sympy__sympy-13480"]);
  const [frame] = result.tracebacks[0].frames;
  assert.equal(
    frame.path,
    "C:\\Users\\E\\Desktop\\sympy-master\\sympy\\functions\\elementary\\hyperbolic.py",
  );
  assert.deepEqual([frame.suffix, frame.line, frame.function], [
    "sympy/functions/elementary/hyperbolic.py",
    590,
    "eval",
  ]);
  assert.equal(term(result, "message", "name 'cotm' is not defined")?.exception, "NameError");
  assert.equal(term(result, "identifier", "S.ComplexInfinity")?.context, "code");
});

Deno.test("terms: `line 743 of sympy/printing/latex.py` is a path with a line", () => {
  const result = extractTerms(TASKS["sympy__sympy-14774"]);
  const path = term(result, "path", "sympy/printing/latex.py");
  assert.deepEqual([path?.line, path?.weight, path?.context], [743, 8, "prose"]);
  assert.equal(result.terms[0], path);
  assert.equal(term(result, "identifier", "inv_trig_table")?.weight, 5);
  assert.equal(term(result, "word", "printing"), undefined); // the path's, not words
});

Deno.test("terms: HTML comments, markup and a version listing give no terms", () => {
  const result = extractTerms(TASKS["pydata__xarray-4094"]);
  // `<!-- A short summary of the issue, if appropriate -->`
  for (const word of ["short", "summary", "appropriate"]) {
    assert.equal(term(result, "word", word), undefined);
  }
  // INSTALLED VERSIONS … libhdf5: 1.10.4, LC_ALL: None, …
  for (const word of ["libhdf5", "byteorder", "little", "cartopy", "bottleneck"]) {
    assert.equal(term(result, "word", word), undefined, word);
  }
  assert.equal(term(result, "identifier", "LC_ALL"), undefined);
  // `<tt>xr.show_versions()</tt>` in a summary is prose.
  assert.equal(term(result, "identifier", "xr.show_versions")?.context, "prose");
  // A comment of the sample, `# MergeError: …`, is an exception line.
  assert.deepEqual(
    term(
      result,
      "message",
      "conflicting values for variable 'y' on objects to be combined. You can skip this check " +
        "by specifying compat='override'.",
    )?.fragments,
    [
      "conflicting values for variable",
      "on objects to be combined. You can skip this check by specifying",
    ],
  );
  assert.equal(term(result, "identifier", "to_unstacked_dataset")?.weight, 5);
  assert.equal(term(result, "word", "mcve")?.weight, 0.3); // a heading's word
});

Deno.test("terms: a message named in the title, the code and the traceback is one term", () => {
  const result = extractTerms(TASKS["sympy__sympy-22714"]);
  const message = term(result, "message", "Imaginary coordinates are not permitted.");
  assert.deepEqual([message?.weight, message?.count, message?.exception], [6, 3, "ValueError"]);
  // `File "<string>", line 1, in <module>` is no frame.
  assert.deepEqual(result.tracebacks[0].frames.map((f) => f.function), [
    "sympify",
    "parse_expr",
    "parse_expr",
    "eval_expr",
    "__new__",
    "__new__",
  ]);
  assert.equal(term(result, "identifier", "Point2D")?.weight, 5);
});

Deno.test("terms: a repeated text counts its terms twice and lists them once", () => {
  const result = extractTerms(TASKS["sympy__sympy-24102"]);
  const keys = result.terms.map((t) => `${t.kind} ${t.value}`);
  assert.equal(new Set(keys).size, keys.length);
  assert.equal(term(result, "identifier", "parse_mathematica")?.count, 10);
  // `File "<string>", line unknown`: no frame, no words.
  assert.equal(result.tracebacks.length, 0);
  assert.equal(term(result, "identifier", "unknown"), undefined);
  assert.equal(
    term(result, "message", "unable to create a single AST for the expression")?.exception,
    "SyntaxError",
  );
});

Deno.test("terms: Windows line ends give the same terms", () => {
  for (const [id, text] of Object.entries(TASKS)) {
    const lf = extractTerms(text);
    const crlf = extractTerms(text.replace(/\r?\n/g, "\r\n"));
    const strip = (r: TaskTerms) => r.terms.map((t) => [t.kind, t.value, t.weight, t.count]);
    assert.deepEqual(strip(crlf), strip(lf), id);
    assert.deepEqual(frames(crlf), frames(lf), id);
  }
});

// --- Other formats ---------------------------------------------------------------------------------

Deno.test("terms: Node, Java, Rust, Go and pytest frames", () => {
  const node = extractTerms([
    "TypeError: Cannot read properties of undefined (reading 'id')",
    "    at getUser (/app/src/users.js:10:5)",
    "    at async Router.handle (/app/node_modules/express/lib/router.js:284:7)",
    "    at node:internal/process/task_queues:95:5",
  ].join("\n"));
  assert.deepEqual(frames(node), [[
    ["app/src/users.js", 10, "getUser", 0],
    ["express/lib/router.js", 284, "Router.handle", 1],
  ]]);
  assert.equal(node.tracebacks[0].frames[0].column, 5);

  const java = extractTerms([
    'Exception in thread "main" java.lang.IllegalStateException: bad state',
    "\tat com.acme.core.Engine.run(Engine.java:42)",
    "\tat com.acme.Main.main(Main.java:7)",
  ].join("\n"));
  assert.deepEqual(frames(java), [[
    ["com/acme/core/Engine.java", 42, "Engine.run", 0],
    ["com/acme/Main.java", 7, "Main.main", 1],
  ]]);
  assert.equal(term(java, "message", "bad state")?.exception, "java.lang.IllegalStateException");

  const rust = extractTerms([
    "thread 'main' panicked at src/main.rs:10:5:",
    "index out of bounds",
    "stack backtrace:",
    "   3: demo::parse::parse_args",
    "             at ./src/parse.rs:22:9",
  ].join("\n"));
  assert.deepEqual(frames(rust), [[
    ["src/main.rs", 10, undefined, 0],
    ["src/parse.rs", 22, "demo::parse::parse_args", 1],
  ]]);
  assert.equal(term(rust, "identifier", "parse_args")?.context, "traceback");

  const go = extractTerms([
    "panic: runtime error: index out of range [3] with length 3",
    "",
    "goroutine 1 [running]:",
    "github.com/acme/tool/pkg.(*Parser).Next(0xc000010000)",
    "\t/home/u/go/src/github.com/acme/tool/pkg/parser.go:41 +0x1d",
    "main.main()",
    "\t/home/u/go/src/github.com/acme/tool/main.go:12 +0x25",
  ].join("\n"));
  assert.deepEqual(frames(go), [[
    ["go/src/github.com/acme/tool/pkg/parser.go", 41, "pkg.(*Parser).Next", 0],
    ["go/src/github.com/acme/tool/main.go", 12, "main.main", 1],
  ]]);
  assert.equal(term(go, "identifier", "Next")?.weight, 8);

  const pytest = extractTerms([
    "tests/test_api.py:31: in test_get",
    "    resp = client.get('/')",
    "src/api/client.py:88: in get",
    "    raise ConnectionError(msg)",
    "E   ConnectionError: refused by host",
    "FAILED tests/test_api.py::test_get - ConnectionError: refused by host",
  ].join("\n"));
  assert.deepEqual(frames(pytest), [[
    ["tests/test_api.py", 31, "test_get", 1],
    ["src/api/client.py", 88, "get", 0],
  ]]);
  assert.equal(term(pytest, "identifier", "test_get")?.weight, 7.5);
  assert.equal(term(pytest, "message", "refused by host")?.exception, "ConnectionError");
});

Deno.test("terms: paths and positions, in prose and code", () => {
  const result = extractTerms([
    "Crash in src/parser/lexer.rs:120:7 and in `lib/util.py:33`.",
    "Also see C:\\proj\\app\\main.py, pkg/mod.py::test_x, math.h and setup.cfg.",
    "But r.json() and response.json() are calls, Node.js a product, e.g. and i.e. words.",
  ].join("\n"));
  const paths = result.terms.filter((t) => t.kind === "path").map((t) => [
    t.value,
    t.line,
    t.column,
    t.context,
  ]);
  assert.deepEqual(paths, [
    ["src/parser/lexer.rs", 120, 7, "title"],
    ["lib/util.py", 33, undefined, "code"],
    ["proj/app/main.py", undefined, undefined, "prose"],
    ["pkg/mod.py", undefined, undefined, "prose"],
    ["math.h", undefined, undefined, "prose"],
    ["setup.cfg", undefined, undefined, "prose"],
  ]);
  assert.equal(term(result, "path", "proj/app/main.py")?.path, "C:\\proj\\app\\main.py");
  assert.equal(term(result, "path", "pkg/mod.py")?.function, "test_x");
  assert.equal(term(result, "identifier", "test_x")?.weight, 5);
  assert.equal(term(result, "identifier", "e.g"), undefined);
  // A path's folders are no words.
  assert.equal(term(result, "word", "lexer"), undefined);
});

Deno.test("terms: a diff's header names its file", () => {
  const result = extractTerms(
    ["Fix:", FENCE + "diff", "--- a/pkg/core.py", "+++ b/pkg/core.py", "@@ -1 +1 @@", FENCE].join(
      "\n",
    ),
  );
  assert.deepEqual(values(result, "path"), ["pkg/core.py"]);
  assert.equal(term(result, "path", "pkg/core.py")?.count, 2);
});

Deno.test("terms: URLs give nothing but a GitHub blob's path and lines", () => {
  const text = "Broken since https://github.com/psf/requests/pull/1234 (see " +
    "https://github.com/psf/requests/blob/main/requests/sessions.py#L10-L20 and " +
    "[docs](https://docs.python.org/3/library/socket.html#socket.error)), www.example.com/x_y.py";
  const result = extractTerms(text);
  assert.deepEqual(
    result.terms.filter((t) => t.kind !== "word").map((t) => [
      t.kind,
      t.value,
      t.line,
      t.end_line,
      t.context,
    ]),
    [["path", "requests/sessions.py", 10, 20, "url"]],
  );
  // A one-line task is its title; "broken" and "see" are words of every issue.
  assert.deepEqual(values(result, "word"), ["docs", "broken", "see"]);
  const path = term(result, "path", "requests/sessions.py")!;
  assert.equal(text.slice(path.offset, path.offset + path.length), "requests/sessions.py");
});

Deno.test("terms: identifier shapes, in code and in prose", () => {
  const result = extractTerms([
    "Title line",
    "In prose: HTTPServerError, parse_args, MAX_SIZE, Foo::bar, run() and plain words here.",
    FENCE + "rust",
    "let cfg = Config::load(MAX_SIZE); // load the config",
    FENCE,
  ].join("\n"));
  const ids = Object.fromEntries(
    result.terms.filter((t) => t.kind === "identifier").map((
      t,
    ) => [t.value, [t.weight, t.context]]),
  );
  assert.deepEqual(ids, {
    "Config::load": [5, "code"],
    load: [5, "code"],
    MAX_SIZE: [5, "code"],
    cfg: [4, "code"],
    HTTPServerError: [3.5, "prose"],
    parse_args: [3.5, "prose"],
    "Foo::bar": [3.5, "prose"],
    bar: [3.5, "prose"],
    run: [3.5, "prose"],
    Config: [3, "code"],
    Foo: [2.1, "prose"],
  });
  // Sub-tokens are words; plain prose words are words only; the comment is prose.
  for (const word of ["http", "server", "parse", "args", "plain", "words", "config"]) {
    assert.ok(term(result, "word", word), word);
  }
  assert.equal(term(result, "word", "error")?.weight, 0.3); // common in issues: kept, low
  assert.equal(term(result, "word", "here"), undefined); // a stop-word
  assert.equal(term(result, "identifier", "let"), undefined); // a keyword
  assert.deepEqual(result.spans.map((s) => [s.kind, s.lang, s.text]), [
    ["fence", "rust", "let cfg = Config::load(MAX_SIZE); // load the config"],
  ]);
});

Deno.test("terms: contractions, entities and escapes make no words", () => {
  const result = extractTerms(
    "It doesn't work &amp; I can't see why &lt;tag&gt;\n" + FENCE + "\nprint('a\\nsinc(x)')\n" +
      FENCE,
  );
  for (const word of ["doesn", "can", "amp", "lt", "gt", "nsinc"]) {
    assert.equal(term(result, "word", word), undefined, word);
  }
  assert.equal(term(result, "identifier", "sinc")?.weight, 5);
});

Deno.test("terms: empty, blank and binary texts", () => {
  for (const text of ["", "   \n\r\n\t", "\u0000\u0001\ufffd\ud800", "```", "`"]) {
    const result = extractTerms(text);
    assert.deepEqual(
      [result.terms, result.tracebacks, result.length, result.truncated, result.dropped],
      [[], [], text.length, false, 0],
    );
  }
  const bytes = new Uint8Array(4096).map((_, i) => (i * 2654435761) >>> 24);
  const junk = extractTerms(decodeText(bytes));
  assert.ok(junk.terms.length <= 1_000);
});

Deno.test("terms: a huge text is read at its head and tail, and flagged", () => {
  const filler = "lorem ipsum dolor sit amet consectetur adipiscing\n".repeat(40_000); // 2 MB
  const text = "Crash in `parse_header`\n" + filler +
    'Traceback (most recent call last):\n  File "app/main.py", line 9, in run\n' +
    "ValueError: bad header\n";
  const result = extractTerms(text);
  assert.equal(result.truncated, true);
  assert.ok(result.scanned <= 65_536 && result.scanned > 60_000, `${result.scanned}`);
  assert.equal(result.length, text.length);
  assert.equal(term(result, "identifier", "parse_header")?.offset, 10); // the head
  const frame = term(result, "frame", "app/main.py:9")!; // the tail
  assert.equal(text.slice(frame.offset, frame.offset + frame.length), "app/main.py");
  const small = extractTerms(text, { maxChars: 4_096, maxTerms: 3 });
  assert.deepEqual([small.terms.length, small.dropped > 0, small.scanned <= 4_096], [
    3,
    true,
    true,
  ]);
});

Deno.test("terms: helpers", () => {
  assert.deepEqual(splitIdentifier("XMLHttpRequest2_parse"), ["xml", "http", "request", "parse"]);
  assert.deepEqual(splitIdentifier("λ_max"), ["λ", "max"]);
  assert.deepEqual(messageFragments("expecting x-dependent symbol(s) but got: f(x)"), [
    "expecting x-dependent", // "but got" is too short to search
  ]);
  assert.deepEqual(messageFragments("unable to parse"), ["unable to parse"]);
  assert.deepEqual(messageFragments("'setosa'"), []);
  assert.equal(pathSuffix("/usr/lib/python3.11/json/decoder.py"), "json/decoder.py");
  assert.equal(pathSuffix("/home/me/code/proj/src/app.py"), "proj/src/app.py");
  assert.equal(pathSuffix("src/flask/config.py"), "src/flask/config.py");
  assert.equal(pathSuffix("/app/node_modules/express/lib/router.js"), "express/lib/router.js");
  assert.equal(parseExceptionLine("Note: prose"), undefined);
  assert.equal(parseExceptionLine("E   AssertionError: assert 1 == 2")?.type, "AssertionError");
  assert.equal(parseExceptionLine("panic: boom")?.message, "boom");
});

// --- Properties ------------------------------------------------------------------------------------

/** Pieces a generated task is made of; URLs are recorded to check that nothing comes from them. */
const PIECES: (() => string)[] = [
  () => "the parser fails when",
  () => "parse_args",
  () => "HTTPServerError",
  () => "obj.method()",
  () => "Class::method",
  () => "src/pkg/mod.py:12:3",
  () => "C:\\Users\\x\\proj\\a.py",
  () => "`inline code()`",
  () => "\n" + FENCE + "python\nimport os\nos.path.join('a', 'b')  # a comment\n" + FENCE + "\n",
  () => '\nTraceback (most recent call last):\n  File "/v/site-packages/pkg/a.py", line 3, in f\n',
  () => "\nValueError: could not convert 'x' to float\n",
  () => "    at handler (/srv/app/index.js:10:5)\n",
  () => '"this is a quoted error message"',
  () => "&amp; &#39;",
  () => "<details><summary>Out</summary>",
  () => "<!-- template text -->",
  () => "\r\n",
  () => "\n",
  () => "   ",
  () => "```",
  () => "`",
  () => "don't",
  () => "λ_max",
  () => "\ud83d\ude00",
  () => "\u0000\u0007\ufffd",
];
const URLS = [
  "https://github.com/org/repo/issues/12",
  "https://example.com/path/to/file.py?x=parse_args#frag",
  "https://docs.python.org/3/library/os.path.html#os.path.join",
  "http://localhost:8000/api/v1/users_list",
];
const BLOB = "https://github.com/org/repo/blob/main/lib/core.py#L5-L9";

interface Generated {
  text: string;
  urls: [number, number][];
}

function generate(next: () => number): Generated {
  let text = "";
  const urls: [number, number][] = [];
  const count = 1 + Math.floor(next() * 40);
  for (let i = 0; i < count; i++) {
    const roll = next();
    if (roll < 0.08) {
      const url = URLS[Math.floor(next() * URLS.length)];
      urls.push([text.length, text.length + url.length]);
      text += url;
    } else if (roll < 0.1) text += BLOB;
    else if (roll < 0.15) {
      text += String.fromCharCode(...Array.from({ length: 8 }, () => Math.floor(next() * 0xffff)));
    } else text += PIECES[Math.floor(next() * PIECES.length)]();
    text += next() < 0.2 ? "\n" : " ";
  }
  return { text, urls };
}

/** The checks every result must pass. */
function checkResult(text: string, result: TaskTerms, urls: [number, number][]): void {
  const keys = new Set<string>();
  let previous = Infinity;
  for (const t of result.terms) {
    const where = `${t.kind} ${JSON.stringify(t.value)} @${t.offset}`;
    assert.ok(t.weight > 0 && t.weight <= previous, where);
    previous = t.weight;
    const key = `${t.kind}\u0000${t.value}`;
    assert.ok(!keys.has(key), `duplicate ${where}`);
    keys.add(key);
    assert.ok(t.count >= 1 && Number.isInteger(t.offset) && t.length > 0, where);
    assert.ok(t.offset >= 0 && t.offset + t.length <= text.length, where);
    const source = text.slice(t.offset, t.offset + t.length);
    const baseName = (p: string) => p.replace(/\\/g, "/").split("/").at(-1);
    if (t.kind === "word") assert.equal(source.toLowerCase(), t.value, where);
    else if (t.kind === "identifier" || t.kind === "message") assert.equal(source, t.value, where);
    else if (t.kind === "path" && t.context === "url") assert.equal(source, t.value, where);
    else {
      assert.equal(source, t.path, where);
      const path = t.kind === "frame" ? t.value.replace(/:\d+$/, "") : t.value;
      assert.equal(baseName(source), baseName(path), where);
    }
    const inside = urls.some(([from, to]) => t.offset >= from && t.offset + t.length <= to);
    assert.ok(!inside, `from inside a URL: ${where}`);
  }
  for (const traceback of result.tracebacks) {
    for (const f of traceback.frames) {
      assert.equal(text.slice(f.offset, f.offset + f.path.length), f.path);
      if (f.function !== undefined) {
        const at = f.function_offset!;
        assert.equal(text.slice(at, at + f.function.length), f.function);
      }
    }
  }
  for (const span of result.spans) {
    assert.equal(text.slice(span.offset, span.offset + span.length), span.text);
  }
  assert.ok(result.terms.length <= 1_000 && result.spans.length <= 500);
  assert.ok(result.tracebacks.reduce((n, tb) => n + tb.frames.length, 0) <= 500);
  assert.ok(result.scanned <= result.length);
}

Deno.test("terms (property): same text, same terms; offsets point at the terms; nothing from URLs", () => {
  const next = seededRandom(0x7e57);
  for (let run = 0; run < 400; run++) {
    const { text, urls } = generate(next);
    const result = extractTerms(text);
    checkResult(text, result, urls);
    assert.deepEqual(extractTerms(text), result, "not deterministic");
    // The same bytes, decoded as the toolkit decodes them, give the same terms.
    const roundTrip = decodeText(new TextEncoder().encode(text));
    if (roundTrip === text) assert.deepEqual(extractTerms(roundTrip), result);
  }
});

Deno.test("terms (property): the real tasks pass the same checks", () => {
  for (const text of Object.values(TASKS)) checkResult(text, extractTerms(text), []);
});

Deno.test("terms (property): bounded output on huge generated input", () => {
  const next = seededRandom(0xb16);
  let text = "";
  while (text.length < 400_000) text += generate(next).text;
  const result = extractTerms(text);
  checkResult(text, result, []);
  assert.equal(result.truncated, true);
  assert.ok(result.scanned <= 65_536);
  const small = extractTerms(text, { maxChars: 2_048, maxTerms: 50 });
  checkResult(text, small, []);
  assert.ok(small.terms.length <= 50 && small.scanned <= 2_048);
});

Deno.test("terms: a name the title writes is marked so, wherever its best occurrence is", () => {
  // xarray 4094: the title names the method, which the code calls as `stacked.…` (a term of
  // its own, which the ranking groups with it by the name).
  const { terms } = extractTerms(TASKS["pydata__xarray-4094"]);
  const named = terms.find((term) =>
    term.kind === "identifier" && term.value === "to_unstacked_dataset"
  );
  assert.equal(named?.in_title, true, JSON.stringify(named));
  // A name the body alone writes is not.
  const body = terms.find((term) =>
    term.kind === "identifier" && term.value.endsWith("to_stacked_array")
  );
  assert.ok(body, "the body's name is a term");
  assert.equal(body.in_title, undefined);
  // In the title only.
  const titled = extractTerms("parse_config fails on empty files\n\nIt raises on an empty file.");
  assert.equal(titled.terms.find((term) => term.value === "parse_config")?.in_title, true);
});
