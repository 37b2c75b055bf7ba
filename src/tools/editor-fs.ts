import fs from "node:fs/promises";
import { connect } from "node:net";
import { dirname } from "node:path";
import { assertStillInside, writeFileAtomic } from "./atomic-write.js";

/**
 * The environment variable that hands a run the editor's file system: `{"socket": <path>, "session": <id>}`, set by
 * `yolo acp` for a child run when the editor offers `fs/read_text_file` and `fs/write_text_file`. The file tools then
 * read the editor's buffers (unsaved changes included) and write through the editor, so its undo and dirty markers
 * follow the agents' edits. The tools make every path check first; the editor only replaces where the bytes come from.
 */
export const EDITOR_FS_ENV = "YOLO_EDITOR_FS";

/** An editor's file system, by absolute path. */
export interface EditorFs {
  read(abs: string): Promise<string>;
  write(abs: string, content: string): Promise<void>;
}

/** The editor's file system the run was given, or null (the usual case: the disk alone). */
export function editorFsOf(env: NodeJS.ProcessEnv): EditorFs | null {
  const given = env[EDITOR_FS_ENV];
  if (!given) return null;
  let door: { socket?: unknown; session?: unknown };
  try {
    door = JSON.parse(given) as typeof door;
  } catch {
    return null;
  }
  if (typeof door.socket !== "string" || typeof door.session !== "string") return null;
  const { socket, session } = door;
  return {
    read: async (abs) => (await ask(socket, { session, fs: "read", path: abs })).content ?? "",
    write: async (abs, content) => void (await ask(socket, { session, fs: "write", path: abs, content })),
  };
}

/**
 * Writes a file the tools checked: through the editor where there is one, then on disk if the editor left the disk
 * different (one that only changed its buffer): the sandbox, the gates and git read the disk. An editor that fails
 * leaves the write to the disk alone.
 */
export async function writeChecked(editor: EditorFs | null, abs: string, content: string, mode: number | undefined, root: string): Promise<void> {
  if (editor) {
    await assertStillInside(root, dirname(abs));
    const written = await editor.write(abs, content).then(
      () => true,
      () => false,
    );
    if (written && (await fs.readFile(abs, "utf8").catch(() => null)) === content) return;
  }
  await writeFileAtomic(abs, content, mode, root);
}

/** A file's text as the editor has it, or null when the editor has none to give (the disk is read then). */
export async function editorText(editor: EditorFs | null, abs: string): Promise<string | null> {
  if (!editor) return null;
  return editor.read(abs).catch(() => null);
}

// One request over the door's socket: a JSON line out, a JSON line back.
function ask(socket: string, request: object): Promise<{ content?: string }> {
  return new Promise((resolve, reject) => {
    const conn = connect(socket);
    let got = "";
    conn.setEncoding("utf8");
    conn.on("data", (chunk: string) => (got += chunk));
    conn.on("error", reject);
    conn.on("end", () => {
      try {
        const answer = JSON.parse(got) as { ok?: boolean; content?: string; error?: string };
        if (answer.ok) resolve(answer);
        else reject(new Error(answer.error ?? "the editor refused"));
      } catch (error) {
        reject(error);
      }
    });
    conn.write(`${JSON.stringify(request)}\n`);
  });
}
