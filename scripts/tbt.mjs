// Total Blocking Time of storefront pages as a phone sees them (ADR 0028): Chromium with a
// ×4 CPU slowdown (Lighthouse's mobile setting) loads each page, and two figures are taken after
// first paint:
//   - TBT from the page's 'longtask' entries (wall clock: what Lighthouse counts, inflated when
//     the machine is busy);
//   - the same sum over the thread time of the renderer main thread's tasks in a performance
//     trace, which other processes on the machine do not inflate (the slowdown is in it).
// Servers are compared A/B, alternating, and medians of RUNS loads are printed.
//   node scripts/tbt.mjs A=http://127.0.0.1:3000 [B=http://127.0.0.1:3001 …]
//   PAGES=/,/product/sheesham-wood-3-seater-sofa RUNS=5 CHROMIUM_PATH=/usr/bin/chromium
import { chromium } from "playwright";

const targets = process.argv.slice(2).map((arg) => {
  const [label, base] = arg.split("=");
  return { label, base };
});
if (targets.length === 0 || targets.some((t) => !t.base)) {
  console.error("usage: node scripts/tbt.mjs LABEL=BASE_URL [LABEL=BASE_URL …]");
  process.exit(2);
}
const PAGES = (process.env.PAGES || "/product/sheesham-wood-3-seater-sofa,/,/category/living-room,/search?q=sofa").split(",");
const RUNS = Number(process.env.RUNS || 5);
const blocking = (durations) => durations.reduce((sum, d) => sum + Math.max(0, d - 50), 0);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
  // as the browser suite's (playwright.config.ts): no background fetches competing with the page
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});

async function load(url) {
  const context = await browser.newContext({
    viewport: { width: 412, height: 823 },
    isMobile: true,
    hasTouch: true,
    deviceScaleFactor: 1.75,
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  await page.addInitScript(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__longTasks.push([entry.startTime, entry.duration]);
    }).observe({ type: "longtask", buffered: true });
  });
  await browser.startTracing(page, { categories: ["devtools.timeline", "disabled-by-default-devtools.timeline"] });
  await page.goto(url, { waitUntil: "load" });
  await page.waitForTimeout(2500);
  const events = JSON.parse((await browser.stopTracing()).toString()).traceEvents;
  const { fcp, longTasks } = await page.evaluate(() => ({
    fcp: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? 0,
    longTasks: window.__longTasks,
  }));
  await context.close();
  const mainThreads = new Set(
    events.filter((e) => e.name === "thread_name" && e.args?.name === "CrRendererMain").map((e) => `${e.pid}:${e.tid}`),
  );
  const navigationStart = events.find((e) => e.name === "navigationStart" && mainThreads.has(`${e.pid}:${e.tid}`))?.ts ?? 0;
  const tasks = events.filter((e) => e.name === "RunTask" && e.ph === "X" && mainThreads.has(`${e.pid}:${e.tid}`));
  const afterPaint = tasks.filter((e) => !navigationStart || (e.ts - navigationStart) / 1000 + e.dur / 1000 > fcp);
  return {
    tbt: Math.round(blocking(longTasks.filter(([start, d]) => start + d > fcp).map(([, d]) => d))),
    threadTbt: Math.round(blocking(afterPaint.map((e) => (e.tdur ?? 0) / 1000))),
    longest: Math.round(Math.max(0, ...afterPaint.map((e) => (e.tdur ?? 0) / 1000))),
  };
}

const results = new Map();
for (let run = 0; run < RUNS; run++) {
  for (const path of PAGES) {
    for (const { label, base } of run % 2 ? [...targets].reverse() : targets) {
      const key = `${label} ${path}`;
      if (!results.has(key)) results.set(key, []);
      results.get(key).push(await load(base + path));
    }
  }
}
await browser.close();
for (const [key, loads] of results) {
  const figure = (name) => `${median(loads.map((l) => l[name]))} [${loads.map((l) => l[name]).join(", ")}]`;
  console.info(
    `${key}\n  TBT (longtask) ${figure("tbt")} ms\n  TBT (thread time) ${figure("threadTbt")} ms, longest task ${figure("longest")} ms`,
  );
}
