import { describe, expect, it } from "vitest";
import { platform } from "../src/index";
import { byId, EVALUATION, heldOut, ITEMS, SETS } from "./assistant-eval-v2/split";

const OPS = new Set(["in", "not_in", "eq", "ne", "gt", "gte", "lt", "lte", "contains"]);
const AGGREGATES = new Set(["list", "count", "sum", "avg", "min", "max"]);

describe("the blind evaluation set", () => {
  it("has 840 well-formed messages (and 300 in each later writer's set, the training part reworded) over the API's own resources, follow-ups after what they follow", () => {
    const resources = new Set(platform.registry.definitions().map(({ definition }) => definition.name));
    const problems: string[] = [];
    const seen = new Set<string>();
    for (const item of ITEMS) {
      if (seen.has(item.id)) problems.push(`${item.id}: duplicate id`);
      seen.add(item.id);
      if (!item.message?.trim()) problems.push(`${item.id}: no message`);
      if (item.after && !seen.has(item.after)) problems.push(`${item.id}: follows ${item.after}, which does not come before it`);
      if (item.kind === "query") {
        if (!resources.has(item.query?.resource ?? "")) problems.push(`${item.id}: unknown resource ${item.query?.resource}`);
        for (const filter of item.query?.filters ?? []) if (!OPS.has(filter.op)) problems.push(`${item.id}: unknown op ${filter.op}`);
        if (item.query?.aggregate && !AGGREGATES.has(item.query.aggregate.fn)) problems.push(`${item.id}: unknown aggregate ${item.query.aggregate.fn}`);
      } else if (item.kind === "action") {
        if (!resources.has(item.action?.resource ?? "")) problems.push(`${item.id}: unknown resource ${item.action?.resource}`);
        if (!item.action?.operation) problems.push(`${item.id}: no operation`);
      } else if (item.kind !== "refusal") problems.push(`${item.id}: unknown kind ${item.kind}`);
    }
    expect(problems).toEqual([]);
    expect(EVALUATION.length).toBe(840);
    const rewordings = new Set(["tuning-v", "tuning-x"]);
    for (const set of SETS) if (!rewordings.has(set.name)) expect(set.items.length, set.name).toBe(300);
    // The reworded training part: each message's interpretation is a training message's, never a held-out one's.
    const training = new Set(EVALUATION.filter((item) => !heldOut(item)).map(({ kind, query, action }) => JSON.stringify({ kind, query, action })));
    for (const [name, least] of [
      ["tuning-v", 600],
      ["tuning-x", 490],
    ] as const) {
      const reworded = SETS.find((set) => set.name === name)!.items;
      expect(reworded.length, name).toBeGreaterThan(least);
      for (const { id, kind, query, action } of reworded) expect(training.has(JSON.stringify({ kind, query, action })), id).toBe(true);
    }
    const kinds = Object.groupBy(EVALUATION, (item) => item.kind);
    expect(kinds.refusal!.length).toBeGreaterThanOrEqual(40);
    expect(kinds.action!.length).toBeGreaterThanOrEqual(140);
  });

  it("holds out about 40 % of the evaluation set, whole conversations at a time, and none of the tuning set", () => {
    const held = EVALUATION.filter(heldOut);
    expect(held.length / EVALUATION.length).toBeGreaterThan(0.33);
    expect(held.length / EVALUATION.length).toBeLessThan(0.47);
    expect(SETS.flatMap((set) => set.items).filter(heldOut)).toEqual([]);
    for (const item of ITEMS) if (item.after) expect(heldOut(item), item.id).toBe(heldOut(byId.get(item.after)!));
  });
});
