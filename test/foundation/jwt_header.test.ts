/**
 * src/jwt_header.ts answers what jose's `decodeProtectedHeader` answers, for
 * every token, also after the same header segment was seen in a valid token.
 */
import { describe, expect, test } from "bun:test";
import { decodeProtectedHeader, SignJWT } from "jose";
import { protectedHeaderOf } from "../../src/jwt_header.ts";

const key = new TextEncoder().encode("k".repeat(32));
const sign = (typ?: string) => new SignJWT({ sub: "x" }).setProtectedHeader(typ ? { alg: "HS256", typ } : { alg: "HS256" }).sign(key);

function outcome(f: () => unknown): unknown {
  try {
    return f();
  } catch (error) {
    return `${(error as Error).name}: ${(error as Error).message}`;
  }
}

describe("protectedHeaderOf", () => {
  test("the header of each kind of token, read twice", async () => {
    for (const typ of [undefined, "app+jwt", "at+jwt", "session+jwt"]) {
      const token = await sign(typ);
      expect(protectedHeaderOf(token)).toEqual(decodeProtectedHeader(token));
      expect(protectedHeaderOf(token)).toEqual(decodeProtectedHeader(token));
    }
  });

  test("a token with a known header segment but the wrong number of segments is refused as jose refuses it", async () => {
    const token = await sign("app+jwt");
    expect(protectedHeaderOf(token).typ).toBe("app+jwt");
    const [head, body, signature] = token.split(".");
    for (const broken of [`${head}.${body}`, `${head}.${body}.${signature}.x`, `${head}.${body}.${signature}.x.y.z`, head!, "", "a.b.c", `.${body}.${signature}`]) {
      expect(outcome(() => protectedHeaderOf(broken))).toEqual(outcome(() => decodeProtectedHeader(broken)));
    }
    expect(outcome(() => protectedHeaderOf(`${head}.${body}`))).toContain("TypeError");
  });
});
