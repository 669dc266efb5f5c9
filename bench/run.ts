/**
 * `deno task bench`: prepares the corpora and peers once, then runs every `bench/*_bench.ts`
 * in turn (pass names to run only some, e.g. `deno task bench search`).
 *
 * @module
 */
import { prepare } from "./prepare.ts";

const here = new URL(".", import.meta.url);
const wanted = Deno.args;
await prepare();
const benches = [...Deno.readDirSync(here)]
  .map((entry) => entry.name)
  .filter((name) => name.endsWith("_bench.ts"))
  .filter((name) => wanted.length === 0 || wanted.some((w) => name.startsWith(w)))
  .sort();
let failed = false;
for (const name of benches) {
  console.log(`\n# ${name}`);
  const status = await new Deno.Command("deno", {
    args: ["run", "-A", new URL(name, here).pathname],
    stdout: "inherit",
    stderr: "inherit",
  }).spawn().status;
  failed ||= !status.success;
}
if (failed) Deno.exitCode = 1;
