type Operation = {
  summary?: string;
  description?: string;
  tags?: string[];
  security?: unknown[];
  parameters?: { name: string; in: string; required?: boolean; schema?: unknown }[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { description?: string }>;
};
type Document = { info: { title: string; version: string; description?: string }; paths?: Record<string, Record<string, Operation>> };

const escape = (text: string) =>
  text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");

/** A self-contained HTML reference rendered from the OpenAPI document (no CDN: it works offline). */
export function renderDocs(openapi: object): string {
  const document = openapi as Document;
  const sections: string[] = [];
  for (const [path, methods] of Object.entries(document.paths ?? {})) {
    for (const [method, op] of Object.entries(methods)) {
      const params = (op.parameters ?? [])
        .map((p) => `<li><code>${escape(p.name)}</code> (${escape(p.in)}${p.required ? ", required" : ""})</li>`)
        .join("");
      const body = op.requestBody?.content?.["application/json"]?.schema;
      const responses = Object.entries(op.responses ?? {})
        .filter(([status]) => status.startsWith("2"))
        .map(([status, r]) => `<li><code>${status}</code> ${escape(r.description ?? "")}</li>`)
        .join("");
      sections.push(`<section id="${escape(`${method}-${path}`)}">
<h3><span class="m ${method}">${method.toUpperCase()}</span> <code>/api/v1${escape(path)}</code></h3>
<p>${escape(op.summary ?? "")}${op.security && op.security.length > 0 ? " <em>(bearer token)</em>" : " <em>(no auth)</em>"}</p>
${op.description ? `<p>${escape(op.description)}</p>` : ""}
${params ? `<h4>Parameters</h4><ul>${params}</ul>` : ""}
${body ? `<h4>Body</h4><pre>${escape(JSON.stringify(body, null, 2))}</pre>` : ""}
${responses ? `<h4>Success</h4><ul>${responses}</ul>` : ""}
</section>`);
    }
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(document.info.title)} reference</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:960px;margin:2rem auto;padding:0 1rem;color:#222}
section{border-top:1px solid #ddd;padding:.5rem 0}pre{background:#f6f6f6;padding:.5rem;overflow:auto;font-size:12px}
.m{display:inline-block;min-width:4.5em;font-size:.8em;padding:.1em .4em;border-radius:3px;color:#fff;background:#555}
.get{background:#2a7}.post{background:#27c}.put,.patch{background:#c80}.delete{background:#c33}</style></head><body>
<h1>${escape(document.info.title)} <small>${escape(document.info.version)}</small></h1>
<p>${escape(document.info.description ?? "")}</p>
<p>Machine-readable: <a href="/api/v1/openapi.json">/api/v1/openapi.json</a> (OpenAPI 3.1).</p>
${sections.join("\n")}
</body></html>`;
}
