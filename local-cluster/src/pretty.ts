/** ANSI colours of pino's levels. */
const LEVEL_COLOURS: Record<string, number> = { trace: 90, debug: 90, info: 36, warn: 33, error: 31, fatal: 35 };

/**
 * One pino JSON line as a person reads it: time, level, message, then the other fields as `key=value`, and an
 * error's stack on the lines after. Anything that is not a pino line is returned as it is.
 */
export function prettyLine(line: string, colour: boolean): string {
  let entry: unknown;
  try {
    entry = JSON.parse(line);
  } catch {
    return line;
  }
  if (typeof entry !== 'object' || entry === null || typeof (entry as { msg?: unknown }).msg !== 'string') return line;
  const { time, level, msg, service: _, err, ...fields } = entry as Record<string, unknown> & { msg: string };
  const paint = (code: number, text: string) => (colour ? `\x1b[${code}m${text}\x1b[0m` : text);
  // pino writes its level as a number, or as a label with a level formatter.
  const label = typeof level === 'string' || typeof level === 'number' ? String(level) : '';
  const rest = Object.entries(fields)
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' ');
  let out = `${paint(90, typeof time === 'string' ? time.slice(11, 23) : '')} ${paint(LEVEL_COLOURS[label] ?? 0, label.toUpperCase().padEnd(5))} ${msg}`;
  if (rest) out += ` ${paint(90, rest)}`;
  if (err && typeof err === 'object') {
    const { stack, message } = err as { stack?: unknown; message?: unknown };
    out += `\n    ${String(stack ?? message)
      .split('\n')
      .join('\n    ')}`;
  }
  return out;
}
