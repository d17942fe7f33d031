import { readBody } from '../../services/messaging/src/domain/markdown.ts';
import type { Goal } from './goals.ts';
import { BODY_TEXT } from './measure.ts';
import { render } from './report.ts';

// What reading a body's Markdown costs the messaging service (contract §13: a few milliseconds for any 40,000
// characters), measured in this process: the bench's own post, a long ordinary message, and the bodies that cost
// markdown-it the most, each as long as the message limit or its parser's bounds let it be (found by trying; see
// services/messaging/src/domain/markdown.ts for the bounds).

const LIMIT = 40_000;
const filled = (unit: string) => unit.repeat(Math.ceil(LIMIT / unit.length)).slice(0, LIMIT);
/** `n` lines of `line` (the parser reads at most 1,000 lines as Markdown). */
const lines = (line: string, n = 1_000) =>
  Array.from({ length: n }, () => line)
    .join('\n')
    .slice(0, LIMIT);

export const BODIES: Readonly<Record<string, string>> = {
  'the bench post': BODY_TEXT,
  'ordinary text': filled(
    `Lorem ipsum dolor sit amet, **consectetur** adipiscing elit, see [the notes](https://example.org/notes). ${'Sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. '.repeat(4)}\n\n`,
  ),
  '40,000 *': filled('*'),
  '40,000 [': filled('['),
  '40,000 <': filled('<'),
  '**a run': filled('**a'),
  'bare URLs': filled('http://example.org/a '),
  'link labels of 200': filled(`[${'a'.repeat(199)}`),
  '1,000 headings': lines(`# heading ${'x'.repeat(29)}`),
  '1,000 list items': lines('- item *x* [l](http://a.org)'),
  '1,000 numbered items': lines('1. *a* **b**'),
  '1,000 quoted lines': lines('> *a* _b_ [c](http://d.org) quoted text of a quote'),
  'code, 1,000 lines': `\`\`\`ts\n${lines('const x = a * b + [c] < d;', 998)}\n\`\`\``,
  'markup, 500 a paragraph': lines(`${'*a '.repeat(166)}\n`, 4),
};

export interface ParseMeasurement {
  name: string;
  chars: number;
  medianMs: number;
  maxMs: number;
}

/** Each body read `runs` times after a warm-up: the median and the slowest read. */
export function measureParsing(runs = 50): ParseMeasurement[] {
  return Object.entries(BODIES).map(([name, body]) => {
    for (let i = 0; i < 5; i++) readBody(body);
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      readBody(body);
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    return { name, chars: body.length, medianMs: times[Math.floor(runs / 2)]!, maxMs: times.at(-1)! };
  });
}

export function parseLines(measurements: readonly ParseMeasurement[]): string[] {
  return [
    'parsing a body (messaging, markdown-it; in the bench process, one core):',
    '',
    render(
      ['body', 'chars', 'median ms', 'max ms'],
      measurements.map((m) => [m.name, m.chars.toLocaleString('en-US'), m.medianMs.toFixed(3), m.maxMs.toFixed(2)]),
      ['body'],
    ),
  ];
}

/** The slowest body's median read. */
export function parseGoal(measurements: readonly ParseMeasurement[], atMostMs: number): Goal {
  const worst = measurements.reduce((a, b) => (b.medianMs > a.medianMs ? b : a));
  return {
    path: `parsing any body of 40,000 chars: median (worst: ${worst.name})`,
    measured: `${worst.medianMs.toFixed(2)} ms`,
    goal: `≤ ${atMostMs} ms`,
    met: worst.medianMs <= atMostMs,
  };
}
