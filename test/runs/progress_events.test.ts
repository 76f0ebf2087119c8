import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { rm } from "node:fs/promises";
import { API, publish, smallPackage, startWorld, userWith, type World } from "../packages/helpers.ts";
import { openEvents, serve, type SseEvent } from "../data/helpers.ts";

setDefaultTimeout(60_000);

let w: World;
let origin: string;
let stop: () => void;
let viewer: string;
const P = `${API}/organizations/acme/environments/prod/packages/flights`;

beforeAll(async () => {
  w = await startWorld();
  ({ origin, stop } = serve(w));
  const first = await publish(w, "flights", "1.0.0", { token: w.admin });
  expect(first.status).toBe(201);
  const [p] = await w.s.service.db.sql`SELECT id FROM packages WHERE name = 'flights'`;
  viewer = await userWith(w, "vera", { kind: "package", id: p!.id as string, role: "viewer" });
}, 120_000);

afterAll(async () => {
  stop();
  await w.s.close();
  await rm(w.dataDir, { recursive: true, force: true });
}, 120_000);

/** Events of `runId` until its `run_finished` (inclusive), in order. */
async function runEventsOf(events: Awaited<ReturnType<typeof openEvents>>, runId: string): Promise<SseEvent[]> {
  const seen: SseEvent[] = [];
  for (;;) {
    const e = await events.next(undefined, 30_000);
    if (e.data?.runId !== runId || !e.event.startsWith("run_")) continue;
    seen.push(e);
    if (e.event === "run_finished") break;
  }
  // `indexed` follows `run_finished` when the run left the version indexed
  const after = await events.next("indexed", 5_000).catch(() => null);
  if (after) seen.push(after);
  return seen;
}

describe("run progress on the package event stream", () => {
  test("a publish's run reports started, each unit done, finished and indexed to a package viewer", async () => {
    const events = await openEvents(`${origin}${P}/events`, { token: viewer });
    expect(events.status).toBe(200);
    await events.next("ready");
    const r = await publish(w, "flights", "1.0.1", { token: w.admin, files: smallPackage() });
    expect(r.status).toBe(201);
    const runId = r.body.runId as string;
    expect(runId).toBeString();
    const seen = await runEventsOf(events, runId);
    events.close();
    expect(seen.map((e) => e.event)).toEqual(["run_started", "run_progress", "run_finished", "indexed"]);
    const [started, progress, finished, indexed] = seen;
    expect(started!.data).toEqual({ package: "flights", at: expect.any(String), runId, versionId: "1.0.1", unitsTotal: 1 });
    expect(progress!.data).toMatchObject({ runId, versionId: "1.0.1", unitsDone: 1, unitsTotal: 1 });
    expect(finished!.data).toMatchObject({ runId, versionId: "1.0.1", state: "succeeded" });
    expect(indexed!.data).toMatchObject({ runId, versionId: "1.0.1" });
    // ids increase along the stream
    const ids = seen.map((e) => Number(e.id));
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    // what the events say is what the run API says
    const run = await w.s.call("GET", `${P}/runs/${runId}`, { token: w.admin });
    expect(run.body.state).toBe("succeeded");
    expect(run.body.units.length).toBe(1);
  });

  test("a stream opened later replays a run's events after Last-Event-ID", async () => {
    const live = await openEvents(`${origin}${P}/events`, { token: viewer });
    const ready = await live.next("ready");
    live.close();
    const run = await w.s.call("POST", `${P}/versions/1.0.1/runs`, { token: w.admin, body: {} });
    expect(run.status).toBe(201);
    const runId = run.body.id as string;
    // wait for the run to end, then replay
    for (let i = 0; i < 300; i++) {
      const g = await w.s.call("GET", `${P}/runs/${runId}`, { token: w.admin });
      if (["succeeded", "failed", "cancelled"].includes(g.body.state)) break;
      await Bun.sleep(100);
    }
    const replay = await openEvents(`${origin}${P}/events`, { token: viewer, headers: { "last-event-id": ready.data.lastEventId } });
    const seen = await runEventsOf(replay, runId);
    replay.close();
    expect(seen.map((e) => e.event)).toEqual(["run_started", "run_progress", "run_finished", "indexed"]);
    expect(seen[2]!.data.state).toBe("succeeded");
  });

  test("run events carry counts and states only, no source, dimension or error text", async () => {
    const events = await openEvents(`${origin}${P}/events`, { token: viewer });
    await events.next("ready");
    const run = await w.s.call("POST", `${P}/versions/1.0.1/runs`, { token: w.admin, body: { dimensions: ["flights.carrier_code"] } });
    expect(run.status).toBe(201);
    const seen = await runEventsOf(events, run.body.id as string);
    events.close();
    for (const e of seen) {
      const text = JSON.stringify(e.data);
      expect(text).not.toContain("carrier");
      expect(Object.keys(e.data).sort()).toEqual(
        ["at", "package", "runId", "versionId", ...({ run_started: ["unitsTotal"], run_progress: ["unitsDone", "unitsTotal"], run_finished: ["state"], indexed: [] } as Record<string, string[]>)[e.event]!].sort(),
      );
    }
  });
});

describe("replay while events arrive", () => {
  test("a stream replaying after Last-Event-ID sends each event once, also when new events arrive during the replay", async () => {
    const { emitPackageEvent } = await import("../../src/events/hub.ts");
    const key = { envId: w.envId, packageName: "flights" };
    const first = await emitPackageEvent(w.s.service.ctx, key, { event: "archived", data: { versionId: "0.0.0" } });
    for (let i = 0; i < 40; i++) await emitPackageEvent(w.s.service.ctx, key, { event: "archived", data: { versionId: `0.0.${i + 1}` } });
    // new events stored while the replay is being read
    const writing = (async () => {
      for (let i = 0; i < 20; i++) {
        await emitPackageEvent(w.s.service.ctx, key, { event: "archived", data: { versionId: `0.1.${i}` } });
        await Bun.sleep(2);
      }
    })();
    const replay = await openEvents(`${origin}${P}/events`, { token: viewer, headers: { "last-event-id": first!.id } });
    await writing;
    const seen: string[] = [];
    for (;;) {
      const e = await replay.next("archived", 10_000);
      seen.push(e.id!);
      if (e.data.versionId === "0.1.19") break;
    }
    replay.close();
    expect(seen.length).toBe(60);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.map(Number)).toEqual([...seen.map(Number)].sort((a, b) => a - b));
  });
});
