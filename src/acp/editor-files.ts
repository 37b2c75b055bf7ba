import { isAbsolute, relative } from "node:path";
import type { FileSystemCapabilities } from "@agentclientprotocol/sdk";
import type { EditorFsRequest } from "./permission-door.js";
import type { AcpSession } from "./prompt-turn.js";

/**
 * A file tool's read or write of a session's run, done by the editor (`fs/read_text_file`, `fs/write_text_file`) when
 * it offered that at initialize. The tool checked the path already (the same checks as without an editor); this
 * checks again that it is inside the session's folder, since the socket is a second way in. A read gives the
 * buffer's text; a throw makes the tool use the disk.
 */
export async function editorFile(session: AcpSession | undefined, offered: FileSystemCapabilities, r: EditorFsRequest): Promise<string | undefined> {
  if (!session?.client) throw new Error(`no editor is attached to session ${r.sessionId}`);
  const rel = relative(session.cwd, r.path);
  if (!isAbsolute(r.path) || rel === ".." || rel.startsWith("../") || isAbsolute(rel)) throw new Error(`${r.path} is not in the session's folder`);
  if (r.op === "read") {
    if (!offered.readTextFile) throw new Error("the editor does not read files");
    return (await session.client.request("fs/read_text_file", { sessionId: session.id, path: r.path })).content;
  }
  if (!offered.writeTextFile || r.content === undefined) throw new Error("the editor does not write files");
  await session.client.request("fs/write_text_file", { sessionId: session.id, path: r.path, content: r.content });
  return undefined;
}
