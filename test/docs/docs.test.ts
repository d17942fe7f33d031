import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { citusCommands } from '@wms/testkit';
import { describe, expect, it } from 'vitest';
import { serviceNames, topology } from '../../protos/src/topology.ts';
import { PLACEMENTS } from '../citus/placements.ts';
import { configSchemas } from '../support/config-schemas.ts';

// The documents state facts the code also holds (settings, topology, scripts, links between files). The code is the
// truth; this test says where a document has drifted from it.

const root = fileURLToPath(new URL('../..', import.meta.url));

/** pnpm's own commands and options, which name no script of ours. */
const PNPM_BUILTINS = new Set(['install', 'i', 'add', 'exec', 'dlx', 'deploy', '--filter', '-r', '--prod', '-y']);

/** One line of a Markdown file, split into what renders as text and what is code. */
interface Line {
  number: number;
  text: string;
  /** A fence line or a line inside a fenced code block. */
  fenced: boolean;
  /** The text outside code: '' inside a fenced block, inline code spans blanked out elsewhere. */
  prose: string;
  /** The code on the line: the whole line inside a fenced block, the contents of its code spans elsewhere. */
  code: string[];
}

// A code span opens with a run of backticks and closes with a run of the same length (CommonMark).
const CODE_SPAN = /(?<!`)(`+)(?!`)([\s\S]*?)(?<!`)\1(?!`)/g;

function linesOf(markdown: string): Line[] {
  let fence: string | undefined;
  return markdown.split('\n').map((text, i) => {
    const number = i + 1;
    if (fence !== undefined) {
      if (new RegExp(`^ {0,3}${fence}${fence[0]}*\\s*$`).test(text)) fence = undefined;
      return { number, text, fenced: true, prose: '', code: fence === undefined ? [] : [text] };
    }
    const opening = /^ {0,3}(`{3,}|~{3,})/.exec(text);
    if (opening) {
      fence = opening[1];
      return { number, text, fenced: true, prose: '', code: [] };
    }
    const code = [...text.matchAll(CODE_SPAN)].map((m) => m[2] ?? '');
    return { number, text, fenced: false, prose: text.replace(CODE_SPAN, ' '), code };
  });
}

/** A table's cells, split on unescaped pipes (GitHub splits on them even inside code spans). */
const cellsOf = (row: string): string[] =>
  row
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim());

interface TableRow {
  line: number;
  cells: string[];
}

/** Every table whose header row has exactly these cells: its body rows, after the delimiter row. */
function tablesWithHeader(lines: Line[], header: string[]): TableRow[][] {
  const tables: TableRow[][] = [];
  lines.forEach((line, i) => {
    if (line.fenced || !line.text.trim().startsWith('|')) return;
    if (cellsOf(line.text).join('|') !== header.join('|')) return;
    const rows: TableRow[] = [];
    for (const row of lines.slice(i + 2)) {
      if (row.fenced || !row.text.trim().startsWith('|')) break;
      rows.push({ line: row.number, cells: cellsOf(row.text) });
    }
    tables.push(rows);
  });
  return tables;
}

/** The one table with this header in a file of the repository, or a sentence saying why there is not one. */
function theTable(file: string, header: string[]): TableRow[] | string {
  if (!existsSync(path.join(root, file))) return `${file} does not exist`;
  const tables = tablesWithHeader(linesOf(readFileSync(path.join(root, file), 'utf8')), header);
  const [table, ...others] = tables;
  if (table === undefined || others.length > 0) {
    return `${file} has ${tables.length} tables with the header | ${header.join(' | ')} |, not one`;
  }
  return table;
}

/** The lines under a heading of a file (`## Beyond one machine`), up to the next heading of its level or above. */
function sectionOf(file: string, heading: string): Line[] {
  const lines = linesOf(readFileSync(path.join(root, file), 'utf8'));
  const level = heading.indexOf(' ');
  const start = lines.findIndex((line) => !line.fenced && line.text.trim() === heading);
  if (start === -1) throw new Error(`${file} has no heading ${heading}`);
  const end = lines.findIndex((line, i) => i > start && !line.fenced && new RegExp(`^#{1,${level}} `).test(line.text));
  return lines.slice(start + 1, end === -1 ? undefined : end);
}

/** The lines of each fenced code block among these lines whose info string is `language`. */
function codeBlocks(lines: Line[], language: string): string[][] {
  const blocks: string[][] = [];
  let block: string[] | undefined;
  const opening = new RegExp(`^ {0,3}(\`{3,}|~{3,})${language}\\s*$`);
  for (const line of lines) {
    if (block !== undefined && line.code.length > 0) {
      block.push(line.text);
    } else if (block !== undefined) {
      blocks.push(block);
      block = undefined;
    } else if (line.fenced && line.code.length === 0 && opening.test(line.text)) {
      block = [];
    }
  }
  return blocks;
}

/** The contents of a cell's code spans. */
const codeSpansOf = (cell: string): string[] => [...cell.matchAll(CODE_SPAN)].map((m) => m[2] ?? '');

/** GitHub's anchor for a heading: lowercase, only letters, digits, spaces, `-` and `_`, spaces made hyphens. */
const slugOf = (heading: string): string =>
  heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

/** The anchors of a file's headings; a repeated one gets `-1`, `-2`... as GitHub numbers them. */
function anchorsOf(lines: Line[]): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of lines) {
    const heading = line.fenced ? null : /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(line.text);
    if (!heading) continue;
    const slug = slugOf(heading[1] ?? '');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** A process's config schema, as far as this test reads it. */
type ConfigSchema = (typeof configSchemas)[keyof typeof configSchemas];
type Parses = { safeParse(input: unknown): { success: boolean; data?: unknown } };

/**
 * What a process does without the variable, written as the Default column writes it: `value` (what its schema yields
 * for the absent variable, transforms included), (required) when it refuses to start, or "no default".
 */
function fallbackOf(schema: ConfigSchema, variable: string): string {
  const field = (schema.shape as Record<string, Parses>)[variable];
  const parsed = field?.safeParse(undefined);
  // A refusal may also come from the whole schema (identity's JWT_PRIVATE_KEY, required unless ROLE=migrate).
  const whole = schema.safeParse({});
  const refusedByWhole = !whole.success && whole.error.issues.some((issue) => issue.path.join('.') === variable);
  if (!parsed?.success || refusedByWhole) return '(required)';
  if (parsed.data === undefined) return 'no default';
  return `\`${typeof parsed.data === 'string' ? parsed.data : JSON.stringify(parsed.data)}\``;
}

/** A fallback in words: "defaults to `8080`", "has no default", "is required". */
const said = (fallback: string): string =>
  fallback === 'no default' ? 'has no default' : fallback === '(required)' ? 'is required' : `defaults to ${fallback}`;

/** The phrase that stands for each service's own name (DATABASE_SCHEMA's default is computed from the service). */
const SERVICE_NAME = "the service's name";

interface DefaultPart {
  /** A service, "the others", a variable of the row without its common prefix ("region"), or '' for all. */
  label: string;
  /** The value, by service: a code span's text, or the service's name for SERVICE_NAME. */
  value: (service: string) => string;
}

/**
 * A Default cell read as comma-separated parts, each a code span after an optional label; notes in parentheses are
 * not parts ("(30 days)", "(the topology's `poolMax`)"), and `required` says one of them is exactly "(required)".
 * Words the rules do not cover are returned as problems, so the test never skips what it cannot read.
 */
function defaultParts(cell: string): { parts: DefaultPart[]; required: boolean; unread: string[] } {
  const spans: string[] = [];
  const text = cell.replace(CODE_SPAN, (_span, _ticks, content: string) => `⟨${spans.push(content) - 1}⟩`);
  const notes = [...text.matchAll(/\([^()]*\)/g)].map((m) => m[0]);
  const parts: DefaultPart[] = [];
  const unread: string[] = [];
  for (const part of text.replace(/\([^()]*\)/g, ' ').split(',')) {
    const values = [...part.matchAll(/⟨(\d+)⟩/g)].map((m) => spans[Number(m[1])] ?? '');
    const label = part.replace(/⟨\d+⟩/g, ' ').replace(/\s+/g, ' ').trim();
    const [value] = values;
    if (values.length > 1) unread.push(`"${part.trim()}" holds ${values.length} values`);
    else if (value !== undefined) parts.push({ label, value: () => `\`${value}\`` });
    else if (label === SERVICE_NAME) parts.push({ label: '', value: (service) => `\`${service}\`` });
    else if (label !== '') unread.push(`"${label}" gives no value`);
  }
  return { parts, required: notes.includes('(required)'), unread };
}

/**
 * The default a row gives one service for one of its variables: the part labelled with the service or the variable,
 * else the one labelled "the others", else an unlabelled one; with none, "(required)" if the cell says so, else no
 * default. Several parts that apply are shown together, and so never equal a default.
 */
function documentedDefault(parts: DefaultPart[], required: boolean, short: string, service: string): string {
  const labelled = (labels: string[]) => parts.filter((p) => labels.includes(p.label.toLowerCase()));
  const [applies = [], others = [], all = []] = [labelled([service, short]), labelled(['the others']), labelled([''])];
  const chosen = [applies, others, all].find((list) => list.length > 0);
  if (chosen === undefined) return required ? '(required)' : 'no default';
  return chosen.map((p) => p.value(service)).join(' or ');
}

/** Why a configuration row's Default cell disagrees with the config schemas of the services reading its variables. */
function defaultProblems(where: string, variables: string[], cell: string, readers: Map<string, string[]>): string[] {
  const { parts, required, unread } = defaultParts(cell);
  const problems = unread.map((words) => `${where}: the Default cell's ${words}`);
  // In a row of several variables (`S3_REGION`, `S3_BUCKET`), each is labelled without the prefix they share.
  const prefix = variables.length > 1 ? commonPrefix(variables).replace(/[^_]*$/, '') : '';
  const short = (variable: string) => variable.slice(prefix.length).toLowerCase().replace(/_/g, ' ');
  const labels = new Set(['', 'the others', ...variables.map(short)]);
  for (const variable of variables) for (const service of readers.get(variable) ?? []) labels.add(service);
  for (const { label } of parts) {
    if (!labels.has(label.toLowerCase()))
      problems.push(`${where}: the Default cell's label "${label}" is no service, variable of the row or "the others"`);
  }
  for (const variable of variables) {
    // The services whose config and row disagree in the same way are named together, in one problem.
    const mismatches = new Map<string, string[]>();
    for (const service of readers.get(variable) ?? []) {
      const truth = fallbackOf(configSchemas[service as keyof typeof configSchemas], variable);
      const documented = documentedDefault(parts, required, short(variable), service);
      if (truth === documented) continue;
      const key = `${said(truth)} in the config of %s; the row says ${documented}`;
      mismatches.set(key, [...(mismatches.get(key) ?? []), service]);
    }
    for (const [key, services] of mismatches)
      problems.push(`${where}: ${variable} ${key.replace('%s', services.join(', '))}`);
  }
  return problems;
}

/** The longest start all the strings share. */
const commonPrefix = (strings: string[]): string =>
  strings.reduce((prefix, s) => {
    let n = 0;
    while (n < prefix.length && prefix[n] === s[n]) n++;
    return prefix.slice(0, n);
  });

/** Each variable some process's config reads, with those processes. */
function readersOfVariables(): Map<string, string[]> {
  const readers = new Map<string, string[]>();
  for (const [service, schema] of Object.entries(configSchemas)) {
    for (const variable of Object.keys(schema.shape))
      readers.set(variable, [...(readers.get(variable) ?? []), service]);
  }
  return readers;
}

/** Every Markdown file of the repository that git does not ignore, tracked or new, as paths from the root. */
const markdownFiles: string[] = execFileSync(
  'git',
  ['ls-files', '--cached', '--others', '--exclude-standard', '*.md'],
  {
    cwd: root,
    encoding: 'utf8',
  },
)
  .split('\n')
  .filter((file) => file !== '' && existsSync(path.join(root, file)));
const markdownLines = new Map(
  markdownFiles.map((file) => [file, linesOf(readFileSync(path.join(root, file), 'utf8'))]),
);

describe('the documentation', () => {
  it('lists in docs/configuration.md every variable a process reads, with exactly the services whose config reads it', () => {
    const file = 'docs/configuration.md';
    const processes = Object.keys(configSchemas);
    const processWord = new RegExp(`\\b(${processes.join('|')})\\b`, 'g');
    const readers = readersOfVariables();

    const table = theTable(file, ['Variable', 'Used by', 'Default', 'Meaning']);
    if (typeof table === 'string') throw new Error(table);

    const problems: string[] = [];
    const documentedAt = new Map<string, number>();
    for (const { line, cells } of table) {
      const [names = '', usedBy = ''] = cells;
      const variables = [...names.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1] ?? '');
      // A note in parentheses, such as "(worker)", says which role reads it; the service is what is checked.
      const services = [...usedBy.replace(/\([^)]*\)/g, '').matchAll(processWord)].map((m) => m[1] ?? '');
      if (variables.length === 0) problems.push(`${file}:${line}: names no variable as \`NAME\` in its first cell`);
      if (services.length === 0) problems.push(`${file}:${line}: names none of ${processes.join(', ')} in "Used by"`);
      for (const variable of variables) {
        const earlier = documentedAt.get(variable);
        if (earlier !== undefined) {
          problems.push(`${file}:${line}: ${variable} is already in the row of line ${earlier}`);
          continue;
        }
        documentedAt.set(variable, line);
        const truth = readers.get(variable);
        if (truth === undefined) problems.push(`${file}:${line}: ${variable} is read by no service's config`);
        else if (services.length > 0 && [...services].sort().join(', ') !== [...truth].sort().join(', ')) {
          problems.push(
            `${file}:${line}: ${variable} is read by ${truth.join(', ')}; the row says ${services.join(', ')}`,
          );
        }
      }
    }
    for (const [variable, services] of readers) {
      if (!documentedAt.has(variable))
        problems.push(`${file}: ${variable} (used by ${services.join(', ')}) has no row`);
    }
    expect(problems).toEqual([]);
  });

  // The Default column's rules, for every service that reads the variable:
  // - a value is what the service's schema yields when the variable is absent, as a code span; nothing is read from
  //   the environment then (STORAGE_DIR's `.wms/storage` is resolved against the working directory only afterwards);
  // - defaults computed per service (ports, pool sizes from the topology) are given per service, "<service> `value`",
  //   with "the others `value`" for the rest; "the service's name" is DATABASE_SCHEMA's rule, each service its own;
  // - a row of several variables labels each value with the variable's name without their shared prefix;
  // - "(required)" is a variable the schema refuses to start without; any other note and no value (`(unset: ...)`,
  //   `(required with \`fs\`)`, a condition checked after parsing) is a variable without a default.
  it("gives in docs/configuration.md each variable's default as each config schema that reads it has it", () => {
    const file = 'docs/configuration.md';
    const readers = readersOfVariables();
    const table = theTable(file, ['Variable', 'Used by', 'Default', 'Meaning']);
    if (typeof table === 'string') throw new Error(table);

    const problems: string[] = [];
    const compared = new Set<string>();
    for (const { line, cells } of table) {
      const [names = '', , defaults = ''] = cells;
      // The variables no config reads are the previous test's to report; here each read one is compared.
      const variables = [...names.matchAll(/`([A-Z][A-Z0-9_]*)`/g)]
        .map((m) => m[1] ?? '')
        .filter((variable) => readers.has(variable));
      for (const variable of variables) compared.add(variable);
      problems.push(...defaultProblems(`${file}:${line}`, variables, defaults, readers));
    }
    expect(problems).toEqual([]);
    // Every variable a config reads had its default compared (a row lost would otherwise pass unseen).
    expect([...readers.keys()].filter((variable) => !compared.has(variable))).toEqual([]);
  });

  it('shows in docs/architecture.md the topology of protos/src/topology.ts, one row per service in any order', () => {
    const file = 'docs/architecture.md';
    const table = theTable(file, ['service', 'proto', 'gRPC port', 'metrics port', 'roles', 'calls']);
    if (typeof table === 'string') throw new Error(table);

    const problems: string[] = [];
    const rowOf = new Map<string, number>();
    for (const { line, cells } of table) {
      const [name = '', ...documented] = cells;
      if (rowOf.has(name)) problems.push(`${file}:${line}: ${name} already has the row of line ${rowOf.get(name)}`);
      rowOf.set(name, line);
      if (!(serviceNames as readonly string[]).includes(name)) {
        problems.push(`${file}:${line}: ${name} is no service of the topology`);
        continue;
      }
      const row = topology[name as keyof typeof topology];
      const expected = {
        proto: `\`${row.proto}\``,
        'gRPC port': String(row.grpcPort),
        'metrics port': String(row.metricsPort),
        roles: row.roles.join(', '),
        calls: row.peers.length === 0 ? '—' : row.peers.join(', '),
      };
      Object.entries(expected).forEach(([column, value], i) => {
        if (documented[i] === value) return;
        problems.push(
          `${file}:${line}: ${name}'s ${column} is ${value} in topology.ts; the row says ${documented[i] ?? '(nothing)'}`,
        );
      });
    }
    for (const name of serviceNames) if (!rowOf.has(name)) problems.push(`${file}: ${name} has no row`);
    expect(problems).toEqual([]);
  });

  it("gives in docs/architecture.md's Citus section the placement maps' commands (testkit citusCommands), in order", () => {
    const blocks = codeBlocks(sectionOf('docs/architecture.md', '## Beyond one machine'), 'sql');
    expect(blocks).toEqual([citusCommands(PLACEMENTS)]);
  });

  it('names in docs/architecture.md the reference and local tables of the placement maps, each as its map places it', () => {
    const table = theTable('docs/architecture.md', ['Table', 'Placement', 'Why']);
    if (typeof table === 'string') throw new Error(table);
    const documented = table.flatMap(({ cells: [tables = '', placement = ''] }) =>
      codeSpansOf(tables).map((name) => `${name}: ${placement}`),
    );
    const truth = PLACEMENTS.flatMap((map) =>
      map.distribution === 'by-workspace'
        ? Object.entries(map.tables)
            .filter(([, placement]) => placement !== 'distributed')
            .map(([name, placement]) => `${map.schema}.${name}: ${placement}`)
        : [],
    );
    expect(documented.sort()).toEqual(truth.sort());
  });

  it('lists in docs/architecture.md what each placement map keeps until a later release (its untilNextRelease)', () => {
    const table = theTable('docs/architecture.md', ['Schema', 'Kept', 'Why']);
    // No table when no map keeps anything.
    const documented = (typeof table === 'string' ? [] : table).flatMap(({ cells: [schema = '', kept = ''] }) =>
      codeSpansOf(kept).map((name) => `${schema}: ${name}`),
    );
    const truth = PLACEMENTS.flatMap((map) =>
      map.distribution === 'by-workspace' ? (map.untilNextRelease ?? []).map((name) => `${map.schema}: ${name}`) : [],
    );
    expect(documented.sort()).toEqual(truth.sort());
  });

  it('links only to files and headings of the repository, and never mentions ../shared/ (outside it)', () => {
    const anchorCache = new Map<string, Set<string>>();
    const anchorsOfFile = (absolute: string): Set<string> => {
      let anchors = anchorCache.get(absolute);
      if (anchors === undefined) {
        anchors = anchorsOf(linesOf(readFileSync(absolute, 'utf8')));
        anchorCache.set(absolute, anchors);
      }
      return anchors;
    };

    /** Why a link's target is wrong, or undefined when it is right or not ours to check (another site, `/...`). */
    const wrongTarget = (file: string, target: string): string | undefined => {
      if (/^[a-z][a-z\d+.-]*:/i.test(target) || target.startsWith('/')) return undefined;
      const hash = target.indexOf('#');
      const pathPart = hash === -1 ? target : target.slice(0, hash);
      const anchor = hash === -1 ? '' : decodeURIComponent(target.slice(hash + 1));
      // A bare `#anchor` is a heading of the file itself.
      const absolute =
        pathPart === '' ? path.join(root, file) : path.resolve(root, path.dirname(file), decodeURIComponent(pathPart));
      const fromRoot = path.relative(root, absolute);
      if (fromRoot === '..' || fromRoot.startsWith(`..${path.sep}`)) return 'is outside the repository';
      if (!existsSync(absolute)) return 'does not exist';
      if (anchor !== '' && absolute.endsWith('.md') && !anchorsOfFile(absolute).has(anchor)) {
        return `has no heading whose anchor is #${anchor}`;
      }
      return undefined;
    };

    const problems: string[] = [];
    for (const [file, lines] of markdownLines) {
      for (const line of lines) {
        if (line.text.includes('../shared/'))
          problems.push(`${file}:${line.number}: mentions ../shared/, which a checkout does not have`);
        // `](target)` ends every inline link and image, whatever its text holds (an image inside a link, brackets).
        for (const [, target = ''] of line.prose.matchAll(/\]\(([^()\s]+)(?:\s+"[^"]*")?\)/g)) {
          const wrong = wrongTarget(file, target);
          if (wrong !== undefined) problems.push(`${file}:${line.number}: link ${target} ${wrong}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('names in its commands only pnpm built-ins and scripts of the root package.json', () => {
    const { scripts } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const problems: string[] = [];
    for (const [file, lines] of markdownLines) {
      for (const line of lines) {
        // Commands are written as code; in prose "pnpm" is the tool's name ("pnpm is the version package.json pins").
        for (const code of line.code) {
          for (const [, first, second] of code.matchAll(
            /\bpnpm(?:@[\w.-]+)?[ \t]+([^\s;&|'"`)]+)(?:[ \t]+([^\s;&|'"`)]+))?/g,
          )) {
            const name = first === 'run' ? second : first;
            if (name === undefined || PNPM_BUILTINS.has(name) || Object.hasOwn(scripts, name)) continue;
            problems.push(
              `${file}:${line.number}: pnpm ${name} is neither a pnpm command nor a script of package.json`,
            );
          }
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
