/** Elements whose content is never text a person wrote (and never shown): dropped with everything inside. */
const HIDDEN = "script, style, head, title, template, noscript, svg, object, iframe";
/** Elements that start a new line in the text. */
const BLOCKS = "br, p, div, li, tr, h1, h2, h3, h4, h5, h6, blockquote, pre, hr, table, ul, ol";

const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,8});/gi, (entity, code: string) => {
    if (code[0] === "#") {
      const point = code[1] === "x" || code[1] === "X" ? Number.parseInt(code.slice(2), 16) : Number(code.slice(1));
      return point > 0 && point <= 0x10ffff ? String.fromCodePoint(point) : entity;
    }
    return NAMED[code.toLowerCase()] ?? entity;
  });
}

/**
 * An HTML e-mail body as plain text, by workerd's own HTML parser (HTMLRewriter): tags, scripts, styles and
 * comments go, line breaks stay. What is stored is text, and every page renders it as text (escaped).
 */
export async function htmlToText(html: string): Promise<string> {
  const parts: string[] = [];
  let hidden = 0;
  const rewriter = new HTMLRewriter()
    .on(HIDDEN, {
      element(element) {
        // A self-closed element (<svg/>) has no end tag to wait for: nothing inside it to hide.
        try {
          element.onEndTag(() => {
            hidden -= 1;
          });
          hidden += 1;
        } catch {
          // no end tag
        }
      },
    })
    .on(BLOCKS, {
      element() {
        parts.push("\n");
      },
    })
    .onDocument({
      text(chunk) {
        if (hidden === 0) parts.push(chunk.text);
      },
    });
  await rewriter.transform(new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } })).text();
  return decodeEntities(parts.join(""))
    .replace(/[ \t\r\f\v]+/g, " ")
    .replace(/ *\n */g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
