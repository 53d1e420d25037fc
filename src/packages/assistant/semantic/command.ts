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
