/**
 * Discovery documents name the service's origin. Without PUBLIC_URL that
 * origin is the request's own (`Host`, and `X-Forwarded-Host` with
 * TRUST_PROXY), which a shared cache does not key on, so such a document may
 * be kept by the client only (`private`): a cache in front of the service must
 * never hand one client the endpoints another request named.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestService, type TestService } from "../helpers/service.ts";

let proxied: TestService;
let fixed: TestService;
beforeAll(async () => {
  proxied = await startTestService({ TRUST_PROXY: "true" });
  fixed = await startTestService({ TRUST_PROXY: "true", PUBLIC_URL: "https://data.example.com" });
  for (const s of [proxied, fixed]) {
    await s.service.db.sql`INSERT INTO organizations (name) VALUES ('acme')`;
  }
}, 60_000);
afterAll(async () => {
  await proxied?.close();
  await fixed?.close();
});

const DOCUMENTS = ["/.well-known/oauth-authorization-server", "/.well-known/oauth-protected-resource/mcp/acme", "/.well-known/oauth-protected-resource/mcp/acme/workspace/team"];

describe("discovery documents and their caching", () => {
  test("without PUBLIC_URL: a forwarded host shows in the document, which no shared cache may keep", async () => {
    for (const path of DOCUMENTS) {
      const variants: Record<string, string>[] = [{ "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" }, { host: "evil.example" }, {}];
      for (const headers of variants) {
        const r = await proxied.call("GET", path, { headers });
        expect(r.status).toBe(200);
        const cache = r.headers.get("cache-control") ?? "";
        expect([path, cache]).toEqual([path, "private, max-age=300"]);
      }
    }
    // (what the document says follows the request, as documented: PUBLIC_URL fixes it)
    const forged = await proxied.call("GET", DOCUMENTS[0]!, { headers: { "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" } });
    expect(forged.body.authorization_endpoint).toBe("https://evil.example/oauth/authorize");
  });

  test("with PUBLIC_URL: the request names nothing, and the document is publicly cacheable", async () => {
    for (const path of DOCUMENTS) {
      const r = await fixed.call("GET", path, { headers: { "x-forwarded-host": "evil.example", host: "evil.example" } });
      expect(r.status).toBe(200);
      expect(r.headers.get("cache-control")).toBe("public, max-age=300");
      expect(JSON.stringify(r.body)).not.toContain("evil");
      expect(JSON.stringify(r.body)).toContain("https://data.example.com");
    }
  });
});
