/** Preloaded by `bun test` (bunfig.toml): tests that start services get 60 s. */
import { setDefaultTimeout } from "bun:test";

setDefaultTimeout(60_000);
