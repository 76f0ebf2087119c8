/**
 * An open event stream ends with the credential that opened it: a deleted or
 * expired API key, an access token revoked by a password reset or expired,
 * an app token sent in `Authorization` whose user changed password or which
 * expired. Each stream gets `revoked` at the next event and never that event;
 * a stream whose credential still stands gets it (the control).
 */
import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from "bun:test";
import { rm } from "node:fs/promises";
import { listenerCount } from "../../src/events/hub.ts";
import { ADMIN_PASSWORD } from "../helpers/service.ts";
import { API, publish, startWorld, type World } from "../packages/helpers.ts";
import { eventually, openEvents, type SseClient, serve } from "./helpers.ts";

setDefaultTimeout(60_000);

/** Access tokens and app tokens live 3 s here, so their expiry can be waited for. */
const TTL_S = 3;

let w: World;
let origin: string;
let stop: () => void;
let version = 0;
const O = `${API}/organizations/acme`;
const P = `${O}/environments/prod/packages/flights`;

/** A fresh access token of the system admin (they expire after TTL_S). */
function admin(): Promise<string> {
  return w.s.login("admin", ADMIN_PASSWORD);
}

/** A new environment viewer and its access token (userWith signs in as the admin once, and that token expires here). */
async function viewer(userName: string): Promise<string> {
  const body = { userName, email: `${userName}@example.com`, password: `pw-${userName}-secret` };
  expect((await w.s.call("POST", `${API}/users`, { token: await admin(), body })).status).toBe(201);
  await w.s.service.db.sql`INSERT INTO grants (resource_kind, resource_id, principal_kind, principal_id, role)
    SELECT 'environment', ${w.envId}, 'user', id, 'viewer' FROM users WHERE user_name = ${userName}`;
  return await w.s.login(userName, body.password);
}

/** Publishes the next version, which emits `published` on every open stream. */
async function publishNext(): Promise<string> {
  const id = `1.0.${++version}`;
  expect((await publish(w, "flights", id, { token: await admin() })).status).toBe(201);
  return id;
}

/** A stream opened with `authorization`, past its `ready`. */
async function stream(authorization: string): Promise<SseClient> {
  const events = await openEvents(`${origin}${P}/events`, { headers: { authorization } });
  expect(events.status).toBe(200);
  await events.next("ready");
  return events;
}

/** The stream gets `revoked` instead of the next event, and ends. */
async function endsAtNextEvent(events: SseClient): Promise<void> {
  const control = await stream(`Bearer ${await w.s.login("steady", "pw-steady-secret")}`);
  const id = await publishNext();
  // a caller whose credential stands gets the event: the publish did reach open streams
  expect((await control.next("published")).data.versionId).toBe(id);
  control.close();
  expect((await events.next("revoked")).data.package).toBe("flights");
  expect(events.pending().some((e) => e.event === "published")).toBe(false);
  events.close();
}

beforeAll(async () => {
  w = await startWorld({ INDEX_ON_PUBLISH: "false", JWT_TTL_SECONDS: String(TTL_S), APP_TOKEN_TTL_S: String(TTL_S) });
  ({ origin, stop } = serve(w));
  await publishNext();
  await viewer("steady");
  const token = await admin();
  expect((await w.s.call("POST", `${O}/groups`, { token, body: { name: "bots" } })).status).toBe(201);
  expect((await w.s.call("POST", `${O}/environments/prod/permissions`, { token, body: { userGroupId: "group:bots", permission: "viewer" } })).status).toBe(201);
}, 120_000);

afterAll(async () => {
  stop();
  await w.s.close();
  await rm(w.dataDir, { recursive: true, force: true });
}, 120_000);

describe("an event stream ends with its credential", () => {
  test("an API key deleted while its stream is open", async () => {
    const key = await w.s.call("POST", `${O}/groups/bots/tokens?name=deleted`, { token: await admin() });
    expect(key.status).toBe(201);
    const events = await stream(`ApiKey ${key.body.secret}`);
    expect((await w.s.call("DELETE", `${O}/groups/bots/tokens/deleted`, { token: await admin() })).status).toBe(204);
    await endsAtNextEvent(events);
  });

  test("an API key that expires while its stream is open", async () => {
    const expiresAt = new Date(Date.now() + 2_000).toISOString();
    const key = await w.s.call("POST", `${O}/groups/bots/tokens?name=expiring&expiresAt=${encodeURIComponent(expiresAt)}`, { token: await admin() });
    expect(key.status).toBe(201);
    const events = await stream(`ApiKey ${key.body.secret}`);
    await Bun.sleep(2_500);
    await endsAtNextEvent(events);
  });

  test("an access token revoked by a password reset", async () => {
    const token = await viewer("reset");
    const events = await stream(`Bearer ${token}`);
    expect((await w.s.call("PATCH", `${API}/users/reset`, { token: await admin(), body: { password: "a-new-password-for-reset" } })).status).toBe(200);
    // the user still reads the package (a new sign-in does); the token that opened the stream is over
    expect((await w.s.call("GET", P, { token })).status).toBe(401);
    await endsAtNextEvent(events);
  });

  test("an access token that expires while its stream is open", async () => {
    const token = await viewer("expiring");
    const events = await stream(`Bearer ${token}`);
    await Bun.sleep(TTL_S * 1000 + 500);
    expect((await w.s.call("GET", P, { token })).status).toBe(401);
    await endsAtNextEvent(events);
  });

  test("an app token sent in Authorization: its user's password reset, and its expiry", async () => {
    const token = await viewer("appuser");
    const appToken = async (bearer: string) => {
      const r = await w.s.call("POST", `${P}/app-token`, { token: bearer });
      expect(r.status).toBe(200);
      return r.body.token as string;
    };
    const reset = await stream(`Bearer ${await appToken(token)}`);
    const expiring = await stream(`Bearer ${await appToken(await w.s.login("steady", "pw-steady-secret"))}`);
    expect((await w.s.call("PATCH", `${API}/users/appuser`, { token: await admin(), body: { password: "a-new-password-for-appuser" } })).status).toBe(200);
    await endsAtNextEvent(reset);
    // the other app token still stands: it got that publish
    expect((await expiring.next("published")).event).toBe("published");
    await Bun.sleep(TTL_S * 1000 + 500);
    await endsAtNextEvent(expiring);
    expect(await eventually(() => listenerCount(w.s.service.ctx, { envId: w.envId, packageName: "flights" }) === 0)).toBe(true);
  });
});
