import { writeFile } from 'node:fs/promises';
import { test as base, type BrowserContext, type Page } from '@playwright/test';

export { expect } from '@playwright/test';

/**
 * Playwright's `test` with a console log: every page of the test (its own `page` and those `newPage` opens, each in a
 * context of its own, a second person) has its console and uncaught errors kept, and a failing test leaves them in
 * `console.log` beside its screenshots (Playwright's, one per page) under web/test-results/.
 */
export const test = base.extend<{ consoleLog: string[]; newPage: () => Promise<Page> }>({
  consoleLog: [
    async ({ context }, use, testInfo) => {
      const lines: string[] = [];
      watch(context, lines, 'page');
      await use(lines);
      if (testInfo.status !== testInfo.expectedStatus) {
        await writeFile(testInfo.outputPath('console.log'), `${lines.join('\n')}\n`);
      }
    },
    { auto: true },
  ],
  newPage: async ({ browser, consoleLog }, use) => {
    const contexts: BrowserContext[] = [];
    await use(async () => {
      const context = await browser.newContext();
      contexts.push(context);
      watch(context, consoleLog, `person ${contexts.length}`);
      return context.newPage();
    });
    await Promise.all(contexts.map((c) => c.close()));
  },
});

function watch(context: BrowserContext, lines: string[], who: string): void {
  const onPage = (page: Page) => {
    page.on('console', (m) => lines.push(`${who} [${m.type()}] ${m.text()}`));
    page.on('pageerror', (e) => lines.push(`${who} [pageerror] ${e.message}`));
  };
  context.pages().forEach(onPage);
  context.on('page', onPage);
}
