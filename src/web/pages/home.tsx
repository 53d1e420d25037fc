import { Hono } from "hono";
import type { AppEnv } from "../../platform/context";
import { dispatch } from "../../platform/dispatch";
import { render, signedIn } from "../../platform/web/page";
import { PERIODS } from "../../platform/widgets";
import { WidgetCard, type WidgetView } from "../charts";

const PERIOD_LABELS: Record<string, string> = {
  "7d": "Last 7 days",
  "30d": "Last 30 days",
  "90d": "Last 90 days",
  "12mo": "Last 12 months",
  mtd: "Month to date",
  ytd: "Year to date",
};

/** The dashboard: the workspace's widgets for a period. */
export const homePages = new Hono<AppEnv>();

homePages.get(
  "/app",
  signedIn(async (c, session) => {
    const period = (PERIODS as readonly string[]).includes(c.req.query("period") ?? "") ? c.req.query("period")! : "30d";
    const result = await dispatch<WidgetView[]>(c, session.principal, "GET", `/dashboard?period=${period}`);
    const widgets = result.ok ? result.data : [];
    return render(c, session, {
      title: "Dashboard",
      active: "/app",
      body: (
        <>
          <div class="bar">
            <div>
              <h1>Dashboard</h1>
              <p class="lead flush">
                {result.ok ? `${(result.meta as { from: string; to: string }).from} – ${(result.meta as { from: string; to: string }).to} (UTC)` : ""}
              </p>
            </div>
            <form method="get" action="/app" id="period-form">
              <label for="period" class="flush">
                Period
              </label>
              <select id="period" name="period">
                {PERIODS.map((name) => (
                  <option value={name} selected={name === period}>
                    {PERIOD_LABELS[name]}
                  </option>
                ))}
              </select>{" "}
              <button type="submit" class="secondary small">
                Show
              </button>
            </form>
          </div>
          {widgets.length === 0 ? <p class="empty">No widgets: every package with widgets is disabled, or your role cannot read their data.</p> : null}
          <div class="grid">
            {widgets.map((widget) => (
              <WidgetCard widget={widget} />
            ))}
          </div>
        </>
      ),
      script: `document.getElementById("period").addEventListener("change", (e) => e.target.form.submit());`,
    });
  }),
);
