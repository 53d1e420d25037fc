import { count } from "drizzle-orm";
import { defineWidget, largestFirst } from "../../platform/widgets";
import { candidates } from "./schema";

export const recruitmentWidgets = [
  defineWidget({
    key: "recruitment.pipeline",
    link: () => "/app/candidates?view=board",
    title: "Hiring pipeline",
    description: "Candidates by stage, now",
    kind: "breakdown",
    unit: "count",
    reads: ["candidates"],
    query: ({ tenant }) => ({
      statements: [tenant.selectFrom({ label: candidates.stage, value: count() }, candidates).groupBy(candidates.stage)],
      build: ([rows]) => ({ items: largestFirst(rows as { label: string; value: number }[]) }),
    }),
  }),
];
