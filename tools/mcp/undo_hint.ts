/**
 * The undo hint of a mutation's message in MCP words. Engines end a mutation's message with
 * `undo with --undo ID`, the command line's flag; through MCP the same undo is a call of the
 * tool with its `undo` argument, and that is what the model must be told.
 *
 * @module
 */
import type { Envelope } from "../../schema/envelope.ts";
import type { Tool } from "../../core/tool.ts";

/** `--undo ID` as the engines write it. */
const CLI_UNDO = /--undo ([0-9a-f-]{36})/g;

/**
 * `envelope` with the `--undo ID` of its message said as a call of `tool` (`transform
 * {"undo": "ID"}`); an envelope without a message, or of a tool that takes no `undo`, as is.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mcpUndoHint } from "./undo_hint.ts";
 * import { writeTool } from "../write/tool.ts";
 * import { mutationEnvelope } from "../../schema/envelope.ts";
 * const id = "0b7c6a1e-5f0e-4c3e-9a57-2b8f2f0d7c11";
 * const envelope = mutationEnvelope("llm-write", {
 *   operation_type: "write", status: "approved", message: `wrote 1 file(s); undo with --undo ${id}`,
 * });
 * assert.equal(
 *   (mcpUndoHint(envelope, writeTool) as { message: string }).message,
 *   'wrote 1 file(s); undo with write {"undo": "0b7c6a1e-5f0e-4c3e-9a57-2b8f2f0d7c11"}',
 * );
 * ```
 */
export function mcpUndoHint(envelope: Envelope, tool: Tool): Envelope {
  if (!("message" in envelope) || !("undo" in tool.input.shape)) return envelope;
  const message = envelope.message.replace(CLI_UNDO, `${tool.mcpName} {"undo": "$1"}`);
  return message === envelope.message ? envelope : { ...envelope, message };
}
