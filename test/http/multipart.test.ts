import { describe, expect, test } from "bun:test";
import { MultipartError, multipartBoundary, type PartInfo, readMultipart } from "../../src/http/multipart.ts";

const enc = new TextEncoder();

/** A stream of `body` cut into pieces of `size` bytes. */
function pieces(body: Uint8Array, size: number): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= body.length) return controller.close();
      controller.enqueue(body.slice(at, at + size));
      at += size;
    },
  });
}

async function parse(body: Uint8Array, boundary: string, size = 1 << 20) {
  const parts: { info: PartInfo; data: Uint8Array }[] = [];
  await readMultipart(pieces(body, size), boundary, (info) => {
    const chunks: Uint8Array[] = [];
    return {
      write: (bytes) => void chunks.push(bytes.slice()),
      end: () => void parts.push({ info, data: new Uint8Array(Buffer.concat(chunks)) }),
    };
  });
  return parts;
}

describe("readMultipart", () => {
  test("reads what FormData writes, cut at every piece size, including file bytes that look like a boundary", async () => {
    const file = new Uint8Array(5000);
    for (let i = 0; i < file.length; i++) file[i] = (i * 31) % 256;
    const tricky = enc.encode("\r\n--\r\n--not-the-boundary\r\n\r\n");
    file.set(tricky, 100);
    const form = new FormData();
    form.set("version", '{"id":"1.0.0"}');
    form.set("packageFile", new Blob([file], { type: "application/zip" }), "pkg-v1.zip");
    form.set("md5Hash", "");
    const request = new Request("http://x/", { method: "POST", body: form });
    const boundary = multipartBoundary(request.headers.get("content-type"))!;
    const body = new Uint8Array(await request.arrayBuffer());
    for (const size of [1, 2, 7, 64, 1000, body.length]) {
      const parts = await parse(body, boundary, size);
      expect(parts.map((p) => p.info.name)).toEqual(["version", "packageFile", "md5Hash"]);
      expect(new TextDecoder().decode(parts[0]!.data)).toBe('{"id":"1.0.0"}');
      expect(parts[1]!.info.filename).toBe("pkg-v1.zip");
      expect(parts[1]!.info.contentType).toBe("application/zip");
      expect(Buffer.from(parts[1]!.data).equals(Buffer.from(file))).toBe(true);
      expect(parts[2]!.data.length).toBe(0);
      expect(parts[0]!.info.filename).toBeUndefined();
    }
  });

  test("a body that ends before its closing boundary, or without any boundary, is a MultipartError", async () => {
    const cut = enc.encode('--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nhello');
    await expect(parse(cut, "b")).rejects.toBeInstanceOf(MultipartError);
    await expect(parse(enc.encode("just text"), "b")).rejects.toBeInstanceOf(MultipartError);
    await expect(parse(enc.encode(`--b\r\n${"x".repeat(20_000)}`), "b")).rejects.toThrow("headers of a part");
  });

  test("a stream that errors is a MultipartError naming the break", async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(enc.encode('--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nhel'));
        controller.error(new Error("reset"));
      },
    });
    await expect(readMultipart(stream, "b", () => ({ write() {} }))).rejects.toThrow("broke off (reset)");
  });

  test("the boundary of a Content-Type, quoted or not; none for other types", () => {
    expect(multipartBoundary("multipart/form-data; boundary=abc")).toBe("abc");
    expect(multipartBoundary('multipart/form-data; charset=utf-8; boundary="a b:c"')).toBe("a b:c");
    expect(multipartBoundary("application/json")).toBeUndefined();
    expect(multipartBoundary("multipart/form-data")).toBeUndefined();
    expect(multipartBoundary(null)).toBeUndefined();
  });
});
