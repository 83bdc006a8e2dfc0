/**
 * How a text file splits into columns: "one column" is a candidate scored like
 * the delimiters, and a delimiter whose cells are only another delimiter loses.
 */
import { describe, expect, it } from 'vitest';
import { strToU8 } from 'fflate';
import { readSpreadsheet } from './index.ts';

const read = (name: string, text: string) => readSpreadsheet(name, strToU8(text));

describe('the delimiter', () => {
  it('reads a comma file whose values are wrapped in pipes as comma-separated, the pipes taken off', () => {
    const lines = [
      '|Username|,|First name|,|Last name|',
      '|helene.dubois|,|Hélène|,|Dubois|',
      '|gerard.lefevre|,|Gérard|,|Lefèvre, Jr|',
      "|zoe.obrien|,|Zoë|,|O'Brien|",
    ];
    const table = read('people.csv', `${lines.join('\n')}\n`);
    expect(table.source).toBe('UTF-8 text, comma-separated');
    expect(table.rows.map((r) => r.cells)).toEqual([
      ['Username', 'First name', 'Last name'],
      ['helene.dubois', 'Hélène', 'Dubois'],
      ['gerard.lefevre', 'Gérard', 'Lefèvre, Jr'],
      ['zoe.obrien', 'Zoë', "O'Brien"],
    ]);
  });

  it('keeps a one-column sheet whole when one line of 33 holds a semicolon', () => {
    const lines = [
      'Username',
      ...Array.from({ length: 32 }, (_, i) => (i === 17 ? 'dupont;old account' : `person.${i}`)),
    ];
    const table = read('usernames.csv', `${lines.join('\n')}\n`);
    expect(table.source).toBe('UTF-8 text, one column');
    expect(table.rows).toHaveLength(33);
    expect(table.rows[18]?.cells).toEqual(['dupont;old account']);
  });

  it('still reads a pipe-separated file with a plain header as pipe-separated', () => {
    const table = read('p.txt', 'username|email\nann|a@x.io\nbo|b@x.io\n');
    expect(table.source).toBe('UTF-8 text, pipe-separated');
    expect(table.rows[2]?.cells).toEqual(['bo', 'b@x.io']);
  });

  it('reads a semicolon file with decimal commas as semicolon-separated', () => {
    const table = read('p.csv', 'username;allowance\nann;12,50\nbo;8,75\n');
    expect(table.source).toBe('UTF-8 text, semicolon-separated');
    expect(table.rows[1]?.cells).toEqual(['ann', '12,50']);
  });

  it('splits a file whose title line holds no delimiter by the delimiter of the lines below it', () => {
    const table = read('p.csv', 'Staff list November\nusername,first name\nann,Ann\nbo,Bo\n');
    expect(table.source).toBe('UTF-8 text, comma-separated');
    expect(table.rows[2]?.cells).toEqual(['ann', 'Ann']);
  });
});
