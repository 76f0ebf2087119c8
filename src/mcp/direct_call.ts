/**
 * The common MCP request, one `tools/call` JSON-RPC request in a POST,
 * answered without building an SDK server and transport for it: the same
 * tool code ({@link callTool}), the answer's rows serialized once (the
 * structured content's JSON text is also the text content), and no schema
 * pass over the result. Every other request (initialize, tools/list,
 * notifications, batches, text that is not JSON or with headers the transport
 * would refuse) goes to the SDK's transport unchanged, which answers it as
 * before; valid JSON that is not a JSON-RPC message is answered here with
 * -32600; test/mcp/protocol.test.ts compares both answers.
 * @module
 */
import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import type { Principal } from "../access/principal.ts";
import { callTool, type McpServerOptions } from "./server.ts";

/** A request the SDK transport answers, when {@link directToolCall} does not. */
export interface Deferred {
  /** The request to hand to the transport (its body re-attached when it was read). */
  request: Request;
  /** The body's text, when it was read here. */
  text?: string;
}

/** JSON-RPC "Internal error", for a thrown error without a code. */
const INTERNAL_ERROR = -32603;

/** JSON-RPC "Invalid Request": valid JSON that is not a request, notification or response. */
const INVALID_REQUEST = -32600;

function plainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The transport's own header checks, passed (anything else is left to it, and to its answers). */
function headersPass(request: Request): boolean {
  const accept = request.headers.get("accept") ?? "";
  if (!accept.includes("application/json") || !accept.includes("text/event-stream")) return false;
  const type = (request.headers.get("content-type") ?? "").toLowerCase().replace(/\s+/g, "");
  if (type !== "application/json" && type !== "application/json;charset=utf-8") return false;
  const version = request.headers.get("mcp-protocol-version");
  return version === null || SUPPORTED_PROTOCOL_VERSIONS.includes(version);
}

function validId(id: unknown): id is string | number {
  return typeof id === "string" || (typeof id === "number" && Number.isFinite(id));
}

/** Whether a parsed value is one JSON-RPC 2.0 message: a request or notification (a method), or a response (an id with a result or an error). */
function isMessage(value: unknown): boolean {
  if (!plainObject(value) || value.jsonrpc !== "2.0") return false;
  if ("id" in value && value.id !== null && !validId(value.id)) return false;
  if (typeof value.method === "string") return true;
  return "id" in value && ("result" in value || "error" in value);
}

/**
 * The 400 answer to valid JSON that is not a JSON-RPC message nor a non-empty
 * batch of them (the SDK's transport calls any body it cannot read a parse
 * error, -32700; JSON-RPC 2.0 names this case -32600), or null.
 */
function invalidRequest(parsed: unknown): Response | null {
  if (Array.isArray(parsed) ? parsed.length > 0 && parsed.every(isMessage) : isMessage(parsed)) return null;
  const id = plainObject(parsed) && validId(parsed.id) ? parsed.id : null;
  const message = Array.isArray(parsed)
    ? "Invalid Request: a batch must be a non-empty array of JSON-RPC 2.0 messages"
    : 'Invalid Request: the body is JSON but not a JSON-RPC 2.0 message; send {"jsonrpc":"2.0","id":1,"method":"tools/list"} or a tools/call with params {name, arguments}';
  return new Response(JSON.stringify({ jsonrpc: "2.0", id, error: { code: INVALID_REQUEST, message } }), {
    status: 400,
    headers: { "content-type": "application/json" },
  });
}

/** One `tools/call` request with a valid id, a tool name and object arguments, or null. */
function toolCallOf(message: unknown): { id: string | number; name: string; args: unknown } | null {
  if (!plainObject(message) || message.jsonrpc !== "2.0" || message.method !== "tools/call") return null;
  const id = message.id;
  if (typeof id !== "string" && !Number.isSafeInteger(id)) return null;
  if (Object.keys(message).some((key) => key !== "jsonrpc" && key !== "method" && key !== "id" && key !== "params")) return null;
  const params = message.params;
  if (!plainObject(params) || typeof params.name !== "string") return null;
  if (Object.keys(params).some((key) => key !== "name" && key !== "arguments")) return null;
  if (params.arguments !== undefined && !plainObject(params.arguments)) return null;
  return { id: id as string | number, name: params.name, args: params.arguments };
}

/**
 * How many JSON-RPC messages a body holds beyond the first: the items of a
 * batch (an array) that name a method; 0 for one message or text that does
 * not parse (the transport answers it with an error).
 */
export function extraMessages(text: string | undefined): number {
  if (text === undefined || !text.trimStart().startsWith("[")) return 0;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return 0;
  }
  if (!Array.isArray(parsed)) return 0;
  const messages = parsed.filter((m) => plainObject(m) && typeof m.method === "string").length;
  return Math.max(0, messages - 1);
}

/**
 * Answers a POST holding one `tools/call` request of `principal` (after the
 * caller was resolved), or returns the request for the SDK transport.
 */
export async function directToolCall(request: Request, principal: Principal, options: McpServerOptions & { maxBodyBytes: number }): Promise<Response | Deferred> {
  if (request.method !== "POST" || !headersPass(request)) return { request };
  const text = await request.text();
  const again = () => ({ request: new Request(request, { body: text }), text });
  // the transport measures bytes; a UTF-16 length past a third of the limit may be over it
  if (text.length * 3 > options.maxBodyBytes) return again();
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return again();
  }
  const invalid = invalidRequest(message);
  if (invalid) return invalid;
  const call = toolCallOf(message);
  if (!call) return again();
  const id = JSON.stringify(call.id);
  let body: string;
  try {
    const answer = await callTool(principal, call.name, call.args, options);
    body = answer.json === undefined
      ? `{"result":${JSON.stringify(answer.result)},"jsonrpc":"2.0","id":${id}}`
      : `{"result":{"content":[{"type":"text","text":${JSON.stringify(answer.json)}}],"structuredContent":${answer.json}},"jsonrpc":"2.0","id":${id}}`;
  } catch (error) {
    const code = (error as { code?: unknown })?.code;
    const rpcError = {
      code: Number.isSafeInteger(code) ? code : INTERNAL_ERROR,
      message: (error as Error)?.message ?? "Internal error",
    };
    body = `{"jsonrpc":"2.0","id":${id},"error":${JSON.stringify(rpcError)}}`;
  }
  return new Response(body, { status: 200, headers: { "content-type": "application/json" } });
}
