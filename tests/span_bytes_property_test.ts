/**
 * Property (issue 29, item 5): every span a tool reports is the bytes on disk, whatever the
 * file's encoding details. On generated projects of Python, C, JavaScript and TypeScript files,
 * with and without a UTF-8 BOM, with LF or CRLF line ends, with multi-byte characters (two to
 * four bytes, so surrogate pairs too) before the names on their own lines, and invalid UTF-8
 * bytes in comments, each tool runs as a real subprocess with a user's permission flags:
 *
 * - `llm-search`: every match of the names is where a byte scan finds them, its bytes are its
 *   `matched_text`; every run of non-ASCII bytes is matched whole.
 * - `llm-ast-search --kind function`: each definition's span holds its `text`, its name
 *   capture holds the name, at the name's first place in the file.
 * - `llm-symbols index`, then `find`, `refs`, `callers` and `outline`: a definition's span is
 *   the one ast-search gives and begins with its signature; a reference's bytes are its name,
 *   and the references are the uses a byte scan finds.
 * - `llm-refactor rename`: each file afterwards is the file before with every occurrence of the
 *   old name replaced by the new one and no other byte changed (a BOM kept).
 * - `llm-transform` given the spans `llm-search` reported (with their checksums): the file is
 *   the file before with those bytes replaced, and the new spans hold the new text.
 *
 * Every span's `start_line`/`start_col` (and `end_line`/`end_col` where given) are checked
 * against its byte offsets by counting line feeds in the bytes.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeTree, parseJson, runEntry, seededRandom } from "./helpers.ts";

const SEED = 20_295;
/** Cases, three per language: all files with a BOM, none (CRLF), then either. */
const CASES = 12;

type Language = "python" | "c" | "javascript" | "typescript";
const LANGUAGES: Language[] = ["python", "c", "javascript", "typescript"];

/** Two- to four-byte characters; none ends a string literal or a comment. */
const WIDE = ["é", "ß", "Ω", "中文", "😀", "naïve", "𝄞", "\u00a0", "ü😀é"];
/** Invalid UTF-8: lone bytes, a cut sequence, an encoded surrogate. */
const INVALID = [[0xff], [0xfe], [0x80], [0xc3], [0xe4, 0xb8], [0xed, 0xa0, 0x80], [0xf0, 0x9f]];
const BOM = [0xef, 0xbb, 0xbf];

const encoder = new TextEncoder();
// The test's own decoding, as the contract states it: a BOM is text like any other.
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** A generated file: its bytes and the functions it defines. */
interface GenFile {
  path: string;
  bytes: Uint8Array;
  defs: string[];
}

/** A generated case: a function, its callers' file, and the name a rename gives it. */
interface Case {
  language: Language;
  name: string;
  to: string;
  caller: string;
  files: GenFile[];
  /** What was drawn, for messages. */
  shape: string;
}

/** Builds a file from text lines and raw bytes. */
class FileBytes {
  readonly #parts: number[] = [];
  readonly #eol: string;

  constructor(bom: boolean, eol: string) {
    if (bom) this.#parts.push(...BOM);
    this.#eol = eol;
  }

  /** Appends `pieces` (text, or raw bytes) and a line end. */
  line(...pieces: (string | number[])[]): this {
    for (const piece of pieces) {
      this.#parts.push(...(typeof piece === "string" ? encoder.encode(piece) : piece));
    }
    this.#parts.push(...encoder.encode(this.#eol));
    return this;
  }

  get bytes(): Uint8Array {
    return new Uint8Array(this.#parts);
  }
}

function generate(random: () => number): Case[] {
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const word = () => Array.from({ length: 3 }, () => pick([..."abcdefghjkmnpqrstuvwxyz"])).join("");
  const wide = () =>
    Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(WIDE)).join("");
  const cases: Case[] = [];
  for (let k = 0; k < CASES; k++) {
    const language = LANGUAGES[k % LANGUAGES.length];
    const round = Math.floor(k / LANGUAGES.length);
    const name = `fn${k}_${word()}`;
    const to = `nw${k}_${word()}`;
    const caller = `caller${k}`;
    const shapes: string[] = [];
    const file = (part: string) => {
      const bom = round === 0 || (round === 2 && random() < 0.5);
      const crlf = round === 1 || (round === 2 && random() < 0.5);
      const invalid = round === 0 || random() < 0.5 ? [...pick(INVALID), 0x20] : [];
      shapes.push(
        `${part}:${bom ? "bom" : "-"},${crlf ? "crlf" : "lf"},${invalid.length ? "bad" : "-"}`,
      );
      return { out: new FileBytes(bom, crlf ? "\r\n" : "\n"), invalid };
    };
    const a = file("a");
    const b = file("b");
    const files: GenFile[] = [];
    if (language === "python") {
      const module = `m${k}_a`;
      a.out.line("# ", wide(), " ", a.invalid, "end")
        .line(`def ${name}(x):  # `, wide())
        .line("    return x + 1")
        .line(`v${k} = "`, wide(), `" + str(${name}(1))`);
      b.out.line(`import ${module}`)
        .line("# ", wide(), " ", b.invalid, "end")
        .line(`r = "`, wide(), `"; q = ${module}.${name}(2)`)
        .line(`def ${caller}():`)
        .line(`    s = "`, wide(), `"; return ${module}.${name}(3)`);
      files.push({ path: `${module}.py`, bytes: a.out.bytes, defs: [name] });
      files.push({ path: `m${k}_b.py`, bytes: b.out.bytes, defs: [caller] });
    } else if (language === "c") {
      a.out.line("/* ", wide(), " ", a.invalid, "*/")
        .line("/* ", wide(), ` */ int ${name}(int x) { return x + 1; }`)
        .line(
          `int self${k}(void) { const char *s = "`,
          wide(),
          `"; return ${name}(1) + (s != 0); }`,
        );
      b.out.line(`int ${name}(int x);`)
        .line("// ", wide(), " ", b.invalid, "end")
        .line(
          `int ${caller}(void) { const char *s = "`,
          wide(),
          `"; return ${name}(2) + (s != 0); }`,
        );
      files.push({ path: `c${k}_a.c`, bytes: a.out.bytes, defs: [name, `self${k}`] });
      files.push({ path: `c${k}_b.c`, bytes: b.out.bytes, defs: [caller] });
    } else {
      const ts = language === "typescript";
      const module = ts ? `t${k}_a.ts` : `j${k}_a.mjs`;
      a.out.line("// ", wide(), " ", a.invalid, "end")
        .line(
          "/* ",
          wide(),
          ts
            ? ` */ export function ${name}(x: number): number { return x + 1; }`
            : ` */ export function ${name}(x) { return x + 1; }`,
        )
        .line(`export const v${k} = "`, wide(), `" + ${name}(1);`);
      b.out.line(`import { ${name} } from "./${module}";`)
        .line("// ", wide(), " ", b.invalid, "end")
        .line(
          `const s${k} = "`,
          wide(),
          `"; export function ${caller}()${
            ts ? ": number" : ""
          } { return ${name}(2) + s${k}.length; }`,
        );
      files.push({ path: module, bytes: a.out.bytes, defs: [name] });
      files.push({ path: module.replace("_a.", "_b."), bytes: b.out.bytes, defs: [caller] });
    }
    cases.push({ language, name, to, caller, files, shape: `${language} ${shapes.join(" ")}` });
  }
  return cases;
}

/** A span as the tools write it (`end_line`/`end_col` absent from a refactor edit). */
interface Span {
  file_path: string;
  byte_start: number;
  byte_end: number;
  start_line: number;
  start_col: number;
  end_line?: number;
  end_col?: number;
}

/** Line and byte column of `offset`, by counting line feeds: the contract's own rule. */
function position(bytes: Uint8Array, offset: number): [number, number] {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    if (bytes[i] === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  return [line, offset - lineStart];
}

/** Checks a span against the files' bytes and gives the bytes it covers. */
function spanBytes(files: ReadonlyMap<string, Uint8Array>, span: Span, what: string): Uint8Array {
  const bytes = files.get(span.file_path);
  assert.ok(bytes, `${what}: no file ${span.file_path}`);
  const { byte_start: start, byte_end: end } = span;
  assert.ok(0 <= start && start <= end && end <= bytes.length, `${what}: ${JSON.stringify(span)}`);
  const at = `${what} ${span.file_path}:${start}-${end}`;
  assert.deepEqual([span.start_line, span.start_col], position(bytes, start), `${at}: start`);
  if (span.end_line !== undefined) {
    assert.deepEqual([span.end_line, span.end_col], position(bytes, end), `${at}: end`);
  }
  return bytes.subarray(start, end);
}

/** Asserts the span holds exactly the ASCII `name`. */
function assertName(
  files: ReadonlyMap<string, Uint8Array>,
  span: Span,
  name: string,
  what: string,
) {
  const text = decoder.decode(spanBytes(files, span, what));
  assert.equal(text, name, `${what} ${span.file_path}:${span.byte_start}`);
}

const IDENTIFIER = /[A-Za-z0-9_]/;

/** Byte offsets of `name` as a whole word in `bytes`. */
function occurrences(bytes: Uint8Array, name: string): number[] {
  const found: number[] = [];
  const text = String.fromCharCode(...bytes); // latin1: one character per byte
  for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) {
    const before = at > 0 ? text[at - 1] : "";
    const after = text[at + name.length] ?? "";
    if (!IDENTIFIER.test(before) && !IDENTIFIER.test(after)) found.push(at);
  }
  return found;
}

const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Width of the valid multi-byte character at `i`, or 0 (ASCII, or an invalid byte). */
function wideWidth(bytes: Uint8Array, i: number): number {
  const lead = bytes[i];
  const width = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 0;
  if (width === 0 || i + width > bytes.length) return 0;
  try {
    strict.decode(bytes.subarray(i, i + width));
    return width;
  } catch {
    return 0;
  }
}

/**
 * Maximal runs of valid multi-byte characters (a BOM among them): what `[^\x00-\x7f]+` matches.
 * An invalid byte matches no character class, as in ripgrep.
 */
function wideRuns(bytes: Uint8Array): [number, number][] {
  const runs: [number, number][] = [];
  let i = 0;
  while (i < bytes.length) {
    const start = i;
    for (let width = wideWidth(bytes, i); width > 0; width = wideWidth(bytes, i)) i += width;
    if (i > start) runs.push([start, i]);
    else i++;
  }
  return runs;
}

const collapse = (text: string) => text.replace(/\s+/g, " ").trim();

/** The tools' permissions: what the READMEs give. */
const read = (root: string) => [`--allow-read=${root}`];
const readWrite = (root: string) => [`--allow-read=${root}`, `--allow-write=${root}`];

async function tool(
  root: string,
  entry: string,
  args: string[],
  permissions: string[],
): Promise<Record<string, unknown>> {
  const result = await runEntry(entry, args, { cwd: root, permissions });
  const envelope = parseJson(result);
  assert.equal(result.code, 0, `${entry} ${args.join(" ")}: ${result.stdout}${result.stderr}`);
  return envelope;
}

interface SearchMatch {
  span: Span;
  matched_text: string;
  line_text: string;
  checksums?: { checksum_before: string };
}

interface AstMatch {
  span: Span;
  name: string;
  text: string;
  captures: { name: string; span: Span; text: string }[];
}

interface SymbolRow {
  name: string;
  kind: string;
  span: Span;
  signature: string;
}

interface RefRow {
  name: string;
  span: Span;
  target?: { name: string; span: Span };
  caller?: { name: string; span: Span };
}

interface RefsData {
  definitions: SymbolRow[];
  results: RefRow[];
}

Deno.test("property: every span a tool reports is the bytes on disk", async (t) => {
  const cases = generate(seededRandom(SEED));
  const all = cases.flatMap((c) => c.files);
  const root = await makeTree(Object.fromEntries(all.map((file) => [file.path, file.bytes])));
  const files = new Map(all.map((file) => [file.path, file.bytes]));
  const caseOf = new Map(cases.flatMap((c) => c.files.map((file) => [file.path, c])));
  const shapeOf = (path: string) => `(${caseOf.get(path)?.shape})`;
  /** Definition spans by `path\0name`, from ast-search: what the symbol tools must agree with. */
  const definitions = new Map<string, Span>();
  try {
    await t.step("llm-search: matches and their texts are the bytes", async () => {
      const names = await tool(root, "tools/search/main.ts", [
        "--limit",
        "0",
        "\\b(fn\\d+_[a-z]+|caller\\d+)\\b",
      ], read(root));
      const matches = (names.data as { matches: SearchMatch[] }).matches;
      const expected = all.flatMap((file) => {
        const c = caseOf.get(file.path)!;
        return [c.name, c.caller].flatMap((name) =>
          occurrences(file.bytes, name).map((at) => `${file.path}:${at}:${name}`)
        );
      }).sort();
      const got = matches.map((match) => {
        const what = `search ${shapeOf(match.span.file_path)}`;
        assertName(files, match.span, match.matched_text, what);
        return `${match.span.file_path}:${match.span.byte_start}:${match.matched_text}`;
      }).sort();
      assert.deepEqual(got, expected);

      const wide = await tool(root, "tools/search/main.ts", [
        "--limit",
        "0",
        "[^\\x00-\\x7f]+",
      ], read(root));
      const runs = (wide.data as { matches: SearchMatch[] }).matches.map((match) => {
        const what = `search non-ASCII ${shapeOf(match.span.file_path)}`;
        const bytes = spanBytes(files, match.span, what);
        assert.equal(match.matched_text, decoder.decode(bytes), what);
        return `${match.span.file_path}:${match.span.byte_start}-${match.span.byte_end}`;
      }).sort();
      const expectedRuns = all.flatMap((file) =>
        wideRuns(file.bytes).map(([start, end]) => `${file.path}:${start}-${end}`)
      ).sort();
      assert.deepEqual(runs, expectedRuns);
    });

    await t.step("llm-ast-search: definitions, texts and name captures are the bytes", async () => {
      const envelope = await tool(root, "tools/ast-search/main.ts", [
        "--kind",
        "function",
        "--limit",
        "0",
        ".",
      ], read(root));
      const matches = (envelope.data as { matches: AstMatch[] }).matches;
      for (const match of matches) {
        const path = match.span.file_path;
        const what = `ast-search ${match.name} ${shapeOf(path)}`;
        assert.equal(decoder.decode(spanBytes(files, match.span, what)), match.text, what);
        const capture = match.captures.find((capture) => capture.name === "name")!;
        assertName(files, capture.span, match.name, what);
        assert.equal(capture.span.byte_start, occurrences(files.get(path)!, match.name)[0], what);
        definitions.set(`${path}\0${match.name}`, withoutId(match.span));
      }
      const expected = all.flatMap((file) => file.defs.map((name) => `${file.path}\0${name}`));
      assert.deepEqual([...definitions.keys()].sort(), expected.sort());
    });

    await t.step("llm-symbols: find, refs, callers and outline spans are the bytes", async () => {
      const symbols = "tools/symbols/main.ts";
      // The index is written under the root; the full command line reads the package too.
      await tool(root, symbols, ["index"], ["--allow-read", `--allow-write=${root}/.llm`]);
      const checkDefinition = (row: SymbolRow, what: string) => {
        const at = `${what} ${row.name} ${shapeOf(row.span.file_path)}`;
        const text = decoder.decode(spanBytes(files, row.span, at));
        assert.ok(collapse(text).startsWith(row.signature), `${at}: ${text} / ${row.signature}`);
        assert.ok(occurrences(encoder.encode(text), row.name).length > 0, at);
        if (row.kind === "function") {
          assert.deepEqual(
            withoutId(row.span),
            definitions.get(`${row.span.file_path}\0${row.name}`),
            at,
          );
        }
      };
      const found = await tool(
        root,
        symbols,
        ["find", "--match", "prefix", "fn", "-n", "0"],
        read(root),
      );
      const rows = (found.data as { results: SymbolRow[] }).results;
      rows.forEach((row) => checkDefinition(row, "find"));
      assert.deepEqual(rows.map((row) => row.name).sort(), cases.map((c) => c.name).sort());

      for (const c of cases) {
        const uses = c.files.flatMap((file) =>
          occurrences(file.bytes, c.name)
            .filter((at) => !isDefinitionName(file, c.name, at))
            .map((at) => `${file.path}:${at}`)
        ).sort();
        for (const command of ["refs", "callers"]) {
          const envelope = await tool(root, symbols, [command, c.name, "-n", "0"], read(root));
          const data = envelope.data as RefsData;
          data.definitions.forEach((row) => checkDefinition(row, command));
          const got = data.results.map((row) => {
            const what = `${command} ${c.shape}`;
            assertName(files, row.span, c.name, what);
            if (row.target) {
              const known = definitions.get(`${c.files[0].path}\0${c.name}`);
              assert.deepEqual(withoutId(row.target.span), known, what);
            }
            if (row.caller) {
              const span = withoutId(row.caller.span);
              const known = definitions.get(`${span.file_path}\0${row.caller.name}`);
              assert.deepEqual(span, known, what);
            }
            return `${row.span.file_path}:${row.span.byte_start}`;
          }).sort();
          if (command === "refs") assert.deepEqual(got, uses, `refs ${c.shape}`);
          else assert.ok(got.every((use) => uses.includes(use)), `callers ${c.shape}`);
        }
      }

      for (const file of all) {
        const envelope = await tool(root, symbols, ["outline", file.path], read(root));
        const rows = (envelope.data as { results: SymbolRow[] }).results;
        rows.forEach((row) => checkDefinition(row, "outline"));
        const functions = rows.filter((row) => row.kind === "function").map((row) => row.name);
        assert.deepEqual(functions.sort(), [...file.defs].sort(), `outline ${shapeOf(file.path)}`);
      }
    });

    await t.step("llm-refactor rename: every occurrence replaced, nothing else", async () => {
      // One rename per language on its own (the round with a BOM in every file), the others as
      // one plan of rename steps: the same operation, in one run.
      const planned = cases.slice(LANGUAGES.length);
      const steps = planned.map((c) => ({ op: "rename", symbol: c.name, to: c.to }));
      const runs = [
        ...cases.slice(0, LANGUAGES.length).map((c) => ({
          cases: [c],
          args: ["rename", c.name, "--to", c.to],
        })),
        { cases: planned, args: ["plan", "--steps", JSON.stringify(steps)] },
      ];
      for (const run of runs) {
        const before = new Map(files);
        const envelope = await tool(root, "tools/refactor/main.ts", run.args, readWrite(root));
        const result = envelope.result as { edits: (Span & { new_text: string })[] };
        for (const edit of result.edits) {
          const c = caseOf.get(edit.file_path)!;
          assertName(before, edit, c.name, `rename edit ${c.shape}`);
          assert.equal(edit.new_text, c.to);
        }
        for (const c of run.cases) {
          for (const file of c.files) {
            const after = await Deno.readFile(join(root, file.path));
            const expected = replaceWord(before.get(file.path)!, c.name, c.to);
            assert.deepEqual(after, expected, `rename ${file.path} (${c.shape})`);
            files.set(file.path, after);
          }
        }
      }
    });

    await t.step("llm-transform: edits by llm-search's spans land on their bytes", async () => {
      const search = await tool(root, "tools/search/main.ts", [
        "--limit",
        "0",
        "--with-checksums",
        "\\bcaller\\d+\\b",
      ], read(root));
      const matches = (search.data as { matches: SearchMatch[] }).matches;
      const edits = matches.map((match) => ({
        file_path: match.span.file_path,
        byte_start: match.span.byte_start,
        byte_end: match.span.byte_end,
        new_text: `${match.matched_text}_é😀`,
        expected_checksum: match.checksums!.checksum_before,
      }));
      const envelope = await tool(
        root,
        "tools/transform/main.ts",
        ["--edits", JSON.stringify(edits)],
        readWrite(root),
      );
      const result = envelope.result as {
        edits: { old_span: Span; new_span: Span; status: string }[];
      };
      const before = new Map(files);
      for (const path of new Set(edits.map((edit) => edit.file_path))) {
        files.set(path, await Deno.readFile(join(root, path)));
      }
      assert.equal(result.edits.length, edits.length);
      result.edits.forEach((edit, index) => {
        const what = `transform ${shapeOf(edit.old_span.file_path)}`;
        assert.equal(edit.status, "applied", what);
        assertName(before, edit.old_span, matches[index].matched_text, what);
        assertName(files, edit.new_span, edits[index].new_text, what);
      });
      for (const c of cases) {
        const path = c.files[1].path;
        const expected = replaceWord(before.get(path)!, c.caller, `${c.caller}_é😀`);
        assert.deepEqual(files.get(path), expected, `transform ${path} (${c.shape})`);
      }
    });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

/** The span without its id (ids differ with nothing but the path and offsets anyway). */
function withoutId(span: Span & { span_id?: string }): Span {
  const { span_id: _, ...rest } = span;
  return rest;
}

/** Whether the name at `at` is one the file defines (the definition's own name). */
function isDefinitionName(file: GenFile, name: string, at: number): boolean {
  return file.defs.includes(name) && occurrences(file.bytes, name)[0] === at;
}

/** `bytes` with every whole-word `name` replaced by `to` (names are ASCII). */
function replaceWord(bytes: Uint8Array, name: string, to: string): Uint8Array {
  const out: number[] = [];
  let from = 0;
  for (const at of occurrences(bytes, name)) {
    out.push(...bytes.subarray(from, at), ...encoder.encode(to));
    from = at + name.length;
  }
  out.push(...bytes.subarray(from));
  return new Uint8Array(out);
}
