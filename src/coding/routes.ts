/**
 * Coding REST family (assistant support for the editor extension):
 * `GET /coding/docs/search` (plain text), `POST /coding/docs/answer`,
 * `GET /coding/manifests`, `GET /coding/manifests/{name}/skills` (Bearer or
 * ApiKey) and `GET /coding/extension-version` (no authentication).
 * @module
 */
import { Elysia, t } from "elysia";
import type { AppContext } from "../context.ts";
import { requestMeta } from "../http/request_meta.ts";
import { badRequest, notFound } from "../http/errors.ts";
import { name } from "../http/params.ts";
import { publicAccess, routeAccess } from "../http/route_access.ts";
import { security } from "../http/security.ts";
import { answerQuestion } from "./docs_answer.ts";
import { searchDocs, type ScoredPassage } from "./docs_index.ts";
import { checkExtensionVersion } from "./extension_version.ts";
import { findManifest, listManifests } from "./manifests.ts";

const tags = ["coding"];

const limitSchema = t.Optional(t.Integer({ minimum: 1, maximum: 20, error: "limit must be an integer from 1 to 20" }));

/** The plain-text body of a documentation search. */
function plainTextPassages(query: string, passages: ScoredPassage[]): string {
  if (passages.length === 0) return `No documentation matched "${query}". Try the Malloy keyword you need (source, join_one, measure, view, where).\n`;
  return passages.map((p) => `## ${p.title}\n(${p.source}, score ${p.score})\n\n${p.text}\n`).join("\n");
}

/** Authenticated routes of the coding family. */
export function codingRoutes(ctx: AppContext) {
  return new Elysia({ prefix: "/coding" })
    .use(security(ctx))
    .use(routeAccess(ctx))
    .get(
      "/docs/search",
      async ({ query }) => {
        const q = query.q.trim();
        if (q === "") throw badRequest("q must not be blank: ask a question, e.g. ?q=how to define a measure");
        const passages = await searchDocs(q, { limit: query.limit ?? 3 });
        return new Response(plainTextPassages(q, passages), { headers: { "content-type": "text/plain; charset=utf-8" } });
      },
      {
        query: t.Object({
          q: t.String({ minLength: 1, maxLength: 1000, error: "q is required: the question or keywords to search the documentation for (at most 1000 characters)" }),
          limit: t.Optional(t.Numeric({ minimum: 1, maximum: 20, error: "limit must be an integer from 1 to 20" })),
        }),
        access: "authenticated",
        detail: { summary: "Search the documentation; the best passages as plain text with their headings", tags },
      },
    )
    .post(
      "/docs/answer",
      async ({ body }) => {
        const question = body.question.trim();
        if (question === "") throw badRequest("question must not be blank");
        const llm = { baseUrl: ctx.config.llmBaseUrl, model: ctx.config.llmModel, apiKey: ctx.config.llmApiKey, timeoutMs: ctx.config.llmTimeoutMs };
        return await answerQuestion(question, { limit: body.limit, llm });
      },
      {
        body: t.Object({
          question: t.String({ minLength: 1, maxLength: 2000, error: "question is required: 1-2000 characters" }),
          limit: limitSchema,
        }),
        access: "authenticated",
        detail: {
          summary: "Answer a question from the packaged Malloy documentation: answer, passages and Malloy code snippets",
          description: "Synthesized by the configured language model (LLM_BASE_URL) from the passages; without one, or when it fails, extractive.",
          tags,
        },
      },
    )
    .get(
      "/manifests",
      async () => {
        return (await listManifests()).map(({ skills, ...m }) => ({ ...m, skillCategories: Object.keys(skills) }));
      },
      { access: "authenticated", detail: { summary: "List the assistant manifests the service ships", tags } },
    )
    .get(
      "/manifests/:name/skills",
      async ({ params }) => {
        const manifest = await findManifest(params.name);
        if (!manifest) {
          const known = (await listManifests()).map((m) => m.name).join(", ");
          throw notFound(`manifest '${params.name}' not found; known manifests: ${known}`);
        }
        return { name: manifest.name, version: manifest.version, skills: manifest.skills };
      },
      {
        params: t.Object({ name: name("manifest name") }),
        access: "authenticated",
        detail: { summary: "The categorized skill set of an assistant manifest", tags },
      },
    );
}

/** The unauthenticated route of the coding family (rate-limited per client address). */
export function extensionVersionRoutes(ctx: AppContext) {
  return new Elysia({ prefix: "/coding" }).use(publicAccess).get(
    "/extension-version",
    ({ query, request }) => {
      ctx.limiter.take(`address:${requestMeta(request)?.address ?? "unknown"}`);
      const check = checkExtensionVersion(query.version, { minimum: ctx.config.extensionMinVersion, latest: ctx.config.extensionLatestVersion });
      if (!check) throw badRequest(`version '${query.version}' is not a semantic version; send three dot-separated integers, e.g. ?version=1.2.3`);
      return check;
    },
    {
      query: t.Object({ version: t.String({ minLength: 1, maxLength: 64, error: "version is required, e.g. ?version=1.2.3" }) }),
      access: "public",
      detail: {
        summary: "Is this editor-extension version supported? (no authentication)",
        description: "Compares with EXTENSION_MIN_VERSION (oldest supported) and EXTENSION_LATEST_VERSION (newest available).",
        tags,
        security: [],
      },
    },
  );
}
