/**
 * Putting a journaled file back the way it was, from the journal's backup.
 *
 * @module
 */
import { dirname, join } from "../path_syntax.ts";
import { sha256Async } from "../../schema/checksum.ts";
import { ToolError } from "../../schema/diagnostic.ts";
import type { JournalFile } from "../../schema/journal.ts";
import { isJournalFile } from "./confine.ts";
import { removeFileIfPresent, syncDirectory, writeNewFile } from "./fs.ts";
import type { TransactionCodes } from "./types.ts";

/**
 * Restores the prior bytes of `file` from the backup in journal directory `dir`, atomically
 * (a temporary file renamed over it) and with its prior mode. A file the operation created is
 * removed. Throws `journalUnusable` when the backup is missing or does not have the checksum the
 * manifest recorded, and
 * `unsafeState` when it is a link or not a regular file. The caller has confined `file` to the
 * root (see `confineManifest`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { commitChanges } from "./commit.ts";
 * import { restoreFile } from "./restore.ts";
 * import { transactionCodes } from "./codes.ts";
 * const codes = transactionCodes("LMT");
 * const root = Deno.realPathSync(Deno.makeTempDirSync());
 * Deno.writeTextFileSync(`${root}/a.txt`, "old\n");
 * const [before, after] = [new TextEncoder().encode("old\n"), new TextEncoder().encode("new\n")];
 * const change = { file_path: "a.txt", path: `${root}/a.txt`, before, after };
 * const report = await commitChanges([change], {
 *   root, executionId: crypto.randomUUID(), tool: "llm-transform", operationType: "edit",
 *   prefix: "LMT", codes,
 * });
 * await restoreFile(report.journal, report.files[0], codes);
 * assert.equal(Deno.readTextFileSync(`${root}/a.txt`), "old\n");
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export async function restoreFile(
  dir: string,
  file: JournalFile,
  codes: TransactionCodes,
): Promise<void> {
  if (!file.backup) {
    await Deno.remove(file.path).catch((error) => {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    });
    return;
  }
  const backup = join(dir, file.backup);
  const unusable = (what: string) =>
    new ToolError(
      codes.journalUnusable,
      `the journal's backup of ${file.file_path} is ${what}; it was not restored`,
      { file: backup },
    );
  if (!(await isJournalFile(backup, codes))) throw unusable("missing");
  const bytes = await Deno.readFile(backup);
  if (await sha256Async(bytes) !== file.checksum_before) throw unusable("damaged");
  const temp = `${file.temp}.restore`;
  await removeFileIfPresent(temp);
  await writeNewFile(temp, bytes, file.mode);
  await Deno.rename(temp, file.path);
  await syncDirectory(dirname(file.path));
}
