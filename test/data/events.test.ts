import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rm } from "node:fs/promises";
import { listenerCount } from "../../src/events/hub.ts";
import { API, publish, startWorld, userWith, type World } from "../packages/helpers.ts";
import { eventually, openEvents, serve } from "./helpers.ts";

let w: World;
let origin: string;
let stop: () => void;
const P = `${API}/organizations/acme/environments/prod/packages/flights`;

beforeAll(async () => {
  w = await startWorld({ INDEX_ON_PUBLISH: "false" });
  ({ origin, stop } = serve(w));
  const r = await publish(w, "flights", "1.0.0", { token: w.admin });
  expect(r.status).toBe(201);
});

afterAll(async () => {
  stop();
  await w.s.close();
  await rm(w.dataDir, { recursive: true, force: true });
});

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

  test("needs package read access: 401 anonymous, 404 for outsiders, ?access_token= for EventSource", async () => {
    const anonymous = await fetch(`${origin}${P}/events`);
    expect(anonymous.status).toBe(401);
    const outsider = await userWith(w, "outsider");
    const hidden = await fetch(`${origin}${P}/events`, { headers: { authorization: `Bearer ${outsider}` } });
    expect(hidden.status).toBe(404);
    const missing = await fetch(`${origin}${API}/organizations/acme/environments/prod/packages/nope/events`, { headers: { authorization: `Bearer ${w.admin}` } });
    expect(missing.status).toBe(404);
    const viewer = await userWith(w, "viewer", { kind: "environment", id: w.envId, role: "viewer" });
    const events = await openEvents(`${origin}${P}/events?access_token=${encodeURIComponent(viewer)}`);
    expect(events.status).toBe(200);
    expect((await events.next("ready")).data.package).toBe("flights");
    events.close();
  });
});
