import { Hono } from "hono";
import type { AppEnv } from "../../platform/context";
import { posted, refusalPage, text } from "../../platform/web/page";
import { api, pageContext } from "../../platform/web/records";
import { ticketResource } from "./tickets";

/** POST /app/tickets/{id}/reply: the form above, through POST /ticket-replies as the signed-in user. */
export const threadPages = new Hono<AppEnv>().post(
  "/app/tickets/:id{[0-9]{1,16}}/reply",
  posted(async (c, session, form) => {
    const id = Number(c.req.param("id"));
    const ctx = pageContext(c, session, ticketResource);
    const internal = text(form, "internal") === "true";
    const result = await api(ctx, "POST", "/ticket-replies", { ticket_id: id, body: text(form, "body"), internal });
    if (!result.ok) return refusalPage(c, session, result.error, result.status, `/app/tickets/${id}`);
    return c.redirect(`/app/tickets/${id}?done=${internal ? "noted" : "replied"}`, 303);
  }),
);
