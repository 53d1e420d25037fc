/**
 * GET /api/v1/analytics/script.js — the tracker. Page use:
 *   <script defer src="https://api.example.com/api/v1/analytics/script.js" data-site="site_…"></script>
 * It sends a pageview on load and on every history change (pushState, replaceState, back/forward), and
 * exposes window.bpa(name, {props, revenue}) for events; calls made before it loads are queued by
 *   <script>window.bpa = window.bpa || function () { (bpa.q = bpa.q || []).push(arguments) }</script>
 * and sent, in their order, right after the load's pageview (and its 404 event); a prerendered page sends
 * nothing before it is shown.
 *
 * Each event is a POST to {origin of the script's src}/api/v1/analytics/collect with the JSON body
 *   {site, name, url, referrer?, props?, revenue?, load, seq}
 * url is location.href (hash included); referrer is document.referrer when there is one; load is a random
 * id (12 digits) drawn once per page load; seq counts 0, 1, 2, … every event of that load in the order
 * the page fired them, so the collector can order events whose requests arrive out of order. Requests go
 * with fetch(keepalive) — sendBeacon where fetch is missing — so they survive the page being closed or left;
 * as text/plain, which needs no CORS preflight; without credentials. No cookies, no storage: the collector
 * derives a daily visitor id from the request itself.
 *
 * Global Privacy Control: when navigator.globalPrivacyControl is true it sends nothing at all, and
 * window.bpa is a no-op (queued calls are dropped).
 *
 * Options, as attributes of the script element (presence turns one on):
 * - data-outbound-links: a click on an http(s) link to another host name sends outbound_link_click
 *   with props {url: href}.
 * - data-file-downloads: a click on an http(s) link whose path ends in .pdf .xls(x) .doc(x) .ppt(x)
 *   .csv .zip .txt .rar .7z .dmg .exe .apk .mp3 .mp4 .mov .avi .wav .epub .key .pages .numbers or .gz
 *   sends file_download with props {url: href} (rather than outbound_link_click, for a file elsewhere).
 *   A value replaces that list: data-file-downloads="pdf,zip" (comma-separated; letters and digits only,
 *   any other character is dropped, case-insensitive).
 *   Both link options watch the click event on the document (a primary click or Enter; not a middle click),
 *   send the event and never cancel the click; hrefs are cut to 200 characters (the props limit).
 * - data-hash-routing: a change of location.hash is a new page: pageviews fire on hashchange too, and
 *   repeated pageviews are deduplicated on pathname + search + hash (without it: pathname + search).
 * - data-404: a page marked as "not found" with <meta name="bpa-404"> (anywhere in the document; the
 *   deferred script runs once it is parsed) sends, right after the load's pageview, the event 404 with
 *   props {path: location.pathname}. Only the page load is checked; a client-side route that finds out
 *   later sends bpa("404", {props: {path: location.pathname}}) itself.
 *
 * Size, gzip (zlib.gzipSync of this string): 1,014 bytes in all (≤ 1 KB). Of that, the base tracker is about
 * 630 bytes, and the code of each option about: outbound links 130 and file downloads 290, each counted with
 * the click listener they share (both: 300); hash routing 35; 404 65. test/analytics.test.ts checks that the
 * served script stays under 2 KB.
 */
export const TRACKER_SCRIPT = `(function(){
var w=window,d=document,l=location,s=d.currentScript,D=s?s.dataset:{},k=D.site,F=D.fileDownloads,H="hashRouting"in D,O="outboundLinks"in D,N=0,L=(Math.random()+"").slice(2,14),h=history,X,P;
if(navigator.globalPrivacyControl)return w.bpa=function(){};if(!k)return;
var u=new URL(s.src).origin+"/api/v1/analytics/collect";
function send(n,o){o=o||{};var b={site:k,name:n,url:l.href};if(d.referrer)b.referrer=d.referrer;
if(o.props)b.props=o.props;if(o.revenue)b.revenue=o.revenue;b.load=L;b.seq=N++;
b=JSON.stringify(b);w.fetch?fetch(u,{method:"POST",body:b,keepalive:!0,credentials:"omit"}).catch(function(){}):navigator.sendBeacon(u,b)}
function pv(){var p=l.pathname+l.search+(H?l.hash:"");if(p!=P)P=p,send("pageview")}
["pushState","replaceState"].forEach(function(m){var f=h[m];h[m]=function(){var r=f.apply(this,arguments);pv();return r}});
addEventListener("popstate",pv);H&&addEventListener("hashchange",pv);
if(F!=null)X=RegExp("[.]("+(F?F.replace(/[^a-z0-9,]/gi,"").replace(/,/g,"|"):"pdf|xlsx?|docx?|pptx?|csv|zip|txt|rar|7z|dmg|exe|apk|mp3|mp4|mov|avi|wav|epub|key|pages|numbers|gz")+")$","i");
(O||X)&&d.addEventListener("click",function(e){var a=e.target.closest("a[href]"),n;
if(a&&/^http/.test(a.protocol)&&(n=X&&X.test(a.pathname)?"file_download":O&&a.hostname!=l.hostname&&"outbound_link_click"))send(n,{props:{url:a.href.slice(0,200)}})});
var q=w.bpa&&w.bpa.q||[];w.bpa=send;
function go(){pv();"404"in D&&d.querySelector('meta[name="bpa-404"]')&&send("404",{props:{path:l.pathname.slice(0,200)}});
for(var i=0;i<q.length;i++)send(q[i][0],q[i][1])}
d.prerendering?d.addEventListener("prerenderingchange",go):go()
})();
`;
