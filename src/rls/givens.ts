/**
 * Malloy givens (`given: TENANT :: string`, read as `$TENANT`) as this
 * platform fills them: a given whose name is an attribute declared in the
 * package's organization is **trusted**, filled from the caller's effective
 * value of that attribute and never from the request (a request that sets
 * it is refused with `400`); every other given keeps Malloy's behaviour
 * (the request's value, else the declaration's default).
 *
 * Publisher runs the same givens "behind a trusted tier that sets those
 * givens from verified identity"; here the attributes are that tier.
 * @module
 */
import type { Model } from "@malloydata/malloy";
import type { Db } from "../db/database.ts";
import type { GivenInput } from "../engine/mod.ts";
import { ForbiddenError, ValidationError } from "../errors.ts";
import { principalKey, type Principal, principalLabel } from "../access/principal.ts";
import { effectiveValues } from "../attributes/effective.ts";

/** The givens of one query for one caller. */
export interface CallerGivens {
  /** Values Malloy generates the SQL with, by given name (trusted and requested; defaults are left to Malloy). */
  supplied: Record<string, GivenInput>;
  /** What gates read: the supplied value, else the declaration's default, else null. */
  values: Map<string, unknown>;
  /** Attributes that filled givens (for the query log). */
  attributes: string[];
  /** Malloy's ids of the givens trusted attributes fill: a source whose filters read one is filtered behind the barrier. */
  trustedIds: Set<string>;
}

type GivenDecl = { id: string; type: { type: string; filterType?: string }; default: unknown };

/** A declaration default (a Malloy constant) as a plain value; null when it is not a literal. */
function literalOf(expr: unknown): unknown {
  const e = expr as { node?: string; literal?: string; kids?: unknown } | undefined;
  switch (e?.node) {
    case "stringLiteral": return e.literal ?? "";
    case "numberLiteral": return Number(e.literal);
    case "true": return true;
    case "false": return false;
    default: return null;
  }
}

function typeName(type: GivenDecl["type"]): string {
  return type.type === "filter expression" ? `filter<${type.filterType ?? "string"}>` : type.type;
}

/** An attribute's value as the value of a given of `type`; undefined when it cannot fill it. */
function givenValue(value: unknown, type: GivenDecl["type"]): GivenInput | undefined {
  if (type.type === "string" && typeof value === "string") return value;
  if (type.type === "number" && typeof value === "number") return value;
  if (type.type === "boolean" && typeof value === "boolean") return value;
  if (type.type === "array" && Array.isArray(value)) return value.filter((v): v is string => typeof v === "string");
  if (type.type === "filter expression" && (type.filterType ?? "string") === "string") {
    const list = typeof value === "string" ? [value] : Array.isArray(value) ? value.filter((v): v is string => typeof v === "string" && v !== "") : [];
    // every character escaped, so no value can add an operator of the filter language
    return list.map((v) => [...v].map((c) => `\\${c}`).join("")).join(", ");
  }
  return undefined;
}

/** Whether a request's value may be given to Malloy as a given's value. */
function isGivenInput(value: unknown): value is GivenInput {
  return value === null || ["string", "number", "boolean"].includes(typeof value) || (Array.isArray(value) && value.every((v) => typeof v === "string"));
}

/**
 * The givens of a query of `model` for `caller` (its organization
 * `orgId`), with the request's `requested` values. Throws `400` for a
 * requested given the model does not declare or that a trusted attribute
 * fills, and `403` when a trusted given has no value and no default.
 */
export async function callerGivens(db: Db, caller: { principal: Principal; orgId: string }, model: Model, requested: Record<string, unknown> | undefined): Promise<CallerGivens> {
  const declared = new Map<string, GivenDecl>([...model.givens].map(([name, given]) => [name, { id: given.id, type: given.type as GivenDecl["type"], default: given.default }]));
  const out: CallerGivens = { supplied: {}, values: new Map(), attributes: [], trustedIds: new Set() };
  const asked = Object.entries(requested ?? {});
  for (const [name, value] of asked) {
    if (!declared.has(name)) {
      const known = [...declared.keys()];
      throw new ValidationError(`given '${name}' is not declared by the model (${known.length > 0 ? `its givens: ${known.join(", ")}` : "it declares no givens"}); remove it from givens`);
    }
    if (!isGivenInput(value)) throw new ValidationError(`given '${name}' must be a string, a number, a boolean, null or a list of strings`);
  }
  if (declared.size === 0) return out;
  const key = principalKey(caller.principal);
  const trusted = new Map((await effectiveValues(db, { kind: key.kind, id: key.id }, { orgId: caller.orgId, names: [...declared.keys()] })).map((v) => [v.name, v]));
  const requestedValues = new Map(asked);
  for (const [name, decl] of declared) {
    const attribute = trusted.get(name);
    if (attribute) {
      if (requestedValues.has(name)) {
        throw new ValidationError(`given '${name}' is filled from the caller's trusted attribute '${name}' and cannot be set by a request; remove it from givens`);
      }
      out.attributes.push(name);
      out.trustedIds.add(decl.id);
      const value = attribute.value;
      if (value === null || (Array.isArray(value) && value.length === 0)) {
        if (decl.default === undefined) {
          throw new ForbiddenError(`attribute '${name}' has no value for ${principalLabel(caller.principal)}, and the model's given $${name} is filled from it (it has no default); an organization admin can set it with PUT .../attributes/${name}/users/{userName} or .../groups/{group}`);
        }
        out.values.set(name, literalOf(decl.default));
        continue;
      }
      const filled = givenValue(value, decl.type);
      if (filled === undefined) {
        throw new ValidationError(`attribute '${name}' (${attribute.type}) cannot fill the model's given $${name} (${typeName(decl.type)}); declare the given with the attribute's type`);
      }
      out.supplied[name] = filled;
      out.values.set(name, value);
    } else if (requestedValues.has(name)) {
      const value = requestedValues.get(name) as GivenInput;
      out.supplied[name] = value;
      out.values.set(name, value);
    } else {
      out.values.set(name, decl.default === undefined ? null : literalOf(decl.default));
    }
  }
  return out;
}
