import { describe, expect, it } from "vitest";
import { call, create, expectError, recordedEvents, setPlan, signup } from "./helpers";

describe("deal stages", () => {
  it("allows moves between open stages and closing, reopening, and refuses won ↔ lost", async () => {
    const ws = await signup();
    const deal = await create(ws, "deals", { name: "Big one", value: 100000 });
    expect(deal).toMatchObject({ stage: "initial_contact", status: "open", closed_at: null });
    const move = (stage: string, extra: Record<string, unknown> = {}) => call("PUT", `/deals/${deal.id}`, { token: ws.token, body: { stage, ...extra } });

    expect((await move("proposal")).json.data).toMatchObject({ stage: "proposal", status: "open" });
    expect((await move("qualification")).json.data).toMatchObject({ stage: "qualification", status: "open" });
    const won = (await move("won", { value: 120000 })).json.data;
    expect(won).toMatchObject({ stage: "won", status: "won", value: 120000 });
    expect(won.closed_at).not.toBeNull();

    const refused = expectError(await move("lost"), 409, "invalid_transition");
    expect(refused.details).toEqual([
      {
        path: "stage",
        message: "a won deal cannot move to lost directly; reopen it first",
        from: "won",
        to: "lost",
        allowed: ["initial_contact", "qualification", "meeting", "proposal", "negotiation"],
      },
    ]);
    const reopened = (await move("negotiation")).json.data;
    expect(reopened).toMatchObject({ stage: "negotiation", status: "open", closed_at: null });
    expect((await move("lost", { lost_reason: "budget" })).json.data).toMatchObject({ status: "lost", lost_reason: "budget" });
    expectError(await move("won"), 409, "invalid_transition");
    expectError(await move("closed"), 400, "validation_error");

    const events = await recordedEvents(ws.workspaceId, "deal.stage_changed");
    expect(events.map((e) => [e.previous_attributes.stage, e.data.stage])).toEqual([
      ["initial_contact", "proposal"],
      ["proposal", "qualification"],
      ["qualification", "won"],
      ["won", "negotiation"],
      ["negotiation", "lost"],
    ]);
    // Setting the stage it already has is a no-op: no event.
    await move("lost");
    await call("PUT", `/deals/${deal.id}`, { token: ws.token, body: { value: 1 } });
    expect(await recordedEvents(ws.workspaceId, "deal.stage_changed")).toHaveLength(5);
  });

  it("never lets racing updates both pass the stage rules (won and lost at once)", async () => {
    const ws = await signup();
    await setPlan(ws, "pro");
    for (let round = 0; round < 5; round++) {
      const deal = await create(ws, "deals", { name: `Race ${round}`, stage: "negotiation" });
      const [won, lost] = await Promise.all(["won", "lost"].map((stage) => call("PUT", `/deals/${deal.id}`, { token: ws.token, body: { stage } })));
      expect([won!.status, lost!.status].sort()).toEqual([200, 409]);
      const final = (await call("GET", `/deals/${deal.id}`, { token: ws.token })).json.data.stage;
      expect(final).toBe(won!.status === 200 ? "won" : "lost");
    }
    const changes = await recordedEvents(ws.workspaceId, "deal.stage_changed");
    expect(changes).toHaveLength(5);
  });

  it("refuses an invalid transition inside an atomic batch without writing anything", async () => {
    const ws = await signup();
    const deal = await create(ws, "deals", { name: "D", stage: "won" });
    const other = await create(ws, "deals", { name: "E" });
    const res = await call("POST", "/deals/batch", {
      token: ws.token,
      body: {
        operations: [
          { op: "update", id: other.id, data: { stage: "meeting" } },
          { op: "update", id: deal.id, data: { stage: "lost" } },
        ],
      },
    });
    expect(expectError(res, 400, "validation_error").details[0]).toMatchObject({ index: 1, path: "operations.1.data.stage" });
    expect((await call("GET", `/deals/${other.id}`, { token: ws.token })).json.data.stage).toBe("initial_contact");
    expect(await recordedEvents(ws.workspaceId, "deal.stage_changed")).toHaveLength(0);
  });
});
