// The README's screenshot: the Sum chapter's experiment panel after a run and a sweep.
// Usage: node tools/readme-screenshot.mjs <out.png>
import { clickAndWait, launch, newPage, serve } from '../lib.mjs';

const [out = '../docs/screenshot-sum.png'] = process.argv.slice(2);
const server = await serve('isolated');
const browser = await launch();
try {
  const page = await newPage(browser, { viewport: { width: 1100, height: 900 } });
  await page.goto(`${server.url}/chapters/sum?workers=2&tasks=8&n=10000000&reps=5`);
  const panel = page.locator('section[data-experiment="sum"]');
  await clickAndWait(panel, 'Sweep workers');
  await clickAndWait(panel, 'Run');
  await page.waitForTimeout(300);
  // Everything from the panel title to the sweep chart: controls, results, timeline, chart.
  // Page coordinates (bounding boxes are relative to the scrolled viewport).
  const pageBox = (locator) => locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { x: r.x + window.scrollX, y: r.y + window.scrollY, width: r.width, height: r.height };
  });
  const top = await pageBox(panel.locator('h2'));
  const chart = await pageBox(panel.getByTestId('sweep'));
  const box = await pageBox(panel);
  await page.screenshot({
    path: out,
    fullPage: true,
    clip: { x: box.x, y: top.y - 16, width: box.width, height: chart.y + chart.height - top.y + 32 },
  });
  console.log(out);
} finally {
  await browser.close();
  await server.close();
}
