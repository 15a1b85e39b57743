// Screenshots of pages of the built site at desktop and phone widths, for looking at the UI.
// Usage: node tools/screenshot.mjs <out-dir> <path-with-query> [more paths…]
// A path ending in `#run` clicks the first "Run" button and waits for the run to end first.
import fs from 'node:fs';
import path from 'node:path';
import { clickAndWait, launch, newPage, serve } from '../lib.mjs';

const [outDir = '/tmp/shots', ...paths] = process.argv.slice(2);
fs.mkdirSync(outDir, { recursive: true });
const server = await serve('isolated');
const browser = await launch();
try {
  for (const [name, viewport] of [['desktop', { width: 1280, height: 900 }], ['phone', { width: 390, height: 844 }]]) {
    for (const raw of paths.length ? paths : ['/']) {
      const [target, action] = raw.split('#');
      const page = await newPage(browser, { viewport });
      await page.goto(server.url + target);
      await page.locator('main').waitFor();
      await page.waitForTimeout(300);
      if (action === 'run' || action === 'sweep') {
        const panel = page.locator('section.experiment').first();
        const button = await panel.getByRole('button', { name: action === 'run' ? /^Run/ : /^Sweep/ }).first().innerText();
        await clickAndWait(panel, button);
        await page.waitForTimeout(300);
      }
      const file = path.join(outDir, `${target.replace(/[^a-z0-9]+/gi, '_')}_${action || 'load'}_${name}.png`);
      await page.screenshot({ path: file, fullPage: true });
      console.log(file, page.problems.length ? page.problems : '');
      await page.context().close();
    }
  }
} finally {
  await browser.close();
  await server.close();
}
