import ipaddr from "ipaddr.js";

/**
 * Outbound targets (webhook endpoints, pro apps' app_url) must be https and must not name a private, loopback, link-local or otherwise
 * special address, unless the worker runs with ALLOW_INSECURE_WEBHOOK_URLS = "true" (local development
 * and tests). IP literals are classified by ipaddr.js, a maintained list of IANA special-purpose ranges:
 * only global unicast passes, so IPv6 forms that embed an IPv4 address (mapped, compatible, NAT64,
 * 6to4, Teredo) are refused whatever they embed. Hostnames are checked as written: the Workers runtime
 * cannot resolve DNS itself, and Cloudflare does not route Worker subrequests into private networks.
 */
export function outboundUrlProblem(raw: string, allowInsecure: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "must be an absolute URL";
  }
  if (url.username || url.password) return "must not contain credentials";
  if (allowInsecure) return url.protocol === "https:" || url.protocol === "http:" ? null : "must be an https:// URL";
  if (url.protocol !== "https:") return "must be an https:// URL";
  return isPublicHost(url.hostname) ? null : "must not point to a private, loopback, link-local or reserved address";
}

// ::/96 (IPv4-compatible, e.g. [::127.0.0.1] = ::7f00:1) is not a range ipaddr.js names.
const IPV4_COMPATIBLE = ipaddr.parseCIDR("::/96");

function isPublicHost(hostname: string): boolean {
  const host = hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "");
  if (ipaddr.isValid(host)) {
    const address = ipaddr.parse(host);
    if (address.kind() === "ipv6" && address.match(IPV4_COMPATIBLE)) return false;
    return address.range() === "unicast";
  }
  // Names that only resolve inside a network, and single-label names.
  if (host === "localhost" || /\.(localhost|local|internal|intranet|lan|home\.arpa|corp)$/.test(host)) return false;
  return host.includes(".");
}
