/**
 * GET /api/v1/analytics/script.js — the tracker, kept under 2 KB gzipped (a test checks). Page use:
 *   <script defer src="https://api.example.com/api/v1/analytics/script.js" data-site="site_…"></script>
 * It sends a pageview on load and on every history change (pushState, replaceState, back/forward), and
 * exposes window.bpa(name, {props, revenue}) for events; calls made before it loads are queued by
 *   <script>window.bpa = window.bpa || function () { (bpa.q = bpa.q || []).push(arguments) }</script>
 * Requests go to the collector with fetch(keepalive) — sendBeacon where fetch is missing — so they survive
 * the page being closed; as text/plain, which needs no CORS preflight, and without credentials. No
 * cookies, no storage: the collector derives a daily visitor id from the request itself.
 */
export const TRACKER_SCRIPT = `(function(){"use strict";
var w=window,d=document,s=d.currentScript,k=s&&s.getAttribute("data-site");if(!k)return;
var u=new URL(s.src).origin+"/api/v1/analytics/collect",last=null;
function send(n,o){o=o||{};var b={site:k,name:n,url:location.href};if(d.referrer)b.referrer=d.referrer;
if(o.props)b.props=o.props;if(o.revenue)b.revenue=o.revenue;
b=JSON.stringify(b);try{if(w.fetch)fetch(u,{method:"POST",body:b,headers:{"content-type":"text/plain"},keepalive:true,credentials:"omit"})["catch"](function(){});else navigator.sendBeacon(u,b)}catch(e){}}
function pv(){var p=location.pathname+location.search;if(p===last)return;last=p;send("pageview")}
var h=w.history;["pushState","replaceState"].forEach(function(m){var f=h[m];h[m]=function(){var r=f.apply(this,arguments);pv();return r}});
w.addEventListener("popstate",pv);
var q=(w.bpa&&w.bpa.q)||[];w.bpa=function(n,o){send(n,o)};
if(d.visibilityState==="prerender")d.addEventListener("visibilitychange",function f(){if(d.visibilityState!=="prerender"){d.removeEventListener("visibilitychange",f);pv()}});else pv();
for(var i=0;i<q.length;i++)send(q[i][0],q[i][1]);
})();
`;
