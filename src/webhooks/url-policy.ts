/**
 * Webhook targets must be https and must not name a private, loopback or link-local host, unless the
 * worker runs with ALLOW_INSECURE_WEBHOOK_URLS = "true" (local development and tests). Hostnames are
 * checked as written: the Workers runtime cannot resolve DNS itself, and Cloudflare does not route
 * Worker subrequests into private networks.
 */
export function webhookUrlProblem(raw: string, allowInsecure: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "must be an absolute URL";
  }
  if (url.username || url.password) return "must not contain credentials";
  if (allowInsecure) return url.protocol === "https:" || url.protocol === "http:" ? null : "must be an https:// URL";
  if (url.protocol !== "https:") return "must be an https:// URL";
  return isPrivateHost(url.hostname) ? "must not point to a private, loopback or link-local address" : null;
}

function isPrivateHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, "").replace(/\.$/, "");
  if (host === "localhost" || /\.(localhost|local|internal|home\.arpa)$/.test(host) || (!host.includes(".") && !host.includes(":"))) return true;
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (v4) return isPrivateV4(v4.slice(1).map(Number));
  if (host.includes(":")) {
    // IPv4-mapped addresses (the URL parser writes ::ffff:127.0.0.1 as ::ffff:7f00:1).
    const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
    if (mapped) {
      const [high, low] = [parseInt(mapped[1]!, 16), parseInt(mapped[2]!, 16)];
      return isPrivateV4([high >> 8, high & 255, low >> 8, low & 255]);
    }
    return host === "::1" || host === "::" || /^f[cd]/.test(host) || /^fe[89ab]/.test(host);
  }
  return false;
}

function isPrivateV4([a, b]: number[]): boolean {
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b! >= 64 && b! <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b! >= 16 && b! <= 31) ||
    (a === 192 && b === 168) ||
    a! >= 224
  );
}
