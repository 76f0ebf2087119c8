/**
 * Demo routes: `POST /organizations/{org}/demo-environment` and
 * `POST /demo/organizations`.
 * @module
 */
import { Elysia, t } from "elysia";
import { required, requiredUser } from "../http/auth.ts";
import type { AppContext } from "../context.ts";
import { name, orgParams } from "../http/params.ts";
import { routeAccess } from "../http/route_access.ts";
import { organizationRules } from "../organizations/route_rules.ts";
import { security } from "../http/security.ts";
import { organizationView } from "../organizations/store.ts";
import { createDemoEnvironment, createSandbox } from "./store.ts";

const API = "/api/v0";

const demoEnvBody = t.Optional(t.Object({ name: t.Optional(name("name")) }));
const selfServiceBody = t.Optional(t.Object({
  name: t.Optional(name("name")),
  displayName: t.Optional(t.String({ maxLength: 200, error: "displayName must be at most 200 characters" })),
  demoEnvironment: t.Optional(t.Boolean({ error: "demoEnvironment must be true or false" })),
}));

/** Routes of the demo operations. */
export function demoRoutes(ctx: AppContext) {
  const tags = ["demo"];
  return new Elysia()
    .use(security(ctx))
    .use(routeAccess(ctx))
    .use(organizationRules(ctx))
    .post(
      "/organizations/:org/demo-environment",
      async ({ org, params, principal, body, set }) => {
        const p = required(principal);
        set.status = 201;
        return await createDemoEnvironment(ctx, { id: org.id, name: params.org }, {
          name: body?.name,
          creatorUserId: p.kind === "user" ? p.userId : null,
          pathPrefix: API,
        });
      },
      {
        params: orgParams,
        orgAccess: "modeler",
        body: demoEnvBody,
        detail: {
          summary: "Create a demo environment with a ready sample package (organization admin or modeler)",
          description: "Creates environment `name` (default `demo`, then `demo-2`, `demo-3`, ...; an existing name is 409) and " +
            "publishes the sample package `shop` (version 1.0.0: 2,000 generated orders in `data/orders.csv`, the model " +
            "`models/shop.malloy` (source `orders`) with documented dimensions, measures, views and the named query `category_revenue`, and a web " +
            "app in `public/`). The creator becomes the environment's admin. Answers 201 `{ environment, package: { name, " +
            "latestVersion, models, app }, tryQuery: { method, path, body } }`.",
          tags,
        },
      },
    )
    .post(
      "/demo/organizations",
      async ({ principal, body, set }) => {
        const user = requiredUser(principal);
        const { org, demo } = await createSandbox(ctx, user, { ...body, pathPrefix: API });
        set.status = 201;
        return { ...organizationView(org), permission: "admin", demoEnvironment: demo };
      },
      {
        body: selfServiceBody,
        access: "user",
        detail: {
          summary: "Create a self-service organization; the caller becomes its admin (any user, one organization per user)",
          description: "Any authenticated user (an access token; API keys are 403). `name` defaults to `<userName>-sandbox-<6 hex>`. " +
            "With `demoEnvironment` (default true) the organization gets a demo environment as `POST .../demo-environment` " +
            "makes it (answered in `demoEnvironment`); when the demo environment cannot be made, the organization is removed again and the error answered. Limit: a user who already created an organization (self-service or " +
            "with an invite) gets 409; system admins are not limited. Rate limits apply as everywhere. Answers 201 with the " +
            "organization (`permission: admin`).",
          tags,
        },
      },
    );
}
