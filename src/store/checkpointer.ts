import type { RunnableConfig } from "@langchain/core/runnables";
import type { DeltaChannelHistory } from "@langchain/langgraph-checkpoint";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import type { Database } from "./db.js";
import { sqliteDeltaChannelHistory } from "./delta-history.js";
import { checkpointSerde } from "./serde.js";

export { scrubbingSerde } from "./serde.js";

/** SqliteSaver with a cheaper walk for delta channels (see delta-history.ts); everything else is LangGraph's own. */
class YoloSqliteSaver extends SqliteSaver {
  override async getDeltaChannelHistory(options: { config: RunnableConfig; channels: string[] }): Promise<Record<string, DeltaChannelHistory>> {
    this.setup();
    return (await sqliteDeltaChannelHistory(this.db as unknown as Database, this.serde, options)) ?? (await super.getDeltaChannelHistory(options));
  }
}

/** LangGraph's SQLite checkpointer on an already opened (WAL, checked) database, sharing it with the thread index. */
export function createCheckpointer(db: Database): SqliteSaver {
  return new YoloSqliteSaver(db as ConstructorParameters<typeof SqliteSaver>[0], checkpointSerde());
}
