import assert from "node:assert/strict";
import { join } from "node:path";
import { searchTool } from "../tools/search/tool.ts";
import { assertValidEnvelope, makeTree, parseJson, runEntry, withoutRunFields } from "./helpers.ts";

const ENTRY = "tools/search/main.ts";

const FIXTURE = {
  "src/main.ts": "export function main() {\n  return parse('x');\n}\n",
  "src/parse.ts": "export function parse(text: string) {\n  return text; // parse it\n}\n",
  "README.md": "# parse\n",
};

interface Envelope {
  status: string;
  partial?: boolean;
  data: {
    count: number;
    match_count: number;
    total?: number;
    matches: { span: { file_path: string; start_line: number } }[];
  };
  diagnostics: {
    code: string;
    level: string;
    message: string;
    remediation?: string;
    column?: number;
  }[];
}

Deno.test("scoped --allow-read=<root> under --no-prompt is enough; output validates against both schemas", async () => {
  const root = await makeTree(FIXTURE);
  try {
    const result = await runEntry(ENTRY, ["parse"], {
      cwd: root,
      permissions: [`--allow-read=${root}`],
    });
    assert.equal(result.code, 0, result.stderr);
    const envelope = parseJson(result);
    assertValidEnvelope(searchTool, envelope);
    const data = (envelope as unknown as Envelope).data;
    assert.deepEqual(data.matches.map((m) => [m.span.file_path, m.span.start_line]), [
      ["README.md", 1],
      ["src/main.ts", 2],
      ["src/parse.ts", 1],
      ["src/parse.ts", 2],
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a path outside the permitted root is LMS-PERM-001, exit 4, one JSON document, no stack", async () => {
  const root = await makeTree(FIXTURE);
  const outside = await makeTree({ "x.txt": "parse" });
  try {
    const result = await runEntry(ENTRY, ["parse", outside], {
      cwd: root,
      permissions: [`--allow-read=${root}`],
    });
    assert.equal(result.code, 4);
    const envelope = parseJson(result) as unknown as Envelope;
    assertValidEnvelope(searchTool, envelope);
    assert.equal(envelope.status, "error");
    assert.equal(envelope.diagnostics[0].code, "LMS-PERM-001");
    assert.match(envelope.diagnostics[0].remediation ?? "", /--allow-read=/);
    assert.doesNotMatch(result.stderr + result.stdout, /\n\s+at /);
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("no read permission at all is exit 4 naming --allow-read", async () => {
  const result = await runEntry(ENTRY, ["parse"], { permissions: [] });
  assert.equal(result.code, 4);
  const envelope = parseJson(result) as unknown as Envelope;
  assert.equal(envelope.diagnostics[0].code, "LMS-PERM-001");
});

Deno.test("an invalid regex is LMS-QRY-001 with the column of the fault, exit 2", async () => {
  const result = await runEntry(ENTRY, ["foo(bar"]);
  assert.equal(result.code, 2);
  const envelope = parseJson(result) as unknown as Envelope;
  assert.equal(envelope.diagnostics[0].code, "LMS-QRY-001");
  assert.equal(envelope.diagnostics[0].column, 3);
});

Deno.test("a missing path is LMS-IO-001 and exit 2; other paths are still searched", async () => {
  const root = await makeTree(FIXTURE);
  try {
    const result = await runEntry(ENTRY, ["parse", "nope", "src"], { cwd: root });
    assert.equal(result.code, 2);
    const envelope = parseJson(result) as unknown as Envelope;
    assert.equal(envelope.diagnostics[0].code, "LMS-IO-001");
    assert.equal(envelope.data.match_count, 3);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a bad flag is LMS-ARG-001 and a bad value LMS-ARG-002, exit 2", async () => {
  const flag = await runEntry(ENTRY, ["--no-such-flag", "x"]);
  assert.equal(flag.code, 2);
  assert.equal((parseJson(flag) as unknown as Envelope).diagnostics[0].code, "LMS-ARG-001");
  const value = await runEntry(ENTRY, ["x", "--limit=-3"]);
  assert.equal(value.code, 2);
  const envelope = parseJson(value) as unknown as Envelope;
  assert.equal(envelope.diagnostics[0].code, "LMS-ARG-002");
  assert.match(envelope.diagnostics[0].message, /\$\.limit/);
  const type = await runEntry(ENTRY, ["x", "-t", "klingon"]);
  assert.equal((parseJson(type) as unknown as Envelope).diagnostics[0].code, "LMS-ARG-003");
});

Deno.test("--limit cuts with partial and total; exit stays 0", async () => {
  const root = await makeTree(FIXTURE);
  try {
    const result = await runEntry(ENTRY, ["parse", "--limit", "1"], { cwd: root });
    assert.equal(result.code, 0);
    const envelope = parseJson(result) as unknown as Envelope;
    assert.equal(envelope.status, "partial");
    assert.equal(envelope.partial, true);
    assert.deepEqual([envelope.data.count, envelope.data.total, envelope.data.match_count], [
      1,
      4,
      4,
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("--format jsonl streams one match per line and ends with a summary; text is vimgrep-like", async () => {
  const root = await makeTree(FIXTURE);
  try {
    const jsonl = await runEntry(ENTRY, ["parse", "--format", "jsonl", "src"], { cwd: root });
    const lines = jsonl.stdout.trim().split("\n").map((line) => JSON.parse(line));
    assert.deepEqual(lines.map((line) => line.type), ["match", "match", "match", "summary"]);
    assert.equal(lines[3].data.match_count, 3);
    assert.equal(lines[3].data.matches, undefined);
    const files = await runEntry(ENTRY, ["parse", "-l", "--format", "jsonl"], { cwd: root });
    assert.deepEqual(files.stdout.trim().split("\n").map((line) => JSON.parse(line).type), [
      "file",
      "file",
      "file",
      "summary",
    ]);
    const text = await runEntry(ENTRY, ["parse", "--format", "text", "src"], { cwd: root });
    assert.equal(
      text.stdout,
      "src/main.ts:2:10:  return parse('x');\nsrc/parse.ts:1:17:export function parse(text: string) {\n" +
        "src/parse.ts:2:19:  return text; // parse it\n",
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("two runs give byte-identical output once ids and timestamps are removed", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 500; i++) files[`d${i % 13}/f${i}.txt`] = `a\nparse ${i}\n`;
  const root = await makeTree(files);
  try {
    const first = await runEntry(ENTRY, ["parse \\d+", "--limit", "0", "-A", "1"], { cwd: root });
    const second = await runEntry(ENTRY, ["parse \\d+", "--limit", "0", "-A", "1"], { cwd: root });
    assert.equal(first.code, 0);
    assert.equal((parseJson(first) as unknown as Envelope).data.count, 500);
    assert.equal(withoutRunFields(first.stdout), withoutRunFields(second.stdout));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a large tree under a scoped --allow-read still searches everything (inline when workers cannot load)", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 450; i++) files[`d${i % 9}/f${i}.txt`] = `needle ${i}\n`;
  const root = await makeTree(files);
  try {
    const result = await runEntry(ENTRY, ["needle", "-c"], {
      cwd: root,
      permissions: [`--allow-read=${root}`],
    });
    assert.equal(result.code, 0, result.stderr);
    assert.equal((parseJson(result) as unknown as Envelope).data.match_count, 450);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("--help lists the flags derived from the input schema, with examples", async () => {
  const result = await runEntry(ENTRY, ["--help"]);
  assert.equal(result.code, 0);
  for (
    const flag of [
      "-F, --fixed-strings",
      "-w, --word-regexp",
      "--max-filesize",
      "-e, --patterns, --regexp",
      "EXAMPLES",
    ]
  ) {
    assert.ok(result.stdout.includes(flag), flag);
  }
});

Deno.test("an unreadable directory is a warning and the walk goes on", async () => {
  const root = await makeTree({ "open/a.txt": "hit", "locked/b.txt": "hit" });
  await Deno.chmod(join(root, "locked"), 0o000);
  try {
    // Root ignores file modes; dropping the DAC capabilities makes the kernel enforce them.
    const asRoot = Deno.uid() === 0;
    const result = asRoot
      ? await dropCapabilitiesAndRun(root)
      : await runEntry(ENTRY, ["hit"], { cwd: root });
    assert.equal(result.code, 0, result.stderr);
    const envelope = parseJson(result) as unknown as Envelope;
    assert.deepEqual(envelope.data.matches.map((m) => m.span.file_path), ["open/a.txt"]);
    const warning = envelope.diagnostics.find((d) => d.code === "LMS-IO-002");
    assert.ok(warning && warning.level === "warning" && warning.message.includes("locked"));
  } finally {
    await Deno.chmod(join(root, "locked"), 0o755);
    await Deno.remove(root, { recursive: true });
  }
});

async function dropCapabilitiesAndRun(root: string) {
  const { REPO } = await import("./helpers.ts");
  const output = await new Deno.Command("setpriv", {
    args: [
      "--inh-caps=-dac_override,-dac_read_search",
      "--bounding-set=-dac_override,-dac_read_search",
      "deno",
      "run",
      "--quiet",
      "--no-prompt",
      `--config=${join(REPO, "deno.json")}`,
      "--allow-read",
      join(REPO, ENTRY),
      "hit",
    ],
    cwd: root,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}

Deno.test("FIFOs are never opened: skipped in a walk, a coded warning when named", async () => {
  const root = await makeTree({ "a.txt": "hit" });
  try {
    const made = await new Deno.Command("mkfifo", { args: [join(root, "pipe")] }).output();
    assert.ok(made.success, "mkfifo");
    // Opening a FIFO with no writer would block forever: the run finishing proves it was skipped.
    const walked = await runEntry(ENTRY, ["hit"], { cwd: root });
    assert.equal(walked.code, 0, walked.stderr);
    const envelope = parseJson(walked) as unknown as Envelope;
    assert.deepEqual(envelope.data.matches.map((m) => m.span.file_path), ["a.txt"]);
    const named = await runEntry(ENTRY, ["hit", "pipe", "a.txt"], { cwd: root });
    const diagnostics = (parseJson(named) as unknown as Envelope).diagnostics;
    assert.ok(diagnostics.some((d) => d.code === "LMS-IO-002" && d.message.includes("pipe")));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a --max-filesize that is not a size is LMS-ARG-002; K/M/G suffixes are read", async () => {
  const root = await makeTree({ "small.txt": "hit", "big.txt": "hit" + "x".repeat(3000) });
  try {
    const bad = await runEntry(ENTRY, ["hit", "--max-filesize", "lots"], { cwd: root });
    assert.equal(bad.code, 2);
    assert.equal((parseJson(bad) as unknown as Envelope).diagnostics[0].code, "LMS-ARG-002");
    const sized = await runEntry(ENTRY, ["hit", "--max-filesize", "2K"], { cwd: root });
    const files = (parseJson(sized) as unknown as Envelope).data.matches.map((m) =>
      m.span.file_path
    );
    assert.deepEqual(files, ["small.txt"]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
