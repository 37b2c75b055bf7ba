import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** The program of the wheel `pipxWheel` writes. */
export const PIPX_APP = "yolo-notes-mcp";

/**
 * A minimal stdio MCP server in plain Python (initialize, tools/list with two tools), packed as a wheel by python3's
 * own zipfile (no build tool, no network): what a `pipx run --spec <wheel> yolo-notes-mcp` server runs.
 */
export function pipxWheel(dir: string): string {
  const wheel = join(dir, "yolo_notes_mcp-1.0-py3-none-any.whl");
  const script = `
import base64, hashlib, sys, zipfile
server = '''import json, sys
TOOLS = [{"name": n, "description": n, "inputSchema": {"type": "object"}} for n in ("read_note", "write_note")]
def main():
    for line in sys.stdin:
        m = json.loads(line)
        if m.get("method") == "initialize":
            r = {"protocolVersion": m["params"]["protocolVersion"], "capabilities": {"tools": {}}, "serverInfo": {"name": "notes", "version": "1"}}
        elif m.get("method") == "tools/list":
            r = {"tools": TOOLS}
        elif "id" in m:
            r = {"content": [{"type": "text", "text": "ok"}]}
        else:
            continue
        sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": m["id"], "result": r}) + "\\\\n")
        sys.stdout.flush()
'''
files = {
    "yolo_notes_mcp/__init__.py": server,
    "yolo_notes_mcp-1.0.dist-info/METADATA": "Metadata-Version: 2.1\\nName: yolo-notes-mcp\\nVersion: 1.0\\n",
    "yolo_notes_mcp-1.0.dist-info/WHEEL": "Wheel-Version: 1.0\\nGenerator: yolo-test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n",
    "yolo_notes_mcp-1.0.dist-info/entry_points.txt": "[console_scripts]\\n${PIPX_APP} = yolo_notes_mcp:main\\n",
}
record = []
with zipfile.ZipFile(sys.argv[1], "w") as z:
    for path, text in files.items():
        z.writestr(path, text)
        digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()
        record.append(f"{path},sha256={digest},{len(text.encode())}")
    record.append("yolo_notes_mcp-1.0.dist-info/RECORD,,")
    z.writestr("yolo_notes_mcp-1.0.dist-info/RECORD", "\\n".join(record) + "\\n")
`;
  writeFileSync(join(dir, "make-wheel.py"), script);
  execFileSync("python3", [join(dir, "make-wheel.py"), wheel], { stdio: "pipe" });
  return wheel;
}

/**
 * Runs `pipx run yolo-notes-mcp` once with `home` as HOME, as a user who tried the server before would have: pipx makes
 * its cached virtualenv under `home`. The package comes from the wheel's folder instead of an index (PIP_FIND_LINKS,
 * PIP_NO_INDEX: no network, and pipx's attempt to upgrade its shared pip fails at once instead of after its retries),
 * so the cache records it by name, as one from PyPI. The server ends at end of input.
 */
export function primePipxCache(home: string, wheel: string): void {
  const env = { ...process.env, HOME: home, PIP_NO_INDEX: "1", PIP_FIND_LINKS: dirname(wheel) };
  execFileSync("pipx", ["run", PIPX_APP], { env, input: "", stdio: "pipe", timeout: 120_000 });
}
