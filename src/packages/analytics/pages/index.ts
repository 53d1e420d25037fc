/** The analytics package's web pages: the app's (sites, dashboards, sharing) and the shared links' public dashboards. */
export { analyticsAppPages } from "./app-pages";
export { analyticsSharePages } from "./share-pages";
