import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from "bun:test";
import { rm } from "node:fs/promises";
import { closePackageStreams, listenerCount } from "../../src/events/hub.ts";
import { startService } from "../../src/service.ts";
import { API, publish, startWorld, userWith, type World } from "../packages/helpers.ts";
import { eventually, openEvents, serve } from "./helpers.ts";

// explicit: a file run after another in the same process must not fall back to bun's 5 s
setDefaultTimeout(60_000);

let w: World;
let origin: string;
let stop: () => void;
const P = `${API}/organizations/acme/environments/prod/packages/flights`;

beforeAll(async () => {
  w = await startWorld({ INDEX_ON_PUBLISH: "false", EVENT_HISTORY: "5" });
  ({ origin, stop } = serve(w));
  const r = await publish(w, "flights", "1.0.0", { token: w.admin });
  expect(r.status).toBe(201);
}, 120_000);

afterAll(async () => {
  stop();
  await w.s.close();
  await rm(w.dataDir, { recursive: true, force: true });
}, 120_000);

describe("package events (SSE)", () => {
  test("a publish through the API emits `published` with the new version id", async () => {
    const events = await openEvents(`${origin}${P}/events`, { token: w.admin });
    expect(events.status).toBe(200);
    expect(events.headers.get("content-type")).toStartWith("text/event-stream");
    const ready = await events.next("ready");
    expect(ready.data).toMatchObject({ package: "flights", latestVersion: "1.0.0" });
    const r = await publish(w, "flights", "1.0.1", { token: w.admin });
    expect(r.status).toBe(201);
    const published = await events.next("published");
    expect(published.data).toMatchObject({ package: "flights", versionId: "1.0.1", source: "api" });
    expect(Number(published.id)).toBeGreaterThan(0);
    events.close();
  });

  test("the same stream is served under /projects", async () => {
    const events = await openEvents(`${origin}${API}/organizations/acme/projects/prod/packages/flights/events`, { token: w.admin });
    expect(events.status).toBe(200);
    expect((await events.next("ready")).data.package).toBe("flights");
    events.close();
  });

  test("disconnecting a client removes its listener", async () => {
    const key = { envId: w.envId, packageName: "flights" };
    await eventually(() => listenerCount(w.s.service.ctx, key) === 0);
    const a = await openEvents(`${origin}${P}/events`, { token: w.admin });
    const b = await openEvents(`${origin}${P}/events`, { token: w.admin });
    await a.next("ready");
    await b.next("ready");
    expect(listenerCount(w.s.service.ctx, key)).toBe(2);
    a.close();
    expect(await eventually(() => listenerCount(w.s.service.ctx, key) === 1)).toBe(true);
    b.close();
    expect(await eventually(() => listenerCount(w.s.service.ctx, key) === 0)).toBe(true);
  });

  test("Last-Event-ID replays the events missed while away", async () => {
    const first = await openEvents(`${origin}${P}/events`, { token: w.admin });
    await first.next("ready");
    expect((await publish(w, "flights", "1.0.2", { token: w.admin })).status).toBe(201);
    const seen = await first.next("published");
    first.close();
    expect((await publish(w, "flights", "1.0.3", { token: w.admin })).status).toBe(201);
    const again = await openEvents(`${origin}${P}/events`, { token: w.admin, headers: { "last-event-id": seen.id! } });
    const replayed = await again.next("published");
    expect(replayed.data.versionId).toBe("1.0.3");
    again.close();
  });

  test("needs package read access: 401 anonymous, 404 for outsiders; EventSource uses an app token, never a full token in the URL", async () => {
    const anonymous = await fetch(`${origin}${P}/events`);
    expect(anonymous.status).toBe(401);
    const outsider = await userWith(w, "outsider");
    const hidden = await fetch(`${origin}${P}/events`, { headers: { authorization: `Bearer ${outsider}` } });
    expect(hidden.status).toBe(404);
    const missing = await fetch(`${origin}${API}/organizations/acme/environments/prod/packages/nope/events`, { headers: { authorization: `Bearer ${w.admin}` } });
    expect(missing.status).toBe(404);
    const viewer = await userWith(w, "viewer", { kind: "environment", id: w.envId, role: "viewer" });
    expect((await fetch(`${origin}${P}/events?access_token=${encodeURIComponent(viewer)}`)).status).toBe(401);
    expect((await fetch(`${origin}${P}/events?app_token=${encodeURIComponent(viewer)}`)).status).toBe(401);
    const app = await fetch(`${origin}${P}/app-token`, { method: "POST", headers: { authorization: `Bearer ${viewer}` } });
    const { token } = await app.json() as { token: string };
    const events = await openEvents(`${origin}${P}/events?app_token=${encodeURIComponent(token)}`);
    expect(events.status).toBe(200);
    expect((await events.next("ready")).data.package).toBe("flights");
    events.close();
  });

  test("ready carries the stream's current id; ids are stored, so another service instance (a restart, another node) continues them and replays", async () => {
    const a = await openEvents(`${origin}${P}/events`, { token: w.admin });
    const ready = await a.next("ready");
    expect(ready.id).toMatch(/^\d+$/);
    expect(ready.data.lastEventId).toBe(ready.id);
    expect((await publish(w, "flights", "2.0.0", { token: w.admin })).status).toBe(201);
    const p1 = await a.next("published");
    expect(BigInt(p1.id!)).toBe(BigInt(ready.id!) + 1n);
    a.close();
    // a second instance of the service on the same database (what a restart or another node sees)
    const other = await startService({ ...w.s.config, logRequests: false }, { db: { ...w.s.service.db, close: async () => {} }, log: () => {} });
    const server = Bun.serve({ port: 0, hostname: "127.0.0.1", idleTimeout: 0, fetch: (r) => other.handle(r) });
    const otherOrigin = `http://127.0.0.1:${server.port}`;
    try {
      expect((await publish(w, "flights", "2.0.1", { token: w.admin })).status).toBe(201); // while nobody listens
      const replay = await openEvents(`${otherOrigin}${P}/events`, { token: w.admin, headers: { "last-event-id": p1.id! } });
      const missed = await replay.next("published");
      expect(missed.data.versionId).toBe("2.0.1");
      expect(BigInt(missed.id!)).toBe(BigInt(p1.id!) + 1n);
      const ready2 = await replay.next("ready");
      expect(ready2.id).toBe(missed.id);
      // live across instances: an event emitted by the first instance reaches a stream of the second
      expect((await publish(w, "flights", "2.0.2", { token: w.admin })).status).toBe(201);
      const live = await replay.next("published");
      expect(live.data.versionId).toBe("2.0.2");
      expect(BigInt(live.id!)).toBe(BigInt(missed.id!) + 1n);
      replay.close();
    } finally {
      server.stop(true);
      await closePackageStreams(other.ctx);
      await other.close();
    }
  });

  test("archiving a version emits archived", async () => {
    const events = await openEvents(`${origin}${P}/events`, { token: w.admin });
    await events.next("ready");
    const r = await w.s.call("PATCH", `${P}/versions/1.0.0`, { token: w.admin, body: { archiveStatus: "archive" } });
    expect(r.status).toBe(200);
    const archived = await events.next("archived");
    expect(archived.data).toMatchObject({ package: "flights", versionId: "1.0.0" });
    events.close();
  });

  test("access is re-checked per event: a viewer whose grant is removed gets revoked and the stream ends", async () => {
    const viewer = await userWith(w, "viewer2", { kind: "environment", id: w.envId, role: "viewer" });
    const events = await openEvents(`${origin}${P}/events`, { token: viewer });
    await events.next("ready");
    await w.s.service.db.sql`DELETE FROM grants WHERE principal_id = (SELECT id FROM users WHERE user_name = 'viewer2')`;
    expect((await publish(w, "flights", "2.1.0", { token: w.admin })).status).toBe(201);
    const revoked = await events.next("revoked");
    expect(revoked.data.package).toBe("flights");
    expect(events.pending().some((e) => e.event === "published")).toBe(false);
    expect(await eventually(() => listenerCount(w.s.service.ctx, { envId: w.envId, packageName: "flights" }) === 0)).toBe(true);
    events.close();
  });
  test("a Last-Event-ID older than the kept history (EVENT_HISTORY) gets reset, then ready", async () => {
    for (const v of ["3.0.0", "3.0.1", "3.0.2", "3.0.3", "3.0.4", "3.0.5"]) expect((await publish(w, "flights", v, { token: w.admin })).status).toBe(201);
    const [kept] = await w.s.service.db.sql`SELECT count(*)::int AS n FROM package_events WHERE env_id = ${w.envId} AND package_name = 'flights'`;
    expect(kept!.n).toBe(5);
    const events = await openEvents(`${origin}${P}/events`, { token: w.admin, headers: { "last-event-id": "1" } });
    const reset = await events.next("reset");
    const ready = await events.next("ready");
    expect(reset.id).toBe(ready.id);
    expect(events.pending().some((e) => e.event === "published")).toBe(false);
    // a Last-Event-ID newer than the stream (another database) is reset too
    const ahead = await openEvents(`${origin}${P}/events`, { token: w.admin, headers: { "last-event-id": "999999" } });
    expect((await ahead.next()).event).toBe("reset");
    events.close();
    ahead.close();
  });
});
