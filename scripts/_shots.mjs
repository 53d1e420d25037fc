import { launch } from "./browser.mjs";
const base = process.env.BASE ?? "http://127.0.0.1:8790";
const pages = process.argv.slice(2);
const browser = await launch();
for (const width of [1280, 390]) {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  page.on("console", (m) => { if (m.type() === "error") console.log("console:", m.text()); });
  await page.goto(`${base}/login`);
  await page.fill("input[name=email]", "demo@example.com");
  await page.fill("input[name=password]", "demo-password-123");
  await Promise.all([page.waitForNavigation(), page.click("button[type=submit]")]);
  for (const path of pages) {
    await page.goto(`${base}${path}`);
    const name = `${path.replace(/[^a-z0-9]+/gi, "_")}_${width}`;
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    await page.screenshot({ path: `/tmp/shots/${name}.png`, fullPage: false });
    console.log(name, "scrollWidth", wide);
  }
  await context.close();
}
await browser.close();
