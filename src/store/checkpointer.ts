import type { RunnableConfig } from "@langchain/core/runnables";
import type { Checkpoint, CheckpointMetadata, DeltaChannelHistory, PendingWrite } from "@langchain/langgraph-checkpoint";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import type { Database } from "./db.js";
import { assertDatabaseFileKept } from "./db-identity.js";
import { sqliteDeltaChannelHistory } from "./delta-history.js";
import { checkpointSerde } from "./serde.js";

export { scrubbingSerde } from "./serde.js";

/**
 * SqliteSaver with a cheaper walk for delta channels (see delta-history.ts), and a check before every write that the
 * database file is still the one opened: SQLite writes on into a deleted file, so `rm -rf .yolo` mid-run would
 * otherwise lose every checkpoint without a word. The run stops at its next step with a "storage" error.
 */
class YoloSqliteSaver extends SqliteSaver {
  override async put(config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata): Promise<RunnableConfig> {
    assertDatabaseFileKept((this.db as unknown as Database).name);
    return super.put(config, checkpoint, metadata);
  }

  override async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string): Promise<void> {
    assertDatabaseFileKept((this.db as unknown as Database).name);
    return super.putWrites(config, writes, taskId);
  }

  override async getDeltaChannelHistory(options: { config: RunnableConfig; channels: string[] }): Promise<Record<string, DeltaChannelHistory>> {
    this.setup();
    return (await sqliteDeltaChannelHistory(this.db as unknown as Database, this.serde, options)) ?? (await super.getDeltaChannelHistory(options));
  }
}

/** LangGraph's SQLite checkpointer on an already opened (WAL, checked) database, sharing it with the thread index. */
export function createCheckpointer(db: Database): SqliteSaver {
  return new YoloSqliteSaver(db as ConstructorParameters<typeof SqliteSaver>[0], checkpointSerde());
}
