/**
 * A collection hint for code that moves large buffers through memory (an
 * upload, an unpack, archive chunks to and from the database): Bun collects
 * such garbage lazily, so without a hint the resident memory of a 200 MiB
 * publish grows by well over 100 MiB although at most a few MiB are live at a
 * time. A synchronous collection after every {@link GC_HINT_BYTES} moved keeps
 * the peak near the working set (each costs a few ms; a publish of 200 MiB
 * does about a dozen).
 * @module
 */

/** Bytes moved between two collections. */
const GC_HINT_BYTES = 16 * 1024 * 1024;

/** A counter of bytes moved that collects garbage every `everyBytes` (default {@link GC_HINT_BYTES}). */
export function gcHint(everyBytes = GC_HINT_BYTES): (moved: number) => void {
  let since = 0;
  return (moved: number) => {
    since += moved;
    if (since < everyBytes) return;
    since = 0;
    Bun.gc(true);
  };
}
