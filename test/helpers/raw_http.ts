/**
 * One HTTP/1.1 request sent over a socket exactly as written: no client
 * normalizes the request target (`/a/%2e%2e/b` reaches the server as is).
 * @module
 */
import { connect } from "node:net";

/** Status and body (de-chunked) of a raw answer. */
export interface RawAnswer {
  status: number;
  body: string;
}

/**
 * Sends `lines` (the request line first, then headers) and `body` (with its
 * `Content-Length`) to 127.0.0.1:`port`, with `Connection: close`, and reads
 * the answer to its end.
 *
 * @example
 * await rawRequest(port, ["GET /a/%2e%2e/b HTTP/1.1", "Host: localhost"]);
 */
export function rawRequest(port: number, lines: string[], body = ""): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => {
      const head = [...lines, "Connection: close", ...(body ? [`Content-Length: ${Buffer.byteLength(body)}`] : [])];
      socket.write(head.join("\r\n") + "\r\n\r\n" + body);
    });
    let data = "";
    socket.on("data", (chunk) => (data += chunk.toString("latin1")));
    socket.on("end", () => {
      const head = data.slice(0, data.indexOf("\r\n\r\n"));
      let text = data.slice(head.length + 4);
      if (/^transfer-encoding: *chunked/im.test(head)) text = dechunk(text);
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0), body: text });
    });
    socket.on("error", reject);
  });
}

/** The body of a `Transfer-Encoding: chunked` answer. */
function dechunk(text: string): string {
  let out = "";
  let at = 0;
  for (;;) {
    const eol = text.indexOf("\r\n", at);
    const size = parseInt(text.slice(at, eol), 16);
    if (!size) return out;
    out += text.slice(eol + 2, eol + 2 + size);
    at = eol + 2 + size + 2;
  }
}
