/**
 * One request to an OpenAI-compatible chat-completions endpoint
 * (`{baseUrl}/chat/completions`) that answers JSON: the phrase splitter and
 * the candidate pick of `get_context` use it. Every failure throws an Error
 * saying what went wrong; callers fall back to their local path.
 *
 * @module
 */

/** Where and how to ask. */
export interface ChatOptions {
  /** Base URL up to the API version, e.g. `http://127.0.0.1:11434/v1`. */
  baseUrl: string;
  /** Model name sent with the request, if any. */
  model?: string;
  /** Sent as `Authorization: Bearer ...` when set. */
  apiKey?: string;
  /** Longest wait, ms. */
  timeoutMs: number;
}

/**
 * Sends a system and a user message (temperature 0, JSON answers asked for)
 * and returns the parsed JSON of the answer's `choices[0].message.content`
 * (a fenced code block is accepted).
 *
 * @example
 * const json = await askChatJson({ baseUrl: "http://127.0.0.1:11434/v1", timeoutMs: 5000 }, { system: "...", user: "..." });
 */
export async function askChatJson(options: ChatOptions, messages: { system: string; user: string }): Promise<unknown> {
  const headers = new Headers({ "content-type": "application/json", accept: "application/json" });
  if (options.apiKey) headers.set("authorization", `Bearer ${options.apiKey}`);
  const body = {
    ...(options.model ? { model: options.model } : {}),
    temperature: 0,
    response_format: { type: "json_object" },
    messages: [
      { role: "system", content: messages.system },
      { role: "user", content: messages.user },
    ],
  };
  const url = `${options.baseUrl.replace(/\/+$/, "")}/chat/completions`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers,
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(options.timeoutMs),
    });
  } catch (error) {
    if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
      throw new Error(`language model at ${url} did not answer within ${options.timeoutMs} ms`);
    }
    throw new Error(`language model at ${url} unreachable: ${error instanceof Error ? error.message : error}`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`language model at ${url} answered HTTP ${response.status}`);
  }
  let completion: unknown;
  try {
    completion = await response.json();
  } catch {
    throw new Error(`language model at ${url} answered with a body that is not JSON`);
  }
  const content = (completion as { choices?: { message?: { content?: unknown } }[] })?.choices?.[0]?.message?.content;
  if (typeof content !== "string") throw new Error("language model answer has no choices[0].message.content");
  const unfenced = content.trim().replace(/^```(?:json)?\s*/i, "").replace(/\s*```$/, "");
  try {
    return JSON.parse(unfenced);
  } catch {
    throw new Error("language model content is not JSON");
  }
}
