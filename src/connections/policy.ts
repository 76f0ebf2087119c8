/**
 * The host policy of a running service, found from its database handle, so
 * that every place that opens a warehouse connection (queries, publish,
 * indexing, watch mode) checks against the same `ALLOWED_CONNECTION_HOSTS`
 * without passing it through each caller. Several services in one process
 * (tests) each keep their own.
 * @module
 */
import { type HostPolicy, hostPolicy } from "./host_policy.ts";

const policies = new WeakMap<object, HostPolicy>();

/** The policy of a configuration (its `allowedConnectionHosts`, from `ALLOWED_CONNECTION_HOSTS`). */
export function connectionHostPolicy(config: { allowedConnectionHosts: string[] }): HostPolicy {
  return hostPolicy(config.allowedConnectionHosts);
}

/** Records the policy of the service whose database handle is `sql`. */
export function bindHostPolicy(sql: object, policy: HostPolicy): void {
  policies.set(sql, policy);
}

/** The policy recorded for a database handle; public addresses only when none was. */
export function hostPolicyOf(sql: object): HostPolicy | undefined {
  return policies.get(sql);
}
