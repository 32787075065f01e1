import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Result } from 'lighthouse';
import { type BenchPage, CHROMIUM_FLAGS, CHROMIUM_PATH } from './shop-server.ts';

/** Issue 13's budgets (pages at scale), as Lighthouse scores 0–100: performance 98, the rest staying 100. */
export const LIGHTHOUSE_BUDGETS = { performance: 98, accessibility: 100, 'best-practices': 100, seo: 100 } as const;
export type LighthouseCategory = keyof typeof LIGHTHOUSE_BUDGETS;
export const LIGHTHOUSE_CATEGORIES = Object.keys(LIGHTHOUSE_BUDGETS) as LighthouseCategory[];

export interface FlaggedAudit {
  category: LighthouseCategory;
  id: string;
  title: string;
  score: number | null;
  displayValue?: string;
}

export interface LighthousePageFigures {
  page: BenchPage;
  runs: number;
  /** Median of the runs, per category. */
  scores: Record<LighthouseCategory, number>;
  /** Lab metrics of the run closest to the median performance score. */
  metrics: { fcpMs: number; lcpMs: number; tbtMs: number; cls: number; speedIndexMs: number };
  /** Audits that cost points in the median run, to say what to fix. */
  flagged: FlaggedAudit[];
  /** Where the median run's full report was written. */
  reportPath: string;
}

function median(values: number[]): number {
  const sorted = values.toSorted((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function score(lhr: Result, category: LighthouseCategory): number {
  return Math.round((lhr.categories[category]?.score ?? 0) * 100);
}

/** Audits in a category that lost points (weighted ones, and failed ones of the unweighted a11y/SEO checks). */
function flaggedAudits(lhr: Result): FlaggedAudit[] {
  const flagged: FlaggedAudit[] = [];
  for (const category of LIGHTHOUSE_CATEGORIES) {
    for (const ref of lhr.categories[category]?.auditRefs ?? []) {
      const audit = lhr.audits[ref.id];
      if (!audit || audit.scoreDisplayMode === 'notApplicable' || audit.scoreDisplayMode === 'informative') continue;
      if (audit.scoreDisplayMode === 'manual' || audit.score === null || audit.score >= 0.9) continue;
      if (ref.weight === 0 && category === 'performance') continue;
      flagged.push({
        category,
        id: ref.id,
        title: audit.title,
        score: audit.score,
        ...(audit.displayValue ? { displayValue: audit.displayValue } : {}),
      });
    }
  }
  return flagged;
}

/**
 * chrome-launcher's own flags, less its `--disable-features=…,RenderDocument`: Chromium
 * 156 renders documents that way by default, and with it turned off this headless
 * Chromium held the first paint after Lighthouse's about:blank for whole seconds at
 * random (the same static page painted at 250, 1,250 or 2,250 ms from run to run; at
 * 300–450 ms every run with Chromium's default). The late paint decides which requests
 * Lighthouse's simulation counts as render-blocking, so identical runs differed by ten
 * points. Puppeteer stopped turning it off as well (crbug 444150315).
 */
function lighthouseChromeFlags(): string[] {
  const disableFeatures = '--disable-features=';
  return chromeLauncher.Launcher.defaultFlags().map((flag) => {
    if (!flag.startsWith(disableFeatures)) return flag;
    const features = flag.slice(disableFeatures.length).split(',');
    return disableFeatures + features.filter((feature) => feature !== 'RenderDocument').join(',');
  });
}

/**
 * Lighthouse's default (mobile) configuration — Moto G Power emulation,
 * simulated slow 4G and 4× CPU slowdown — on each page, `runs` times, in
 * Debian's Chromium. Scores are the median of the runs per category.
 */
export async function benchLighthouse(options: {
  baseUrl: string;
  pages: BenchPage[];
  runs: number;
  reportDir: string;
}): Promise<LighthousePageFigures[]> {
  mkdirSync(options.reportDir, { recursive: true });
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: [...lighthouseChromeFlags(), ...CHROMIUM_FLAGS],
    ignoreDefaultFlags: true,
    logLevel: 'error',
  });
  try {
    const figures: LighthousePageFigures[] = [];
    for (const page of options.pages) {
      const results: Result[] = [];
      for (let run = 0; run < options.runs; run++) {
        const outcome = await lighthouse(`${options.baseUrl}${page.path}`, {
          port: chrome.port,
          logLevel: 'error',
          output: 'json',
          onlyCategories: [...LIGHTHOUSE_CATEGORIES],
        });
        if (!outcome) throw new Error(`Lighthouse returned nothing for ${page.path}`);
        if (outcome.lhr.runtimeError) {
          throw new Error(`Lighthouse failed on ${page.path}: ${outcome.lhr.runtimeError.message}`);
        }
        results.push(outcome.lhr);
      }
      const scores = Object.fromEntries(
        LIGHTHOUSE_CATEGORIES.map((category) => [category, median(results.map((lhr) => score(lhr, category)))]),
      ) as Record<LighthouseCategory, number>;
      const medianRun =
        results.find((lhr) => score(lhr, 'performance') === scores.performance) ??
        results.toSorted((a, b) => score(a, 'performance') - score(b, 'performance'))[Math.floor(results.length / 2)]!;
      const numeric = (id: string) => medianRun.audits[id]?.numericValue ?? Number.NaN;
      const reportPath = join(options.reportDir, `lighthouse-${page.name}.json`);
      writeFileSync(reportPath, JSON.stringify(medianRun));
      figures.push({
        page,
        runs: results.length,
        scores,
        metrics: {
          fcpMs: Math.round(numeric('first-contentful-paint')),
          lcpMs: Math.round(numeric('largest-contentful-paint')),
          tbtMs: Math.round(numeric('total-blocking-time')),
          cls: Number(numeric('cumulative-layout-shift').toFixed(3)),
          speedIndexMs: Math.round(numeric('speed-index')),
        },
        flagged: flaggedAudits(medianRun),
        reportPath,
      });
    }
    return figures;
  } finally {
    chrome.kill();
  }
}

/** Which budgets a page missed, as "performance 84 < 90". */
export function missedBudgets(figures: LighthousePageFigures): string[] {
  return LIGHTHOUSE_CATEGORIES.filter((category) => figures.scores[category] < LIGHTHOUSE_BUDGETS[category]).map(
    (category) => `${category} ${figures.scores[category]} < ${LIGHTHOUSE_BUDGETS[category]}`,
  );
}
