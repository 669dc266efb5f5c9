/**
 * Call worker of the MCP server: runs the registry's tools, one call at a time, with its own
 * warm cache, and posts each call's envelope back. To stop a call the server raises the call's
 * shared abort flag and terminates the worker: the flag is what stops synchronous work, since a
 * busy worker reads no messages and Deno 2.9 ends a terminated worker only when its thread
 * returns to the event loop; engines check the run's signal between files, and this worker's
 * signal reads the flag each time it is checked.
 *
 * @module
 */
import { failureOutcome } from "../../core/failure.ts";
import type { Envelope } from "../../schema/envelope.ts";
import { markChanged } from "../../core/trigram/live.ts";
import { mcpTool } from "./surface.ts";
import { type CallMessage, type CallReply, flagSignal, warmCache } from "./call_protocol.ts";

/** The parts of a worker's global scope this module uses (typed here, not via a lib directive). */
interface WorkerScope {
  onmessage: ((event: MessageEvent<CallMessage>) => void) | null;
  postMessage(message: CallReply): void;
  close(): void;
}

const scope = globalThis as unknown as WorkerScope;
const cache = warmCache();

async function runCall(message: Extract<CallMessage, { type: "call" }>): Promise<Envelope> {
  const tool = mcpTool(message.tool);
  if (!tool) throw new Error(`call worker: no tool '${message.tool}' in the registry`);
  const context = {
    executionId: message.executionId,
    cwd: message.cwd,
    cache,
    signal: flagSignal(new Int32Array(message.abortFlag)),
    ...(message.deadline === undefined ? {} : { deadline: message.deadline }),
  };
  try {
    return (await tool.execute(message.input, context)).envelope;
  } catch (thrown) {
    return failureOutcome(tool, thrown, message.executionId, message.debug).envelope;
  }
}

scope.onmessage = async (event: MessageEvent<CallMessage>) => {
  const message = event.data;
  if (message.type === "close") {
    // Open index databases and their file watchers are released before the worker ends.
    cache.close();
    scope.close();
    return;
  }
  if (message.type === "invalidate") {
    if (!message.paths.length) cache.invalidate();
    for (const path of message.paths) cache.invalidate(path);
    // The repository index marks them changed before its watcher reports them.
    markChanged(message.paths);
    return;
  }
  scope.postMessage({ envelope: await runCall(message) });
};
