/**
 * Bytes that are not UTF-8, fed to the mutating tools as real `deno run --no-prompt`
 * subprocesses with scoped permissions: `llm-write --path FILE` keeps standard input's bytes
 * exactly (as `cat > FILE` does; a BOM too) and the gates judge them, `llm-validate --stdin`
 * judges the same bytes (so both give one verdict); where the input must be text — a plan on
 * standard input or in a file, a JSON string with a lone surrogate, a snippet — the run is
 * refused with `*-ARG-005` and nothing is written. Never U+FFFD in place of the caller's bytes.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { sha256 } from "../schema/mod.ts";
import { hasCommand, makeTree, parseJson, runEntry } from "./helpers.ts";

const encoder = new TextEncoder();

/** `parts` as one byte array: strings as UTF-8, numbers as raw bytes. */
function bytesOf(...parts: (string | number[])[]): Uint8Array {
  const chunks = parts.map((part) => typeof part === "string" ? encoder.encode(part) : part);
  return new Uint8Array(chunks.flatMap((chunk) => [...chunk]));
}

/** Latin-1 `café`, an invalid 0xFF and a truncated sequence: three kinds of invalid UTF-8. */
const LATIN1 = bytesOf("/* caf", [0xe9], " */\n/* ", [0xff], " */\n/* ", [0xe2, 0x82], " */\n");

function scoped(root: string, run: string[] = []): string[] {
  return [
    `--allow-read=${root}`,
    `--allow-write=${root}`,
    ...(run.length ? [`--allow-run=${run.join(",")}`] : []),
  ];
}

interface Envelope {
  status: string;
  error?: { code: string; message: string; line?: number };
  result?: { files?: { checksum: string; bytes: number; written: boolean }[] };
  data?: { status: string };
}

async function cli(
  root: string,
  entry: string,
  args: string[],
  stdin?: Uint8Array,
  run: string[] = [],
): Promise<{ code: number; envelope: Envelope }> {
  const result = await runEntry(entry, args, {
    cwd: root,
    permissions: scoped(root, run),
    ...(stdin ? { stdin } : {}),
  });
  assert.doesNotMatch(result.stderr, /\n\s+at /, "no stack trace");
  return { code: result.code, envelope: parseJson(result) as unknown as Envelope };
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

Deno.test("llm-write of standard input writes its exact bytes: invalid UTF-8 and a BOM kept", async () => {
  const root = await makeTree({});
  try {
    const withBom = bytesOf([0xef, 0xbb, 0xbf], "x = 1\n");
    for (const [path, bytes] of [["notes.c", LATIN1], ["bom.py", withBom]] as const) {
      const run = await cli(root, "tools/write/main.ts", ["--path", path], bytes);
      assert.equal(run.code, 0, JSON.stringify(run.envelope));
      assert.equal(run.envelope.status, "approved");
      const [file] = run.envelope.result!.files!;
      assert.deepEqual([file.checksum, file.bytes, file.written], [
        sha256(bytes),
        bytes.length,
        true,
      ]);
      assert.deepEqual(await Deno.readFile(join(root, path)), bytes, path);
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a plan that is not UTF-8 (standard input, a file) is refused: LFW-ARG-005, nothing written", async () => {
  const root = await makeTree({});
  try {
    const plan = bytesOf('{"files": [{"file_path": "a.txt", "content": "caf', [0xe9], '"}]}');
    await Deno.writeFile(join(root, "plan.json"), plan);
    for (const [args, stdin] of [[["--plan", "-"], plan], [["--plan", "plan.json"], undefined]]) {
      const run = await cli(root, "tools/write/main.ts", args as string[], stdin as Uint8Array);
      assert.equal(run.code, 2, JSON.stringify(run.envelope));
      assert.equal(run.envelope.error?.code, "LFW-ARG-005");
      const at = plan.indexOf(0xe9);
      assert.match(
        run.envelope.error!.message,
        new RegExp(`not valid UTF-8 \\(byte 0xe9 at offset ${at}, line 1\\)`),
      );
      assert.equal(await exists(join(root, "a.txt")), false);
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a lone surrogate in a JSON string is refused, not written as U+FFFD: LFW-ARG-005", async () => {
  const root = await makeTree({});
  try {
    const run = await cli(root, "tools/write/main.ts", [
      "--files",
      '[{"file_path": "a.txt", "content": "x\\ud800y"}]',
    ]);
    assert.equal(run.code, 2, JSON.stringify(run.envelope));
    assert.equal(run.envelope.error?.code, "LFW-ARG-005");
    assert.match(run.envelope.error!.message, /\$\.files\[0\]\.content holds a lone surrogate/);
    assert.equal(await exists(join(root, "a.txt")), false);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("llm-transform --plan - that is not UTF-8 is refused: LMT-ARG-005, the file untouched", async () => {
  const root = await makeTree({ "a.txt": "hello\n" });
  try {
    const plan = bytesOf(
      '{"edits": [{"file_path": "a.txt", "byte_start": 0, "byte_end": 5, "new_text": "h',
      [0xe9],
      'llo"}]}',
    );
    const run = await cli(root, "tools/transform/main.ts", ["--plan", "-"], plan);
    assert.equal(run.code, 2, JSON.stringify(run.envelope));
    assert.equal(run.envelope.error?.code, "LMT-ARG-005");
    assert.equal(await Deno.readTextFile(join(root, "a.txt")), "hello\n");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("llm-refactor patch text on standard input that is not UTF-8 is refused: SPL-ARG-005", async () => {
  const root = await makeTree({ "a.py": "def helper():\n    return 1\n" });
  try {
    const text = bytesOf("def helper():\n    return '", [0xe9], "'\n");
    const run = await cli(root, "tools/refactor/main.ts", ["patch", "helper"], text);
    assert.equal(run.code, 2, JSON.stringify(run.envelope));
    assert.equal(run.envelope.error?.code, "SPL-ARG-005");
    assert.equal(await Deno.readTextFile(join(root, "a.py")), "def helper():\n    return 1\n");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test({
  name:
    "llm-validate --stdin judges the exact bytes, as llm-write then does: python3 refuses Latin-1",
  ignore: !hasCommand("python3"),
  fn: async () => {
    const root = await makeTree({});
    try {
      const source = bytesOf('x = "caf', [0xe9], '"\n');
      const checked = await cli(
        root,
        "tools/validate/main.ts",
        ["x.py", "--stdin"],
        source,
        ["python3"],
      );
      assert.equal(checked.code, 3, JSON.stringify(checked.envelope));
      assert.equal(checked.envelope.data?.status, "rejected");
      const written = await cli(root, "tools/write/main.ts", ["--path", "x.py"], source, [
        "python3",
      ]);
      assert.equal(written.code, 3, JSON.stringify(written.envelope));
      assert.equal(written.envelope.status, "rejected");
      assert.equal(await exists(join(root, "x.py")), false);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});
