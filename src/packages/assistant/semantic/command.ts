import { escapeRegExp } from "../text";
import type { ActionEnv, Built } from "./action";
import type { SchemaModel } from "./model";
import { findNamed, labelOf } from "./names";

const LEAD_IN = /^(?:(?:please|pls|hey|ok|okay|can you|could you|would you|go ahead and)\s+)+/i;
/** Words after the person that say nothing more ("clock in Brian now", "… for me please"). */
const TRAILING = /\s+(?:now|right now|please|pls|thanks|thank you|for today|today)\s*[.!]*$/i;

/**
 * A command a resource's skill declares on its collection ("clock in Brian", "clock out Ana"): the person it
 * names is found among the employees (as any name is), and the request is proposed for the user to confirm.
 * Null when no skill's command starts the message.
 */
export async function collectionCommand(env: ActionEnv, message: string): Promise<Built | null> {
  const text = message
    .trim()
    .replace(LEAD_IN, "")
    .replace(/[.!]+$/, "");
  const lower = text.toLowerCase();
  for (const R of env.schema.resources) {
    for (const command of R.skill?.commands ?? []) {
      const word = [...command.words].sort((a, b) => b.length - a.length).find((candidate) => lower.startsWith(`${candidate} `));
      if (!word) continue;
      const who = text.slice(word.length).replace(TRAILING, "").trim();
      const people = peopleOf(env.schema);
      if (!people) return null;
      const found = await findNamed(env.fetch, [people], who);
      if (found.kind === "error") return { kind: "fail", text: env.refuse(found.error) };
      if (found.kind === "none") return { kind: "fail", text: `I couldn't find an employee named ${who}.` };
      if (found.kind === "many") {
        const names = found.options.slice(0, 5).map((option) => option.label);
        return { kind: "fail", text: `Which one: ${names.join(", ")}? Say “${word} <their full name>”.` };
      }
      const label = labelOf(people, found.found.record);
      const id = found.found.record.id as number;
      return {
        kind: "proposal",
        draft: { resource: R.name, operation: command.name, target: null, fields: { [command.person]: id }, labels: { [command.person]: label } },
        request: { method: command.method, path: command.path, body: { [command.person]: id } },
        summary: `${command.label} ${label}`,
        records: [{ resource: people.name, id, label }],
      };
    }
  }
  return null;
}

const peopleOf = (schema: SchemaModel) => schema.byName.get("employees") ?? null;

/** Words around a person's name in a question for a report about them ("what's Ana's …", "… for Brian?"). */
const FILLER =
  /\b(what|whats|what's|how|much|many|is|are|does|do|has|have|show|me|tell|give|the|of|for|left|remaining|current|currently|this|year|please|pls)\b|'s\b|’s\b|[?.!,]/gi;

export type PersonReport = { text: string; record: { resource: string; id: number; label: string } };

/**
 * A report a package serves about one person ("Ana's leave balance"): the words ask for it, the rest of the
 * message names the employee (found as any name is), and the package's route answers as the user would see it.
 */
export async function personReport(env: ActionEnv, message: string): Promise<PersonReport | { fail: string } | null> {
  const lower = ` ${message.toLowerCase()} `;
  for (const R of env.schema.resources) {
    for (const report of R.skill?.personReports ?? []) {
      const words = [...report.words].sort((a, b) => b.length - a.length).find((candidate) => lower.includes(` ${candidate}`));
      if (!words) continue;
      const people = peopleOf(env.schema);
      if (!people) return null;
      const who = message
        .replace(new RegExp(escapeRegExp(words), "i"), " ")
        .replace(FILLER, " ")
        .replace(/\s+/g, " ")
        .trim();
      if (!who) return { fail: `Whose? Say “${words} of <their name>”.` };
      const found = await findNamed(env.fetch, [people], who);
      if (found.kind === "error") return { fail: env.refuse(found.error) };
      if (found.kind === "none") return { fail: `I couldn't find an employee named ${who}.` };
      if (found.kind === "many")
        return {
          fail: `Which one: ${found.options
            .slice(0, 5)
            .map((option) => option.label)
            .join(", ")}?`,
        };
      const label = labelOf(people, found.found.record);
      const id = found.found.record.id as number;
      const result = await env.fetch(report.path.replace("{id}", String(id)));
      if (!result.ok) return { fail: env.refuse(result.error) };
      return { text: report.answer(result.data, label), record: { resource: people.name, id, label } };
    }
  }
  return null;
}
