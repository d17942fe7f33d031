import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { childrenOf, parseBody, type RichNode, type TextStyle } from './markdown.ts';

const ADA = '0193a4b2-7c1d-7e21-8f3a-1b2c3d4e5f63';
const BOB = '0193a4b2-7c1d-7e21-8f3a-1b2c3d4e5f70';
const names = new Map([[ADA, 'Ada']]);

const nodes = (body: string, known: ReadonlyMap<string, string> = names) => childrenOf(parseBody(body), known);
const joined = (list: RichNode[]) => list.map((n) => n.text).join('');
const style = (on: Partial<TextStyle> = {}): TextStyle => ({
  bold: false,
  italic: false,
  strike: false,
  code: false,
  ...on,
});
const text = (t: string, on?: Partial<TextStyle>): RichNode => ({ type: 'text', text: t, style: style(on) });

describe('message Markdown into nodes', () => {
  it('is [] for an empty body, and one plain text node for plain text', () => {
    expect(nodes('')).toEqual([]);
    expect(nodes('The new diagram is up.')).toEqual([text('The new diagram is up.')]);
  });

  it('styles emphasis, strong, strike and inline code, nesting setting several', () => {
    expect(nodes('a *b* **c** ~~d~~ `e` ***f***')).toEqual([
      text('a '),
      text('b', { italic: true }),
      text(' '),
      text('c', { bold: true }),
      text(' '),
      text('d', { strike: true }),
      text(' '),
      text('e', { code: true }),
      text(' '),
      text('f', { bold: true, italic: true }),
    ]);
  });

  it('keeps line breaks as \\n and separates paragraphs with \\n\\n', () => {
    expect(nodes('one\ntwo\n\nthree')).toEqual([text('one\ntwo\n\nthree')]);
  });

  it('makes links of [label](url) and bare http(s) URLs, with their style', () => {
    expect(nodes('see [the **docs**](https://example.org/a?b=1) or https://wms.example/x.')).toEqual([
      text('see '),
      { type: 'link', text: 'the ', url: 'https://example.org/a?b=1', style: style() },
      { type: 'link', text: 'docs', url: 'https://example.org/a?b=1', style: style({ bold: true }) },
      text(' or '),
      { type: 'link', text: 'https://wms.example/x', url: 'https://wms.example/x', style: style() },
      text('.'),
    ]);
    expect(nodes('[mail me](mailto:ada@example.org)')).toEqual([
      { type: 'link', text: 'mail me', url: 'mailto:ada@example.org', style: style() },
    ]);
  });

  it('leaves every other URL as text: javascript:, data:, relative, bare domains', () => {
    for (const body of [
      '[x](javascript:alert(1))',
      '[x](JaVaScRiPt:alert(1))',
      '[x](data:text/html,hi)',
      '[x](/relative)',
      '[x](ftp://example.org)',
      'www.example.org',
      '<javascript:alert(1)>',
    ]) {
      const list = nodes(body);
      expect(
        list.every((n) => n.type === 'text'),
        body,
      ).toBe(true);
      expect(joined(list), body).toBe(body);
    }
  });

  it('keeps the text of a link without a URL as text: [x](), [x]( ), [x](<>)', () => {
    for (const body of ['[x]()', '[x]( )', '[x](<>)', '[*]()', '[**x**]( "title")'])
      expect(
        nodes(body).every((n) => n.type === 'text'),
        body,
      ).toBe(true);
    expect(nodes('[x]()')).toEqual([text('x')]);
  });

  it('keeps raw HTML as text', () => {
    expect(nodes('<img src=x onerror=alert(1)> <b>hi</b>')).toEqual([text('<img src=x onerror=alert(1)> <b>hi</b>')]);
    expect(joined(nodes('<div>\nblock\n</div>'))).toBe('<div>\nblock\n</div>');
  });

  it('makes a mention of <@actor_id> of a known actor, and leaves an unknown one as text', () => {
    expect(nodes(`hi <@${ADA.toUpperCase()}> and <@${BOB}>!`)).toEqual([
      text('hi '),
      { type: 'mention', text: '@Ada', actor_id: ADA },
      text(` and <@${BOB}>!`),
    ]);
    expect(parseBody(`<@${BOB}> <@${ADA}> <@${BOB}>`).mentionIds).toEqual([BOB, ADA]);
    expect(parseBody(`\`<@${ADA}>\` and\n\n    <@${ADA}>`).mentionIds).toEqual([]);
  });

  it('makes fenced and indented code blocks, with the fence language or null', () => {
    expect(nodes('run:\n\n```ts extra\nconst a = 1;\n```\n\n    indented\n\nafter')).toEqual([
      text('run:\n\n'),
      { type: 'code_block', text: 'const a = 1;', language: 'ts' },
      text('\n\n'),
      { type: 'code_block', text: 'indented', language: null },
      text('\n\nafter'),
    ]);
  });

  it('makes quotes one node per text run', () => {
    expect(nodes('> said *this*\n> twice\n\nreply')).toEqual([
      { type: 'quote', text: 'said ', style: style() },
      { type: 'quote', text: 'this', style: style({ italic: true }) },
      { type: 'quote', text: '\ntwice', style: style() },
      text('\n\nreply'),
    ]);
  });

  it('keeps the separators between blocks as text, inside a quote too', () => {
    expect(nodes('before\n\n> a\n>\n> b')).toEqual([
      text('before\n\n'),
      { type: 'quote', text: 'a', style: style() },
      text('\n\n'),
      { type: 'quote', text: 'b', style: style() },
    ]);
  });

  it('reads headings as text, and list items with their bullet or number on their own lines', () => {
    expect(joined(nodes('# Title\n\n- one\n- two\n  - inner\n\n3. three\n4. four'))).toBe(
      'Title\n\n• one\n• two\n  • inner\n\n3. three\n4. four',
    );
  });
});

describe('message Markdown, hostile', () => {
  const allowed = (list: RichNode[]) => list.every((n) => n.type !== 'link' || /^(https?|mailto):/i.test(n.url));
  // Every node has text, but a code block may be empty.
  const wellFormed = (list: RichNode[]) =>
    list.every(
      (n) =>
        typeof n.text === 'string' &&
        (n.text.length > 0 || n.type === 'code_block') &&
        ['text', 'link', 'mention', 'code_block', 'quote'].includes(n.type),
    );

  it('never throws, makes only non-empty nodes of the five types, and links only allowed URLs, for any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-composite', maxLength: 400 }), (body) => {
        const list = nodes(body);
        expect(wellFormed(list)).toBe(true);
        expect(allowed(list)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('holds for strings made of Markdown punctuation, deep nesting and long runs', () => {
    const markup = fc.constantFrom(
      '*',
      '_',
      '[',
      ']',
      '(',
      ')',
      '<',
      '>',
      '`',
      '~',
      '#',
      '-',
      '\n',
      ' ',
      'a',
      '!',
      'javascript:',
      'https://x.y',
      '@',
    );
    fc.assert(
      fc.property(fc.array(markup, { maxLength: 300 }), (parts) => {
        const list = nodes(parts.join(''));
        expect(wellFormed(list)).toBe(true);
        expect(allowed(list)).toBe(true);
      }),
      { numRuns: 500 },
    );
    for (const body of [
      '*'.repeat(40_000),
      '_'.repeat(40_000),
      '['.repeat(40_000),
      '<'.repeat(40_000),
      '`'.repeat(40_000),
      '>'.repeat(40_000),
      `${'*a'.repeat(20_000)}`,
      `${'[a]('.repeat(8000)}`,
    ]) {
      const list = nodes(body);
      expect(wellFormed(list)).toBe(true);
      expect(allowed(list)).toBe(true);
    }
  });

  it('bounds the work: a link text over 200 characters or a URL over 2048 stays text, and so does a paragraph of over 500 markup characters', () => {
    // (Past the bound, the bare URL inside is still linked: it is the `[text](url)` that stays text.)
    const labelled = (list: RichNode[], label: string) => list.some((n) => n.type === 'link' && n.text === label);
    const label = 'l'.repeat(200);
    expect(labelled(nodes(`[${label}](https://a.example)`), label)).toBe(true);
    expect(labelled(nodes(`[${label}l](https://a.example)`), `${label}l`)).toBe(false);
    const url = `https://a.example/${'u'.repeat(2048 - 18)}`;
    expect(url).toHaveLength(2048);
    expect(labelled(nodes(`[x](${url})`), 'x')).toBe(true);
    expect(labelled(nodes(`[x](${url}u)`), 'x')).toBe(false);
    const busy = '*a* '.repeat(250);
    expect(nodes(busy).some((n) => n.type === 'text' && n.style.italic)).toBe(true);
    expect(nodes(`${busy}*`)).toEqual([text(`${busy}*`.trimEnd())]);
  });

  it('bounds a body: over 1,000 lines, or over 2,000 markup characters in its paragraphs, is plain text; code is not counted', () => {
    const italic = (list: RichNode[]) => list.some((n) => n.type === 'text' && n.style.italic);
    /** `n` lines ended by `end`, the last one emphasised. */
    const lines = (n: number, end = '\n') => `${'a'.concat(end).repeat(n - 1)}*b*`;
    for (const end of ['\n', '\r', '\r\n']) {
      expect(italic(nodes(lines(1_000, end)))).toBe(true);
      expect(nodes(lines(1_001, end))).toEqual([text(lines(1_001, end))]);
    }
    // Six paragraphs of 400: each within its bound, all over the body's.
    const paragraph = '*a* '.repeat(200).trimEnd();
    const six = Array.from({ length: 6 }, () => paragraph).join('\n\n');
    expect(italic(nodes(six))).toBe(false);
    expect(joined(nodes(six))).toBe(six);
    const withCode = `${paragraph}\n\n\`\`\`c\n${'*p[i] < *q; '.repeat(800)}\n\`\`\``;
    expect(italic(nodes(withCode))).toBe(true);
    expect(nodes(withCode).at(-1)).toMatchObject({ type: 'code_block', language: 'c' });
  });

  it('reads a body nested deeper than 20 blocks as it was written', () => {
    for (const body of ['>'.repeat(40_000), `${'> '.repeat(30)}deep *text*`, `${'- '.repeat(30)}x`])
      expect(nodes(body)).toEqual([text(body)]);
    expect(joined(nodes(`${'> '.repeat(5)}five`))).toBe('five');
  });

  it('gives the text back unchanged when it has no Markdown in it', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ,?]{0,200}[A-Za-z0-9?]$/), (body) => {
        expect(joined(nodes(body))).toBe(body);
      }),
    );
  });
});
