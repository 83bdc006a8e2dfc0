import { describe, expect, it } from 'vitest';
import { scanList, type ScannedList } from './list-scan.ts';

const encode = (text: string) => new TextEncoder().encode(text);
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

function items(bytes: Uint8Array, list: ScannedList): unknown[] {
  const found: unknown[] = [];
  for (let i = 0; i < list.spans.length; i += 2)
    found.push(JSON.parse(decode(bytes.subarray(list.spans[i], list.spans[i + 1]))));
  return found;
}

function scan(text: string, fields: string[] = []) {
  const bytes = encode(text);
  const list = scanList(bytes, 'users', fields);
  return list
    ? { list, items: items(bytes, list), around: JSON.parse(list.skeleton) as unknown, keys: [...list.keys] }
    : null;
}

/** A small seeded generator (mulberry32): the same cases every run. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TRICKY = [
  '"',
  '\\',
  '{',
  '}',
  '[',
  ']',
  ',',
  ':',
  ' ',
  '\n',
  '\u00e9',
  '\u20ac',
  '\u{1f600}',
  '\\"',
  'userid',
  '\u0000',
  '/',
];

function randomValue(next: () => number, depth: number): unknown {
  const pick = Math.floor(next() * (depth > 2 ? 5 : 7));
  switch (pick) {
    case 0:
      return Math.floor(next() * 1e6) - 5e5;
    case 1:
      return next() * 100;
    case 2:
      return [null, true, false][Math.floor(next() * 3)];
    case 3:
    case 4:
      return Array.from(
        { length: Math.floor(next() * 6) },
        () => TRICKY[Math.floor(next() * TRICKY.length)],
      ).join('');
    case 5:
      return Array.from({ length: Math.floor(next() * 4) }, () => randomValue(next, depth + 1));
    default:
      return randomItem(next, depth + 1);
  }
}

function randomItem(next: () => number, depth = 0): Record<string, unknown> {
  const item: Record<string, unknown> = {};
  if (depth === 0) item.userid = Math.floor(next() * 1e9);
  for (let i = Math.floor(next() * 5); i > 0; i--)
    item[String(randomValue(next, 3))] = randomValue(next, depth);
  return item;
}

function randomPage(next: () => number): { users: Record<string, unknown>[]; pagination: { next: string } } {
  return {
    users: Array.from({ length: Math.floor(next() * 8) }, () => randomItem(next)),
    pagination: { next: 'https://api.example/v1/users?startrow=9' },
  };
}

describe("finding a list page's items in its bytes", () => {
  it('finds each item as its own JSON and leaves the rest of the body around an empty list', () => {
    const page = {
      users: [
        { userid: 1, name: 'Ann' },
        { userid: 2, tags: ['a', { b: [] }] },
      ],
      pagination: { next: 'n' },
    };
    const found = scan(JSON.stringify(page), ['userid'])!;
    expect(found.items).toEqual(page.users);
    expect(found.around).toEqual({ users: [], pagination: { next: 'n' } });
    expect(found.keys).toEqual([1, 2]);
  });

  it('reads an empty list and one before or after other fields', () => {
    expect(scan('{"users":[]}')!.items).toEqual([]);
    expect(scan('{"pagination":{"next":"x"},"users":[{"userid":3}]}', ['userid'])!.keys).toEqual([3]);
  });

  it('steps over strings holding brackets, braces, commas, escaped quotes and backslashes', () => {
    const user = { userid: 7, notes: 'a "quoted" {brace} [x], c:\\dir\\', more: '\\"}]' };
    const found = scan(JSON.stringify({ users: [user, { userid: 8 }] }), ['userid'])!;
    expect(found.items).toEqual([user, { userid: 8 }]);
    expect(found.keys).toEqual([7, 8]);
  });

  it('reads bodies laid out with whitespace, a byte-order mark, and text beyond ASCII', () => {
    const page = { users: [{ userid: 1, name: 'Zoë 😀 €' }, { userid: 2 }] };
    const found = scan(`\ufeff \n${JSON.stringify(page, null, 2)}\r\n`, ['userid'])!;
    expect(found.items).toEqual(page.users);
    expect(found.keys).toEqual([1, 2]);
  });

  it("reads a key field only when it is a plain integer named once at the item's top level", () => {
    const body =
      '{"users":[{"userid":12},{"userid":-3},{"userid":"12"},{"userid":1.5},{"userid":1e3},{"userid":null},{"name":"x"},{"userid":1,"userid":2},{"boss":{"userid":4}},{"userid":012},{"userid":1234567890123456}]}';
    const list = scanList(encode(body), 'users', ['userid'])!;
    expect([...list.keys]).toEqual([12, -3, NaN, NaN, NaN, NaN, NaN, NaN, NaN, NaN, NaN]);
  });

  it('reads several key fields per item, in the order asked', () => {
    const list = scanList(encode('{"users":[{"userid":5,"credentialid":9},{"credentialid":9}]}'), 'users', [
      'credentialid',
      'userid',
    ])!;
    expect([...list.keys]).toEqual([9, 5, 9, NaN]);
  });

  it('gives up on anything but an object holding the list of objects once', () => {
    for (const body of [
      '[{"userid":1}]',
      '{"people":[{"userid":1}]}',
      '{"users":[{"userid":1}],"users":[]}',
      '{"us\\u0065rs":[{"userid":1}]}',
      '{"users":{"userid":1}}',
      '{"users":[1,2]}',
      '{"users":[[{"userid":1}]]}',
      '{"users":[{"userid":1}]} trailing',
      '{"users":[{"userid":1}],}',
      '{"users":[{"userid":1},]}',
      '{"users":[{"userid":1}{"userid":2}]}',
      '{"users":[{"userid":"1}]}',
      '',
    ]) {
      expect(scanList(encode(body), 'users', ['userid']), body).toBeNull();
    }
  });

  it('finds the same items as JSON.parse in generated pages, compact and indented', () => {
    const next = random(1);
    for (let n = 0; n < 300; n++) {
      const page = randomPage(next);
      for (const text of [JSON.stringify(page), JSON.stringify(page, null, n % 4)]) {
        const found = scan(text, ['userid'])!;
        expect(found.items).toEqual(page.users);
        // a generated field may be named userid too, with a value that is no key
        expect(found.keys).toEqual(page.users.map((u) => (Number.isSafeInteger(u.userid) ? u.userid : NaN)));
      }
    }
  });

  it('accepts a damaged body only when JSON.parse reads the whole of it as the same items', () => {
    // what the caller does with a scan: the text around parsed, each item parsed; that must agree with parsing the
    // whole
    const next = random(2);
    const marks = encode('"\\{}[],: x1\u00e9');
    let accepted = 0;
    for (let n = 0; n < 4000; n++) {
      const text = encode(JSON.stringify(randomPage(next)));
      const at = Math.floor(next() * text.length);
      const mark = marks[Math.floor(next() * marks.length)]!;
      // a byte inserted, dropped or replaced (half a character of UTF-8 too)
      const inserted = n % 3 === 1 ? [] : [mark];
      const rest = text.subarray(n % 3 === 0 ? at : at + 1);
      const bytes = new Uint8Array(at + inserted.length + rest.length);
      bytes.set(text.subarray(0, at));
      bytes.set(inserted, at);
      bytes.set(rest, at + inserted.length);
      const list = scanList(bytes, 'users', []);
      let scanned: unknown[] | null = null;
      try {
        const around = list ? (JSON.parse(list.skeleton) as { users?: unknown }) : null;
        if (list && Array.isArray(around?.users) && around.users.length === 0) scanned = items(bytes, list);
      } catch {
        scanned = null;
      }
      if (scanned === null) continue;
      accepted++;
      const damaged = decode(bytes);
      expect((JSON.parse(damaged) as { users: unknown[] }).users, damaged).toEqual(scanned);
    }
    // the damage often lands where JSON allows it (inside a string, spacing): those pages must still be read
    expect(accepted).toBeGreaterThan(400);
  });
});
