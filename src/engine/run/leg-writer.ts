import type { EventBody } from "../../events/schema.js";
import type { EngineLogger } from "../deps.js";
import { endedNode, type GraphWrite } from "../graph-writes.js";
import type { Session } from "../session.js";
import { UnsettledUsage, unsettledRecord } from "../unsettled-usage.js";

/**
 * The graph's writer for one leg: what the nodes and routers write becomes events, and the thread's row follows the
 * running node and keeps its unsettled usage (a kill -9 loses no paid call: settleKilledUsage counts them on resume).
 */
export function legWriter(threads: Session["threads"], threadId: string, logger: EngineLogger, emit: (e: EventBody) => void) {
  // Usage of calls whose node has not completed: settled into the checkpoint if the run stops mid-node.
  const unsettled = new UnsettledUsage();
  let kept = false; // whether the row holds unsettled usage now
  let startedAtStep = 0; // the thread's steps when the running node started
  // Row writes stay in order (a pool may run concurrent queries on different connections); they are queued, never
  // awaited, by the graph's writer, which runs inside the nodes.
  let written: Promise<void> = Promise.resolve();
  const queueRowWrite = (write: () => Promise<unknown>) => {
    written = written.then(write).then(
      () => {},
      (err: unknown) => logger.warn({ err, threadId }, "could not update the thread row"),
    );
  };
  // Progress notes: unsynced on SQLite (see UpdateOptions), and a node already in the row is not written again.
  // A completed node's unsettled usage is cleared with the next node's name, one write instead of two: until then
  // the record names a step the checkpoint has passed, which settleKilledUsage ignores (leftUnsettled).
  let rowNode: string | null = null;
  let clearUsage = false;
  const setNode = (node: string, started: boolean) => {
    if (node === rowNode && !(started && clearUsage)) return;
    rowNode = node;
    const patch = clearUsage ? { currentNode: node, unsettledUsage: null } : { currentNode: node };
    clearUsage = false;
    queueRowWrite(() => threads.update(threadId, patch, { progress: true }));
  };
  // Nothing written once the graph's run ended is said (a parallel story still winding down after another one failed).
  let running = true;
  const onWrite = (write: GraphWrite) => {
    if (!running) return;
    const ended = endedNode(write);
    if (ended !== undefined) return setNode(ended, false);
    const event = write as EventBody;
    if (event.type === "node.started") {
      setNode(event.node, true);
      startedAtStep = event.step ?? startedAtStep;
    }
    unsettled.observe(event);
    if (event.type === "usage" || (event.type === "node.completed" && kept)) {
      // The running node's paid calls, kept in the row with the step it started at. Cleared once no node has unsettled calls.
      const record = unsettledRecord(startedAtStep, unsettled.peek());
      kept = record !== null;
      clearUsage = record === null && event.type === "node.completed";
      if (!clearUsage) queueRowWrite(() => threads.update(threadId, { unsettledUsage: record }, { progress: true }));
    }
    emit(event);
  };
  return {
    onWrite,
    /** The graph's run ended: later writes are not said. */
    stop() {
      running = false;
    },
    /** The leg ran to its end: a usage record still to clear is cleared; resolves once every row write is done. */
    async finish(): Promise<void> {
      if (clearUsage) queueRowWrite(() => threads.update(threadId, { unsettledUsage: null }, { progress: true }));
      await written;
    },
    /** The leg stopped: resolves once the row writes queued so far are done, with the usage left unsettled. */
    async stopped() {
      await written;
      return unsettled.take();
    },
  };
}
