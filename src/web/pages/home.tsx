import { type Context, Hono } from "hono";
import type { AppEnv } from "../../platform/context";
import { dispatch } from "../../platform/dispatch";
import { fieldErrors, Notice, render, signedIn } from "../../platform/web/page";
import type { PageSession } from "../../platform/web/session";
import { PERIODS } from "../../platform/widgets";
import { WidgetCard, type WidgetView } from "../charts";

const PERIOD_LABELS: Record<string, string> = {
  "7d": "Last 7 days",
  "30d": "Last 30 days",
  "90d": "Last 90 days",
  "12mo": "Last 12 months",
  mtd: "Month to date",
  ytd: "Year to date",
  custom: "Custom range",
};

/** The dashboard: the workspace's widgets for a period (named, or from/to), each linked to the list it summarises. */
export const homePages = new Hono<AppEnv>();

type Step = { done: boolean; label: string; href: string };

/**
 * A new workspace's first steps: a customer, an invoice, a second user, a webhook — read from the API as
 * the user (steps the role cannot take are left out). Shown until every step is done.
 */
async function gettingStarted(c: Context<AppEnv>, session: PageSession): Promise<Step[]> {
  const has = async (path: string) => {
    const result = await dispatch<unknown[]>(c, session.principal, "GET", path);
    return result.ok ? result.data.length > 0 : null;
  };
  const [customers, invoices, users, webhooks] = await Promise.all([
    has("/customers?limit=1"),
    has("/invoices?limit=1"),
    dispatch<unknown[]>(c, session.principal, "GET", "/users?limit=2").then((result) => (result.ok ? result.data.length > 1 : null)),
    has("/webhooks?limit=1"),
  ]);
  const steps: (Step | null)[] = [
    customers === null ? null : { done: customers, label: "Add your first customer", href: "/app/customers/new" },
    invoices === null ? null : { done: invoices, label: "Create and send an invoice", href: "/app/invoices/new" },
    users === null ? null : { done: users, label: "Invite a colleague", href: "/app/settings/users" },
    webhooks === null ? null : { done: webhooks, label: "Add a webhook for your systems", href: "/app/settings/webhooks" },
  ];
  return steps.filter((step): step is Step => step !== null);
}

/** A widget with nothing to show: zero, no money, no percentage, an all-zero series, no items. */
function isEmpty(widget: WidgetView): boolean {
  const blank = (value: unknown) => value === null || value === 0 || (typeof value === "object" && Object.keys(value as object).length === 0);
  const data = widget.data;
  if (widget.kind === "stat") return blank(data.value);
  if (widget.kind === "series") return ((data.points ?? []) as { value: unknown }[]).every((point) => blank(point.value));
  return ((data.items ?? []) as unknown[]).length === 0;
}

homePages.get(
  "/app",
  signedIn(async (c, session) => {
    const query = c.req.query();
    const custom = Boolean(query.from || query.to) || query.period === "custom";
    const period = !custom && (PERIODS as readonly string[]).includes(query.period ?? "") ? query.period! : custom ? "custom" : "30d";
    const params = custom ? new URLSearchParams({ from: query.from ?? "", to: query.to ?? "" }) : new URLSearchParams({ period });
    const [result, steps] = await Promise.all([dispatch<WidgetView[]>(c, session.principal, "GET", `/dashboard?${params}`), gettingStarted(c, session)]);
    const widgets = result.ok ? result.data : [];
    const meta = result.ok ? (result.meta as { from: string; to: string }) : null;
    const open = steps.filter((step) => !step.done);
    // Nothing to chart yet: the first steps take the place of empty cards.
    const fresh = open.length > 0 && widgets.every(isEmpty);
    const errors = result.ok ? {} : fieldErrors(result.error);
    return render(c, session, {
      status: result.ok ? 200 : 400,
      title: "Dashboard",
      active: "/app",
      body: (
        <>
          <div class="bar">
            <div>
              <h1>Dashboard</h1>
              <p class="lead flush">{meta ? `${meta.from} – ${meta.to} (UTC)` : ""}</p>
            </div>
            <form method="get" action="/app" id="period-form" class="period">
              <div class="field">
                <label for="period">Period</label>
                <select id="period" name="period">
                  {[...PERIODS, "custom"].map((name) => (
                    <option value={name} selected={name === period}>
                      {PERIOD_LABELS[name]}
                    </option>
                  ))}
                </select>
              </div>
              <div class="field">
                <label for="from">From</label>
                <input id="from" type="date" name="from" value={custom ? (query.from ?? "") : ""} aria-describedby={errors.from ? "from-error" : undefined} />
              </div>
              <div class="field">
                <label for="to">To</label>
                <input id="to" type="date" name="to" value={custom ? (query.to ?? "") : ""} aria-describedby={errors.to ? "to-error" : undefined} />
              </div>
              <button type="submit" class="secondary small">
                Show
              </button>
            </form>
          </div>
          {result.ok ? null : <Notice kind="error">{Object.values(errors)[0] ?? result.error.message}</Notice>}
          {open.length > 0 ? (
            <section class="card spaced checklist" aria-label="Getting started">
              <h2>Getting started</h2>
              <ol>
                {steps.map((step) => (
                  <li class={step.done ? "done" : undefined}>
                    {step.done ? (
                      <>
                        <span class="sr-only">Done: </span>
                        {step.label}
                      </>
                    ) : (
                      <a href={step.href}>{step.label}</a>
                    )}
                  </li>
                ))}
              </ol>
            </section>
          ) : null}
          {!fresh && widgets.length === 0 && result.ok ? (
            <p class="empty">No widgets: every package with widgets is disabled, or your role cannot read their data.</p>
          ) : null}
          {fresh ? null : (
            <div class="grid">
              {widgets.map((widget) => (
                <WidgetCard widget={widget} />
              ))}
            </div>
          )}
        </>
      ),
      // A named period applies as soon as it is chosen; a custom range when its dates are in.
      script: `document.getElementById("period").addEventListener("change", (e) => { if (e.target.value !== "custom") { e.target.form.from.value = ""; e.target.form.to.value = ""; e.target.form.submit(); } });`,
    });
  }),
);
