import { leftUnsettled, settleUsage } from "../unsettled-usage.js";
import type { RunOptions } from "./options.js";

/** On resume: adds what a killed process had paid for in a node that never completed to the latest checkpoint. */
export async function settleKilledUsage(options: Pick<RunOptions, "session" | "threadId" | "deps">): Promise<void> {
  const { session, threadId, deps } = options;
  const row = await session.threads.get(threadId);
  if (!row?.unsettledUsage) return;
  const latest = await session.checkpointer.getTuple({ configurable: { thread_id: threadId } });
  const saved = {
    steps: Number((latest?.checkpoint.channel_values as { steps?: unknown } | undefined)?.steps ?? 0),
    pendingNodes: new Set(
      (latest?.pendingWrites ?? []).filter(([, channel]) => channel === "usageByNode").flatMap(([, , value]) => Object.keys((value as object) ?? {})),
    ),
    pendingStories: new Set(
      (latest?.pendingWrites ?? []).filter(([, channel]) => channel === "storyRuns").flatMap(([, , value]) => Object.keys((value as object) ?? {})),
    ),
  };
  const byNode = latest ? leftUnsettled(row.unsettledUsage, saved) : null;
  if (byNode) {
    await settleUsage(session.checkpointer, threadId, byNode);
    deps.logger.info({ threadId, byNode }, "counted the usage of a node whose process was killed");
  }
  await session.threads.update(threadId, { unsettledUsage: null });
}

/** Settles the usage of the node a stopped run was in, and clears the row's record of it; a failure is logged. */
export async function settleStoppedUsage(options: Pick<RunOptions, "session" | "threadId" | "deps">, byNode: Parameters<typeof settleUsage>[2]): Promise<void> {
  const { session, threadId, deps } = options;
  await settleUsage(session.checkpointer, threadId, byNode)
    .then(() => session.threads.update(threadId, { unsettledUsage: null }))
    .catch((err: unknown) => deps.logger.error({ err }, "could not record the usage of the stopped node"));
}
