/**
 * The `symbols` tool inside llm-mcp (and `symbols_index`, served when `--tools` names it), through the official SDK's stdio client: the index the
 * server answers from is kept fresh while it runs (an edited file is re-indexed before the next
 * answer, a deleted file's symbols vanish, a new file is found), and a server that may not write
 * the index answers from it as it is, with a note.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeTree } from "./helpers.ts";
import { connect, type Connected, indexFixture } from "./mcp_helpers.ts";

const FILES: Record<string, string> = {
  "src/greet.py": "def greet(name):\n    return 'hello ' + name\n",
  "src/main.py": "from greet import greet\n\n\ndef main():\n    greet('world')\n",
  "src/helper.py": "def helper():\n    return 1\n",
};

interface Answer {
  isError: boolean;
  envelope: {
    status: string;
    data?: { results?: { name?: string; span: { file_path: string } }[] };
    diagnostics: { code: string; level: string }[];
    error?: { code: string };
  };
}

async function call(
  server: Connected,
  name: string,
  args: Record<string, unknown>,
): Promise<Answer> {
  // Mutations answer in full; queries are asked for their full form.
  const detail = name === "symbols_index" ? {} : { detail: "full" };
  const result = await server.client.callTool({ name, arguments: { ...args, ...detail } });
  return {
    isError: result.isError === true,
    envelope: result.structuredContent as Answer["envelope"],
  };
}

function paths(answer: Answer): string[] {
  return (answer.envelope.data?.results ?? []).map((result) => result.span.file_path);
}

function failureCode(answer: Answer): string | undefined {
  return answer.envelope.diagnostics.find((diagnostic) => diagnostic.level === "error")?.code;
}

Deno.test("symbols in llm-mcp: the index follows edits, deletions and new files", async (t) => {
  const root = await makeTree(FILES);
  const server = await connect({
    root,
    permissions: [`--allow-read=${root}`, `--allow-write=${root}`],
    args: ["--tools", "symbols,symbols_index"],
  });
  try {
    await t.step("symbols_index through the server, then find answers", async () => {
      const indexed = await call(server, "symbols_index", {});
      assert.equal(indexed.isError, false, JSON.stringify(indexed.envelope));
      assert.deepEqual(paths(await call(server, "symbols", { relation: "find", name: "greet" })), [
        "src/greet.py",
      ]);
    });

    await t.step("an edited file is re-indexed before the next answer", async () => {
      await Deno.writeTextFile(
        join(root, "src/greet.py"),
        "def salute(name):\n    return 'hi ' + name\n",
      );
      await Deno.writeTextFile(
        join(root, "src/main.py"),
        "from greet import salute\n\n\ndef main():\n    salute('world')\n",
      );
      const found = await call(server, "symbols", { relation: "find", name: "salute" });
      assert.deepEqual(paths(found), ["src/greet.py"], JSON.stringify(found.envelope));
      const callers = await call(server, "symbols", { relation: "callers", name: "salute" });
      assert.deepEqual(paths(callers), ["src/main.py"], JSON.stringify(callers.envelope));
      const old = await call(server, "symbols", { relation: "find", name: "greet" });
      assert.equal(failureCode(old), "MAG-REF-001", JSON.stringify(old.envelope));
    });

    await t.step("a deleted file's symbols vanish", async () => {
      assert.deepEqual(paths(await call(server, "symbols", { relation: "find", name: "helper" })), [
        "src/helper.py",
      ]);
      await Deno.remove(join(root, "src/helper.py"));
      const gone = await call(server, "symbols", { relation: "find", name: "helper" });
      assert.equal(failureCode(gone), "MAG-REF-001", JSON.stringify(gone.envelope));
    });

    await t.step("a new file is found, an ignored one is not", async () => {
      await Deno.writeTextFile(join(root, ".ignore"), "build/\n");
      await Deno.mkdir(join(root, "build"));
      await Deno.writeTextFile(join(root, "build/gen.py"), "def added():\n    pass\n");
      await Deno.writeTextFile(join(root, "src/added.py"), "def added():\n    pass\n");
      const found = await call(server, "symbols", { relation: "find", name: "added" });
      assert.deepEqual(paths(found), ["src/added.py"], JSON.stringify(found.envelope));
    });
  } finally {
    await server.close();
  }
});

Deno.test("symbols in llm-mcp without write permission: answers as indexed, with a note", async () => {
  const root = await makeTree(FILES);
  await indexFixture(root);
  const server = await connect({ root, permissions: [`--allow-read=${root}`] });
  try {
    await Deno.writeTextFile(join(root, "src/greet.py"), "def salute(name):\n    return name\n");
    const found = await call(server, "symbols", { relation: "find", name: "greet" });
    assert.equal(found.isError, false, JSON.stringify(found.envelope));
    assert.deepEqual(paths(found), ["src/greet.py"]);
    const codes = found.envelope.diagnostics.map((diagnostic) => diagnostic.code);
    assert.deepEqual(codes, ["MAG-IO-017"]);
  } finally {
    await server.close();
  }
});
