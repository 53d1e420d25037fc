// ua-parser-js 1.x (MIT) ships no types; the part this project uses. It is CommonJS: import the default.
declare module "ua-parser-js" {
  export default class UAParser {
    constructor(userAgent?: string);
    getDevice(): { type?: string; vendor?: string; model?: string };
  }
}
