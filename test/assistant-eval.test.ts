import { describe, expect, it } from "vitest";
import { platform } from "../src/index";
import { CORPUS } from "../src/packages/assistant/corpus";
import trained from "../src/packages/assistant/model.json";
import { type Plan, understand } from "../src/packages/assistant/understand";
import { EVAL_NOW, EVAL_SET, type EvalCase, HELD_OUT } from "./assistant-eval";

/** Where a plan differs from what the case expects ("" when it matches). */
function mismatch(plan: Plan, { expect: want }: EvalCase): string {
  if (plan.intent !== want.intent) return `intent ${plan.intent}, wanted ${want.intent}`;
  const problems: string[] = [];
  const same = (what: string, got: unknown, wanted: unknown) => {
    if (JSON.stringify(got) !== JSON.stringify(wanted)) problems.push(`${what} ${JSON.stringify(got)}, wanted ${JSON.stringify(wanted)}`);
  };
  if (want.intent === "metric" && plan.intent === "metric") {
    same("widget", plan.widget, want.widget);
    if (want.period) same("period", plan.period, want.period);
    if (want.pick) same("pick", plan.pick?.text.toLowerCase(), want.pick);
  }
  if ((want.intent === "list" || want.intent === "count") && (plan.intent === "list" || plan.intent === "count")) {
    same("resource", plan.resource, want.resource);
    for (const [key, value] of Object.entries(want.query ?? {})) same(`query.${key}`, plan.query[key], value);
    for (const [key, value] of Object.entries(want.refs ?? {})) same(`refs.${key}`, plan.refs[key]?.text, value);
  }
  if (want.intent === "lookup" && plan.intent === "lookup") {
    if (want.resource) same("resource", plan.resources[0], want.resource);
    if (want.field !== undefined) same("field", plan.field, want.field);
    if (want.name) same("name", plan.name?.toLowerCase(), want.name.toLowerCase());
    if (want.reference) same("reference", plan.reference, want.reference);
  }
  if (want.intent === "action" && plan.intent === "action") {
    same("action", plan.action, want.action);
    for (const [key, value] of Object.entries(want.values ?? {})) same(`values.${key}`, plan.values[key], value);
    for (const [key, value] of Object.entries(want.refs ?? {})) same(`refs.${key}`, plan.refs[key]?.text, value);
  }
  return problems.join("; ");
}

async function score(cases: EvalCase[]) {
  const failures: string[] = [];
  for (const testCase of cases) {
    const problem = mismatch(await understand(testCase.message, EVAL_NOW, platform.registry), testCase);
    if (problem) failures.push(`${JSON.stringify(testCase.message)}: ${problem}`);
  }
  return { correct: cases.length - failures.length, failures };
}

describe("the assistant's evaluation set", () => {
  it(`understands at least 95 % of ${EVAL_SET.length + HELD_OUT.length} varied messages`, async () => {
    expect(EVAL_SET.length + HELD_OUT.length).toBeGreaterThanOrEqual(150);
    const tuned = await score(EVAL_SET);
    const held = await score(HELD_OUT);
    const total = EVAL_SET.length + HELD_OUT.length;
    const accuracy = (tuned.correct + held.correct) / total;
    const pct = (n: number, d: number) => `${((n / d) * 100).toFixed(1)} %`;
    console.log(
      `assistant evaluation: ${tuned.correct + held.correct}/${total} = ${pct(tuned.correct + held.correct, total)}` +
        ` (held out: ${held.correct}/${HELD_OUT.length} = ${pct(held.correct, HELD_OUT.length)})` +
        [...tuned.failures, ...held.failures.map((failure) => `[held out] ${failure}`)].map((failure) => `\n  ${failure}`).join(""),
    );
    expect(accuracy).toBeGreaterThanOrEqual(0.95);
  });
});

describe("the trained model", () => {
  it("was trained on the current corpus (run npm run assistant:train after changing it)", async () => {
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(JSON.stringify(CORPUS))));
    expect(Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("")).toBe(trained.corpusHash);
  });
});
