/**
 * Encryption of connection credentials at rest: AES-256-GCM (Web Crypto) under
 * `SECRET_KEY` (32 bytes, base64 or hex) or, when unset, a key generated once
 * into `DATA_DIR/secret.key` (mode 0600). Every copy of the service that shares
 * a database must share the key: set `SECRET_KEY` when running several nodes.
 *
 * Stored form: `v1:` + base64(12-byte IV || ciphertext+tag). The row id is the
 * additional authenticated data, so a ciphertext moved to another row fails.
 * @module
 */
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

const keys = new Map<string, Promise<CryptoKey>>();

function decodeKey(text: string, source: string): Uint8Array {
  const s = text.trim();
  let bytes: Uint8Array | undefined;
  if (/^[0-9a-fA-F]{64}$/.test(s)) bytes = Uint8Array.from(s.match(/../g)!.map((h) => parseInt(h, 16)));
  else {
    try {
      bytes = Uint8Array.from(atob(s.replaceAll("-", "+").replaceAll("_", "/")), (c) => c.charCodeAt(0));
    } catch {
      bytes = undefined;
    }
  }
  if (!bytes || bytes.length !== 32) {
    throw new Error(`${source} must be 32 bytes written as base64 or 64 hex digits; generate one with: openssl rand -base64 32`);
  }
  return bytes;
}

async function keyBytes(options: SecretKeyOptions): Promise<Uint8Array> {
  if (options.secretKey) return decodeKey(options.secretKey, "SECRET_KEY");
  const path = join(options.dataDir, "secret.key");
  try {
    return decodeKey(await readFile(path, "utf8"), path);
  } catch (error) {
    if ((error as { code?: string }).code !== "ENOENT") throw error;
  }
  await mkdir(options.dataDir, { recursive: true });
  const fresh = crypto.getRandomValues(new Uint8Array(32));
  try {
    await writeFile(path, btoa(String.fromCharCode(...fresh)) + "\n", { flag: "wx", mode: 0o600 });
    await chmod(path, 0o600);
    return fresh;
  } catch (error) {
    // Another process wrote it first: use that one.
    if ((error as { code?: string }).code === "EEXIST") return decodeKey(await readFile(path, "utf8"), path);
    throw error;
  }
}

/** Where the key comes from. */
export interface SecretKeyOptions {
  /** `SECRET_KEY`, when set. */
  secretKey?: string;
  /** Folder of `secret.key` otherwise. */
  dataDir: string;
}

/** The AES-GCM key (loaded or generated once per process and source). */
export function secretKey(options: SecretKeyOptions): Promise<CryptoKey> {
  const id = options.secretKey ? `env:${options.secretKey}` : `file:${options.dataDir}`;
  let key = keys.get(id);
  if (!key) {
    key = keyBytes(options).then((bytes) =>
      crypto.subtle.importKey("raw", bytes as Uint8Array<ArrayBuffer>, "AES-GCM", false, ["encrypt", "decrypt"])
    );
    key.catch(() => keys.delete(id));
    keys.set(id, key);
  }
  return key;
}

/** Encrypts a JSON value bound to `aad` (the row id). */
export async function encryptSecret(key: CryptoKey, value: unknown, options: { aad: string }): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const data = new TextEncoder().encode(JSON.stringify(value));
  const cipher = new Uint8Array(
    await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData: new TextEncoder().encode(options.aad) }, key, data),
  );
  const out = new Uint8Array(iv.length + cipher.length);
  out.set(iv);
  out.set(cipher, iv.length);
  let bin = "";
  for (const b of out) bin += String.fromCharCode(b);
  return `v1:${btoa(bin)}`;
}

/** Decrypts what {@link encryptSecret} wrote (throws when the key or the row differ). */
export async function decryptSecret(key: CryptoKey, stored: string, options: { aad: string }): Promise<unknown> {
  if (!stored.startsWith("v1:")) throw new Error("stored secret has an unknown format");
  const bytes = Uint8Array.from(atob(stored.slice(3)), (c) => c.charCodeAt(0));
  try {
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: bytes.slice(0, 12), additionalData: new TextEncoder().encode(options.aad) },
      key,
      bytes.slice(12),
    );
    return JSON.parse(new TextDecoder().decode(plain));
  } catch {
    throw new Error("a stored connection secret cannot be decrypted: SECRET_KEY (or DATA_DIR/secret.key) differs from the key it was written with");
  }
}
