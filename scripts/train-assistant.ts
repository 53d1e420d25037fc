// npm run assistant:train — trains the assistant's intent classifier (@nlpjs/nlp) on its corpus and writes
// the model the worker loads (src/packages/assistant/model.json). Deterministic for a given corpus; a test
// fails when the corpus changed and the model was not retrained.
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { newClassifier } from "../src/packages/assistant/classifier";
import { CORPUS } from "../src/packages/assistant/corpus";

const corpusHash = createHash("sha256").update(JSON.stringify(CORPUS)).digest("hex");
const nlp = await newClassifier();
for (const [intent, utterances] of Object.entries(CORPUS)) for (const utterance of utterances) nlp.addDocument("en", utterance, intent);
const started = performance.now();
await nlp.train();
const model = JSON.parse(nlp.export(true));
writeFileSync("src/packages/assistant/model.json", `${JSON.stringify({ corpusHash, model })}\n`);
console.log(
  `assistant model: ${Object.values(CORPUS).flat().length} utterances, ${Object.keys(CORPUS).length} intents, trained in ${Math.round(performance.now() - started)} ms`,
);
