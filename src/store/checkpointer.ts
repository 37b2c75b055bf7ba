import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import type { Database } from "./db.js";
import { checkpointSerde } from "./serde.js";

export { scrubbingSerde } from "./serde.js";

/** LangGraph's SQLite checkpointer on an already opened (WAL, checked) database, sharing it with the thread index. */
export function createCheckpointer(db: Database): SqliteSaver {
  return new SqliteSaver(db as ConstructorParameters<typeof SqliteSaver>[0], checkpointSerde());
}
