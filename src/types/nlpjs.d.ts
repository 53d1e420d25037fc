// @nlpjs 4.x ships no types; the part this project uses.
declare module "@nlpjs/core" {
  export type Container = {
    use(plugin: unknown): void;
    get(name: "nlp"): import("@nlpjs/nlp").NlpInstance;
    registerConfiguration(tag: string, configuration: Record<string, unknown>, overwrite?: boolean): void;
  };
  export function containerBootstrap(): Promise<Container>;
}
declare module "@nlpjs/lang-en-min" {
  export const LangEn: unknown;
  export class StemmerEn {
    stemWord(word: string): string;
  }
}
declare module "@nlpjs/nlp" {
  export type Classification = { intent: string; score: number };
  export type NlpInstance = {
    settings: { autoSave: boolean };
    addLanguage(locale: string): void;
    addDocument(locale: string, utterance: string, intent: string): void;
    train(): Promise<void>;
    export(minified?: boolean): string;
    import(model: string | object): void;
    process(locale: string, utterance: string): Promise<{ intent: string; score: number; classifications: Classification[] }>;
  };
  export const Nlp: unknown;
}
