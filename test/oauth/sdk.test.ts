import { afterAll, beforeAll, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { startTestService, type TestService } from "../helpers/service.ts";
import { createOrgWithKey, serveOnLoopback, type Served } from "../helpers/mcp.ts";
import { loadForm, REDIRECT_URI, submitForm } from "../helpers/oauth.ts";

let s: TestService;
let served: Served;
const PASSWORD = "pw-olivia-secret";

beforeAll(async () => {
  s = await startTestService();
  served = serveOnLoopback(s.service.handle);
  const acme = await createOrgWithKey(s.service.db.sql, "acme");
  await s.createUser("olivia");
  const [u] = await s.service.db.sql`SELECT id FROM users WHERE user_name = 'olivia'`;
  await s.service.db.sql`INSERT INTO grants (resource_kind, resource_id, principal_kind, principal_id, role)
    VALUES ('organization', ${acme.orgId}, 'user', ${u!.id as string}, 'member')`;
}, 60_000);
afterAll(async () => {
  served?.stop();
  await s?.close();
}, 120_000);

/** An in-memory provider whose "browser" signs olivia in and consents, keeping the code it is sent back. */
function memoryProvider(base: string) {
  let info: OAuthClientInformationMixed | undefined;
  let tokens: OAuthTokens | undefined;
  let verifier = "";
  const state = { code: undefined as string | undefined, resource: undefined as string | null | undefined };
  const provider: OAuthClientProvider = {
    get redirectUrl() {
      return REDIRECT_URI;
    },
    get clientMetadata(): OAuthClientMetadata {
      return { client_name: "sdk test", redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: "none", grant_types: ["authorization_code", "refresh_token"] };
    },
    clientInformation: () => info,
    saveClientInformation: (i) => void (info = i),
    tokens: () => tokens,
    saveTokens: (t) => void (tokens = t),
    saveCodeVerifier: (v) => void (verifier = v),
    codeVerifier: () => verifier,
    async redirectToAuthorization(url: URL) {
      state.resource = url.searchParams.get("resource");
      const form = await loadForm(url);
      const r = await submitForm(base, form, { userName: "olivia", password: PASSWORD });
      state.code = new URL(r.headers.get("location")!).searchParams.get("code") ?? undefined;
    },
  };
  return { provider, state, tokens: () => tokens };
}

test("the SDK's own OAuth client: discovery, registration, authorization, token exchange, tools", async () => {
  const { provider, state, tokens } = memoryProvider(served.url);
  const url = new URL(`${served.url}/mcp/acme`);
  const first = new StreamableHTTPClientTransport(url, { authProvider: provider });
  const client = new Client({ name: "sdk-oauth", version: "1.0.0" });
  const error = await client.connect(first).then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(UnauthorizedError);
  expect(state.resource).toBe(url.toString());
  expect(state.code).toBeTruthy();
  await first.finishAuth(state.code!);
  expect(tokens()?.refresh_token).toBeTruthy();

  const connected = new Client({ name: "sdk-oauth", version: "1.0.0" });
  await connected.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
  expect((await connected.listTools()).tools.map((t) => t.name).sort()).toEqual(["execute_query", "get_context"]);
  await connected.close();
});
