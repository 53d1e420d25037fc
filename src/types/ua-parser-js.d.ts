// ua-parser-js 1.x (MIT) ships no types; the part this project uses. It is CommonJS: import the default.
declare module "ua-parser-js" {
  type Part = { name?: string; version?: string; major?: string };
  export default class UAParser {
    constructor(userAgent?: string);
    getDevice(): { type?: string; vendor?: string; model?: string };
    getResult(): { browser: Part; os: Part; device: { type?: string; vendor?: string; model?: string } };
  }
}
