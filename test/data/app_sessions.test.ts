/**
 * Browser sessions and app tokens follow the user's credentials: the sign-in
 * form has the same failure limits as `POST /auth/token`, and a password reset
 * ends the session cookie and every app token signed before it.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { rm } from "node:fs/promises";
import { API, publish, startWorld, userWith, type World } from "../packages/helpers.ts";
import { serve } from "./helpers.ts";

setDefaultTimeout(60_000);

let w: World;
let origin: string;
let stop: () => void;
const PKG = `${API}/organizations/acme/environments/prod/packages/flights`;

beforeAll(async () => {
  w = await startWorld({ INDEX_ON_PUBLISH: "false", LOGIN_MAX_FAILURES_ACCOUNT: "3" });
  ({ origin, stop } = serve(w));
  expect((await publish(w, "flights", "1.0.0", { token: w.admin })).status).toBe(201);
  await userWith(w, "viewer", { kind: "environment", id: w.envId, role: "viewer" });
  await userWith(w, "target", { kind: "environment", id: w.envId, role: "viewer" });
}, 120_000);

afterAll(async () => {
  stop();
  await w.s.close();
  await rm(w.dataDir, { recursive: true, force: true });
}, 120_000);

async function signIn(userName: string, password: string): Promise<{ status: number; cookie: string; retryAfter: string | null }> {
  const r = await fetch(`${origin}/signin`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin },
    body: new URLSearchParams({ userName, password, return: "/" }),
    redirect: "manual",
  });
  return { status: r.status, cookie: (r.headers.get("set-cookie") ?? "").split(";")[0]!, retryAfter: r.headers.get("retry-after") };
}

function appToken(headers: Record<string, string>): Promise<Response> {
  return fetch(`${origin}${PKG}/app-token`, { method: "POST", headers });
}

describe("browser sign-in and app credentials", () => {
  test("a password reset ends the browser session and the app tokens signed before it", async () => {
    const session = await signIn("viewer", "pw-viewer-secret");
    expect(session.status).toBe(303);
    const issued = await appToken({ cookie: session.cookie });
    expect(issued.status).toBe(200);
    const { token } = await issued.json() as { token: string };
    expect((await fetch(`${origin}${PKG}/models`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);

    const reset = await w.s.call("PATCH", `${API}/users/viewer`, { token: w.admin, body: { password: "a-brand-new-password" } });
    expect(reset.status).toBe(200);

    expect((await appToken({ cookie: session.cookie })).status).toBe(401);
    expect((await fetch(`${origin}${PKG}/models`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    expect((await appToken({ authorization: `Bearer ${token}` })).status).toBe(401);
    // the new password signs in again
    const again = await signIn("viewer", "a-brand-new-password");
    expect(again.status).toBe(303);
    expect((await appToken({ cookie: again.cookie })).status).toBe(200);
  });

  test("the sign-in form counts failures per account: the right password is refused once locked", async () => {
    for (let i = 0; i < 3; i++) expect((await signIn("target", `wrong-${i}`)).status).toBe(401);
    const locked = await signIn("target", "pw-target-secret");
    expect(locked.status).toBe(429);
    expect(Number(locked.retryAfter)).toBeGreaterThan(0);
    expect(locked.cookie).toBe("");
    // the same account is locked for POST /auth/token too (one counter)
    const token = await w.s.call("POST", `${API}/auth/token`, { body: { userName: "target", password: "pw-target-secret" } });
    expect(token.status).toBe(429);
  });
});
