// Lighthouse user flow against the local server, run by benchmarks/web_client.py (which says how to
// install Lighthouse: never downloaded here). A guest's Daily: the home page (navigation), the
// Daily played through the page (timespan: a refused word, then an answer, in every round), the
// game screen mid-play (snapshot, round 6) and the end screen (snapshot). One line per step.
// node benchmarks/lighthouse_flow.mjs <folder holding node_modules/lighthouse> <url> <mobile|desktop> <words.txt> <chromium> [report.json]
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [folder, url, preset, wordsFile, chromium, report] = process.argv.slice(2);
const require = createRequire(join(folder, "package.json"));
const load = (name) => import(pathToFileURL(require.resolve(name)).href);
const { startFlow, desktopConfig } = await load("lighthouse");
const puppeteer = (await load("puppeteer-core")).default;
const WORDS = readFileSync(wordsFile, "utf8").split("\n").filter(Boolean);

function answer(prompt, forbidden, played) {
  const inOrder = (word) => {
    let at = 0;
    for (const letter of prompt) {
      at = word.indexOf(letter, at) + 1;
      if (!at) return false;
    }
    return true;
  };
  return WORDS.find((w) => !played.has(w) && inOrder(w) && ![...forbidden].some((f) => w.includes(f)));
}

async function shownRound(page) {
  return page.evaluate(() => {
    const letters = (sel) => [...document.querySelectorAll(sel)].map((s) => s.textContent).join("").toLowerCase();
    const banner = document.querySelector("#forbidden-banner");
    return {
      number: document.querySelector("#round").textContent,
      prompt: letters("#prompt-tiles span"),
      forbidden: banner && banner.checkVisibility() ? letters("#forbidden-tiles span") : "",
      ended: document.querySelector("#view-end").checkVisibility(),
    };
  });
}

async function send(page, word) {
  const before = await page.$eval("#status", (s) => s.textContent);
  await page.$eval("#word", (box) => { box.value = ""; });
  await page.type("#word", word);
  await page.keyboard.press("Enter");
  await page.waitForFunction((b) => document.querySelector("#status").textContent !== b, {}, before);
}

async function play(page, flow, played) {
  for (;;) {
    const round = await shownRound(page);
    if (round.ended) return;
    if (round.number === "6" && !played.snapshot) {
      played.snapshot = true;
      await flow.endTimespan();
      await flow.snapshot({ name: "game screen, round 6" });
      await flow.startTimespan({ name: "rounds 6 to 10" });
    }
    await send(page, `${round.prompt}qzxq`); // refused: not a word
    const word = answer(round.prompt, round.forbidden, played);
    if (word) {
      played.add(word);
      await send(page, word);
    } else {
      await page.keyboard.press("Escape");
    }
    await page.waitForFunction(
      (n) => document.querySelector("#round").textContent !== n || document.querySelector("#view-end").checkVisibility(),
      { timeout: 30000 },
      round.number,
    );
  }
}

const METRICS = {
  "first-contentful-paint": "FCP",
  "largest-contentful-paint": "LCP",
  "total-blocking-time": "TBT",
  "cumulative-layout-shift": "CLS",
  "interaction-to-next-paint": "INP",
};

const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: true,
  args: ["--no-sandbox", "--disable-gpu"],
});
try {
  const page = await browser.newPage();
  const config = preset === "desktop" ? desktopConfig : undefined;
  const flow = await startFlow(page, { config, name: `WordSQD ${preset}` });
  await flow.navigate(url, { name: "home" });
  await page.waitForSelector("html[data-ready=true]");
  await flow.startTimespan({ name: "rounds 1 to 5" });
  await page.click("#start-daily");
  await page.waitForSelector("#view-game", { visible: true });
  await play(page, flow, new Set());
  await flow.endTimespan();
  await page.waitForSelector("#view-end", { visible: true });
  await new Promise((done) => setTimeout(done, 2000)); // the rank, chart and streak come in
  await flow.snapshot({ name: "end screen" });
  const result = await flow.createFlowResult();
  if (report) writeFileSync(report, JSON.stringify(result));
  for (const step of result.steps) {
    const { lhr } = step;
    const scores = Object.entries(lhr.categories)
      .filter(([key]) => key !== "seo" && !(key === "performance" && lhr.gatherMode === "snapshot"))
      .map(([key, category]) => `${key} ${category.score === null ? "-" : Math.round(category.score * 100)}`);
    const metrics = Object.entries(METRICS)
      .filter(([key]) => lhr.audits[key] && lhr.audits[key].displayValue)
      .map(([key, short]) => `${short} ${lhr.audits[key].displayValue}`);
    const failed = Object.entries(lhr.audits)
      .filter(([, a]) => a.score !== null && a.score < 1 && a.scoreDisplayMode === "binary")
      .map(([key]) => key);
    const requests = lhr.audits["network-requests"]?.details?.items?.length;
    console.log(
      `lighthouse ${lhr.lighthouseVersion} ${preset} ${lhr.gatherMode} "${step.name}": ${scores.join(", ")}; ${metrics.join(", ")}` +
        (requests ? `; ${requests} requests` : "") +
        (failed.length ? `; failed: ${failed.join(" ")}` : ""),
    );
  }
} finally {
  await browser.close();
}
