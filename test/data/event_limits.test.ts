/**
 * Open event streams are bounded: per caller (`EVENT_STREAMS_PER_CALLER`,
 * 429) and per node (`EVENT_STREAMS_MAX`, 503), and a closed stream gives its
 * slot back. Without the bound one viewer could hold streams (each with a
 * subscription, a heartbeat and an access re-check) until the node fails.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { rm } from "node:fs/promises";
import { API, publish, startWorld, userWith, type World } from "../packages/helpers.ts";
import { eventually, openEvents, type SseClient, serve } from "./helpers.ts";

setDefaultTimeout(60_000);

let w: World;
let origin: string;
let stop: () => void;
const P = `${API}/organizations/acme/environments/prod/packages/flights`;
const open: SseClient[] = [];

beforeAll(async () => {
  w = await startWorld({ INDEX_ON_PUBLISH: "false", EVENT_STREAMS_PER_CALLER: "2", EVENT_STREAMS_MAX: "3" });
  ({ origin, stop } = serve(w));
  expect((await publish(w, "flights", "1.0.0", { token: w.admin })).status).toBe(201);
}, 120_000);

afterAll(async () => {
  for (const client of open) client.close();
  stop();
  await w.s.close();
  await rm(w.dataDir, { recursive: true, force: true });
}, 120_000);

async function stream(token: string): Promise<SseClient> {
  const client = await openEvents(`${origin}${P}/events`, { token });
  open.push(client);
  return client;
}

describe("event stream bounds", () => {
  test("a caller holds at most EVENT_STREAMS_PER_CALLER streams, the node EVENT_STREAMS_MAX; closing one gives its slot back", async () => {
    const viewer = await userWith(w, "vera", { kind: "environment", id: w.envId, role: "viewer" });
    const other = await userWith(w, "otto", { kind: "environment", id: w.envId, role: "viewer" });
    const a = await stream(w.admin);
    const b = await stream(w.admin);
    expect([a.status, b.status]).toEqual([200, 200]);
    await a.next("ready");
    await b.next("ready");
    const third = await fetch(`${origin}${P}/events`, { headers: { authorization: `Bearer ${w.admin}` } });
    expect(third.status).toBe(429);
    expect(third.headers.get("retry-after")).toBe("15");
    expect(await third.json()).toMatchObject({ code: "RATE_LIMIT_EXCEEDED" });
    // another caller still gets one: the bound is per caller
    const v = await stream(viewer);
    expect(v.status).toBe(200);
    await v.next("ready");
    // the node is full (3): a third caller gets 503
    const full = await fetch(`${origin}${P}/events`, { headers: { authorization: `Bearer ${other}` } });
    expect(full.status).toBe(503);
    expect(full.headers.get("retry-after")).toBe("15");
    // a closed stream gives its slot back
    a.close();
    let again: Response | undefined;
    expect(await eventually(async () => {
      again = await fetch(`${origin}${P}/events`, { headers: { authorization: `Bearer ${other}` } });
      if (again.status !== 200) await again.body?.cancel();
      return again.status === 200;
    })).toBe(true);
    await again!.body?.cancel();
    // refused requests took no slot: after closing everything, a caller opens its full share again
    for (const client of open) client.close();
    expect(await eventually(async () => {
      const r = await fetch(`${origin}${P}/events`, { headers: { authorization: `Bearer ${w.admin}` } });
      await r.body?.cancel();
      return r.status === 200;
    })).toBe(true);
    const c = await stream(w.admin);
    const d = await stream(w.admin);
    expect([c.status, d.status]).toEqual([200, 200]);
  });

  test("app tokens count with their user's other credentials: fresh app tokens open no more streams", async () => {
    for (const client of open.splice(0)) client.close();
    const viewer = await userWith(w, "nina", { kind: "environment", id: w.envId, role: "viewer" });
    const appToken = async () => {
      const r = await w.s.call("POST", `${P}/app-token`, { token: viewer });
      expect(r.status).toBe(200);
      return r.body.token as string;
    };
    const first = await appToken();
    const second = await appToken();
    expect(first).not.toBe(second);
    // room on the node for this caller's share and one more (node bound 3)
    expect(await eventually(async () => {
      const a = await stream(first);
      if (a.status !== 200) {
        a.close();
        open.pop();
      }
      return a.status === 200;
    })).toBe(true);
    const b = await stream(viewer);
    expect(b.status).toBe(200);
    // a third stream with yet another app token of the same user is the caller's third: 429
    const third = await fetch(`${origin}${P}/events`, { headers: { authorization: `Bearer ${second}` } });
    expect(third.status).toBe(429);
    await third.body?.cancel();
    const fourth = await fetch(`${origin}${P}/events`, { headers: { authorization: `Bearer ${await appToken()}` } });
    expect(fourth.status).toBe(429);
    await fourth.body?.cancel();
  });
});
