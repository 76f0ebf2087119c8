/**
 * Retrieval REST family: `POST /api/v0/retrieval/context` (semantic-model
 * context by entity type, with or without search text).
 *
 * Prominence (targets without `search_text`): sources by how many fields
 * they have (documented sources first on ties); dimensions, measures and
 * views by documentation (`#(doc)`, 2 points) plus being `#(index)`ed (1
 * point), then by name; dimensional values by row count.
 *
 * `POST /retrieval/connection-entities` lives in `connection_entities_routes.ts`.
 * @module
 */
import { Elysia, t } from "elysia";
import type { AppContext } from "../context.ts";
import { required } from "../http/auth.ts";
import { badRequest } from "../http/errors.ts";
import type { Principal } from "../access/principal.ts";
import { routeAccess } from "../http/route_access.ts";
import { security } from "../http/security.ts";
import { mergeRankings } from "./ranking/rank.ts";
import { checkScope, type SearchScope, scopedEntities, scopedVersions, type StoredEntity } from "./index/scoped_entities.ts";
import { rankQuestion } from "./search.ts";

/** Entity types of a search target. */
type TargetType = "source" | "dimension" | "measure" | "view" | "dimensional_value";

/** One item of a target's results. */
export interface ContextItem {
  environment_name: string;
  package_name: string;
  version_id: string;
  model_uri: string;
  source_name: string;
  name: string;
  field_type: string;
  data_type: string;
  description: string;
  score: number;
  match_reason: string;
  values?: string[];
  /** For `dimensional_value`: the value and how many rows have it. */
  value?: string;
  count?: number;
}

const scopeSchema = t.Object({
  environment_name: t.Optional(t.String()),
  package_name: t.Optional(t.String()),
  model_uri: t.Optional(t.String()),
  source_name: t.Optional(t.String()),
});

const contextBody = t.Object({
  organization: t.String({ minLength: 1, error: "organization is required: the organization whose models are searched" }),
  search_targets: t.Array(t.Object({
    entity_type: t.Union([t.Literal("source"), t.Literal("dimension"), t.Literal("measure"), t.Literal("view"), t.Literal("dimensional_value")], {
      error: "entity_type must be one of source, dimension, measure, view, dimensional_value",
    }),
    search_text: t.Optional(t.String({ maxLength: 2_000, error: "search_text must be at most 2,000 characters: the words to search for, not a document" })),
  }), { minItems: 1, maxItems: 20, error: "search_targets must list 1 to 20 { entity_type, search_text? } entries" }),
  scopes: t.Optional(t.Union([scopeSchema, t.Array(scopeSchema, { maxItems: 20 })])),
  workspace: t.Optional(t.String()),
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 100, error: "limit must be an integer from 1 to 100" })),
});

function item(e: StoredEntity, score: number, reason: string): ContextItem {
  return {
    environment_name: e.origin?.environmentName ?? "",
    package_name: e.origin?.packageName ?? "",
    version_id: e.origin?.versionId ?? "",
    model_uri: e.modelPath,
    source_name: e.sourceName,
    name: e.name,
    field_type: e.fieldType,
    data_type: e.dataType,
    description: e.description ?? "",
    score,
    match_reason: reason,
    ...(e.values ? { values: e.values } : {}),
  };
}

function prominent(entities: StoredEntity[], type: TargetType): ContextItem[] {
  if (type === "dimensional_value") return valueItems(entities, null);
  if (type === "source") {
    const fields = new Map<string, number>();
    for (const e of entities) {
      if (e.kind === "dimension" || e.kind === "measure" || e.kind === "view") {
        const key = `${e.origin?.packageName}/${e.modelPath}#${e.sourceName}`;
        fields.set(key, (fields.get(key) ?? 0) + 1);
      }
    }
    return entities.filter((e) => e.kind === "source")
      .map((e) => ({ e, n: fields.get(`${e.origin?.packageName}/${e.modelPath}#${e.name}`) ?? 0 }))
      .sort((a, b) => b.n - a.n || Number(!!b.e.description) - Number(!!a.e.description) || a.e.name.localeCompare(b.e.name))
      .map(({ e, n }) => item(e, n, `prominence: ${n} fields${e.description ? ", documented" : ""}`));
  }
  return entities.filter((e) => e.kind === type)
    .map((e) => ({ e, p: (e.description ? 2 : 0) + (e.values ? 1 : 0) }))
    .sort((a, b) => b.p - a.p || a.e.name.localeCompare(b.e.name))
    .map(({ e, p }) => item(e, p, `prominence: ${[e.description ? "documented" : "", e.values ? "indexed" : ""].filter(Boolean).join(", ") || "undocumented"}`));
}

/** Lowercase words of a value or search text, camelCase kept whole (`FedEx` is `fedex`). */
function normalized(text: string): string {
  return text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w !== "").join(" ");
}

function valueItems(entities: StoredEntity[], text: string | null): ContextItem[] {
  const asked = text === null ? null : normalized(text);
  const out: ContextItem[] = [];
  for (const e of entities) {
    for (const v of e.indexedValues ?? []) {
      const value = normalized(v.value);
      let score = 1;
      if (asked !== null) {
        score = value === asked ? 1 : ` ${asked} `.includes(` ${value} `) || ` ${value} `.includes(` ${asked} `) ? 0.8
          : value.startsWith(asked) && asked.length >= 2 ? 0.6 : 0;
        if (score === 0) continue;
      }
      out.push({ ...item(e, score, asked === null ? `${v.count} rows` : `indexed value '${v.value}' of dimension ${e.name}`), value: v.value, count: v.count });
    }
  }
  return out.sort((a, b) => b.score - a.score || b.count! - a.count!);
}

async function searchTarget(
  ctx: AppContext,
  principal: Principal,
  request: { organization: string; workspace?: string; scope: SearchScope; type: TargetType; text?: string },
): Promise<ContextItem[]> {
  const text = request.text?.trim();
  if (!text || request.type === "dimensional_value") {
    const versions = await scopedVersions(ctx.sql, principal, { organization: request.organization, scope: request.scope, workspace: request.workspace });
    const entities = await scopedEntities(ctx.sql, versions, request.scope);
    return text ? valueItems(entities, text) : prominent(entities, request.type);
  }
  const found = await rankQuestion(ctx.sql, principal, {
    organization: request.organization, question: text, scope: request.scope, workspace: request.workspace, kinds: [request.type],
  });
  return mergeRankings(found.ranked).map((m) => item(m.entity as StoredEntity, m.score, m.matchReason));
}

/**
 * Searches (search targets x scopes) one `POST /retrieval/context` may ask
 * for: each ranks a scope's entities on the event loop (about 8 ms at 10,000
 * entities), and 20 x 20 made one request hold the loop for seconds.
 */
const MAX_SEARCHES = 50;

/** Routes of the retrieval family. */
export function retrievalRoutes(ctx: AppContext) {
  return new Elysia({ prefix: "/retrieval" })
    .use(security(ctx))
    .use(routeAccess(ctx))
    .post(
      "/context",
      async ({ body, principal }) => {
        const p = required(principal);
        const scopes: SearchScope[] = body.scopes === undefined ? [{}] : Array.isArray(body.scopes) ? body.scopes : [body.scopes];
        // each target is searched in each scope, on the event loop: one request may not ask for more than MAX_SEARCHES
        const searches = body.search_targets.length * scopes.length;
        if (searches > MAX_SEARCHES) {
          throw badRequest(`${body.search_targets.length} search_targets x ${scopes.length} scopes are ${searches} searches; one request makes at most ${MAX_SEARCHES}: send fewer targets or scopes, or several requests`);
        }
        for (const scope of scopes) checkScope(scope);
        const limit = body.limit ?? 10;
        const results = [];
        for (const target of body.search_targets) {
          const seen = new Set<string>();
          const items: ContextItem[] = [];
          for (const scope of scopes) {
            for (const it of await searchTarget(ctx, p, {
              organization: body.organization, workspace: body.workspace, scope, type: target.entity_type, text: target.search_text,
            })) {
              const key = `${it.environment_name}/${it.package_name}/${it.model_uri}#${it.source_name}/${it.name}=${it.value ?? ""}`;
              if (!seen.has(key)) {
                seen.add(key);
                items.push(it);
              }
            }
          }
          items.sort((a, b) => b.score - a.score);
          results.push({ entity_type: target.entity_type, search_text: target.search_text ?? null, items: items.slice(0, limit) });
        }
        return { results };
      },
      {
        body: contextBody,
        // any authenticated caller; only packages it may read are searched (scopedVersions), 404 for an organization it cannot see
        access: "custom:readable-packages",
        detail: {
          summary: "Search semantic-model context by entity type (source, dimension, measure, view, dimensional_value); without search_text the most prominent items",
          tags: ["retrieval"],
        },
      },
    );
}
