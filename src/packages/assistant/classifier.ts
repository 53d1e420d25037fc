import { containerBootstrap } from "@nlpjs/core";
import { LangEn } from "@nlpjs/lang-en-min";
import { Nlp } from "@nlpjs/nlp";

/**
 * A fresh @nlpjs/nlp pipeline for English (stemming, its own spell check of known words): trained by
 * scripts/train-assistant.ts at build time, loaded with the trained model in the worker.
 */
export async function newClassifier() {
  const container = await containerBootstrap();
  container.registerConfiguration(
    "nlu-??",
    { keepStopwords: true, nonefeatureValue: 1, nonedeltaMultiplier: 1.2, spellCheck: true, spellCheckDistance: 1, filterZeros: true, log: false },
    true,
  );
  container.use(Nlp);
  container.use(LangEn);
  const nlp = container.get("nlp");
  nlp.settings.autoSave = false;
  nlp.addLanguage("en");
  return nlp;
}
