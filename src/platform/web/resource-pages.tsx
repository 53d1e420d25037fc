import { type Context, Hono } from "hono";
import type { AppEnv } from "../context";
import type { AnyResource } from "../resource/definition";
import { csvExport } from "./csv-export";
import { importPage, submitImport } from "./csv-import";
import { labelOf } from "./fields";
import { listPage } from "./list-page";
import { param, posted, signedIn } from "./page";
import { formPage, submitForm } from "./record-form";
import { deleteRecord, moveCard, recordPage, runAction } from "./record-page";
import { api, offers, type PageContext, pageContext } from "./records";
import type { NavEntry } from "./shell";

const ID = ":id{[0-9]{1,16}}";

/**
 * The pages of a resource, generated from its definition (fields, types, enums, references, filters,
 * sort keys, actions and its `ui` hints), at /app/{resource}: the list (and board), CSV export, the record
 * with its related rows and timeline, the create and edit forms, delete, and the API's actions. Each asks
 * the API in-process as the signed-in user. A package lists them in its manifest's `pages`; a hand-written
 * view registered before them takes their place.
 */
export function resourcePages(def: AnyResource): Hono<AppEnv> & { resource: AnyResource } {
  const app = new Hono<AppEnv>();
  const base = `/app/${def.name}`;
  const id = (c: Context<AppEnv>) => Number(param(c, "id"));
  const page = (handler: (ctx: PageContext) => Promise<Response>) => signedIn((c, session) => handler(pageContext(c, session, def)));
  const post = (handler: (ctx: PageContext, form: FormData) => Promise<Response>) => posted((c, session, form) => handler(pageContext(c, session, def), form));
  const forms = !def.ui?.replaces?.form;

  app.get(base, page(listPage));
  app.get(`${base}.csv`, page(csvExport));
  if (forms && offers(def, "create")) {
    // A new record may start from the link that leads to it (/app/payments/new?invoice_id=12).
    app.get(
      `${base}/new`,
      page((ctx) => formPage(ctx, "create", { initial: ctx.c.req.query() })),
    );
    app.post(
      base,
      post((ctx, form) => submitForm(ctx, "create", form)),
    );
  }
  if (forms && offers(def, "update")) {
    app.get(
      `${base}/${ID}/edit`,
      page((ctx) => editPage(ctx, id(ctx.c))),
    );
    app.post(
      `${base}/${ID}`,
      post((ctx, form) => submitForm(ctx, "update", form, id(ctx.c))),
    );
  }
  if (def.ui?.importable) {
    app.get(`${base}/import`, page(importPage));
    app.post(`${base}/import`, post(submitImport));
  }
  app.get(
    `${base}/${ID}`,
    page((ctx) => recordPage(ctx, id(ctx.c))),
  );
  if (offers(def, "delete"))
    app.post(
      `${base}/${ID}/delete`,
      post((ctx) => deleteRecord(ctx, id(ctx.c))),
    );
  if (def.ui?.board)
    app.post(
      `${base}/${ID}/move`,
      post((ctx, form) => moveCard(ctx, id(ctx.c), form)),
    );
  for (const action of def.ui?.actions ?? [])
    app.post(
      `${base}/${ID}/${action.name}`,
      post((ctx, form) => runAction(ctx, id(ctx.c), action, form)),
    );
  // The route table (npm run routes) names the definition's file for these pages.
  return Object.assign(app, { resource: def });
}

async function editPage(ctx: PageContext, id: number) {
  const found = await api(ctx, "GET", `/${ctx.def.name}/${id}`);
  if (!found.ok) return recordPage(ctx, id);
  return formPage(ctx, "update", { record: found.data });
}

/** A resource's entry in the navigation: its list, shown to roles that may read it. */
export function resourceNav(def: AnyResource): NavEntry {
  return { href: `/app/${def.name}`, label: labelOf(def.name.replaceAll("-", "_")), resource: def.name };
}
