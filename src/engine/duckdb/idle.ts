/**
 * The idle DuckDB instances of every package connection of this process, least
 * recently returned first: past `idleInstancesTotal` (the engine limits) the
 * oldest idle instance of any package is closed, so a node serving many
 * packages does not keep `idleSessions` instances for each one.
 *
 * Each connection keeps its own idle list (the instances its next queries
 * take); this registry remembers which list an instance lies in, so that
 * trimming takes it out of that list too.
 * @module
 */

import type { Session } from "./session.ts";

/** Every idle instance with the idle list of the connection that kept it. */
const everywhere = new Map<Session, Session[]>();

/** Registers an instance just put into its connection's idle list `owner`. */
export function keepIdle(session: Session, owner: Session[]): void {
  everywhere.set(session, owner);
}

/** Forgets an instance taken out of its connection's idle list (to run a query, or to be closed). */
export function forgetIdle(session: Session): void {
  everywhere.delete(session);
}

/** Idle instances kept by every package connection of this process. */
export function idleEverywhere(): number {
  return everywhere.size;
}

/** Closes the least recently returned idle instances of any package until at most `max` remain. */
export function trimIdle(max: number): void {
  while (everywhere.size > max) {
    const [session, owner] = everywhere.entries().next().value!;
    everywhere.delete(session);
    const at = owner.indexOf(session);
    if (at >= 0) owner.splice(at, 1);
    void session.close();
  }
}
