// Makes the import's fixture corpus with a real spreadsheet program: LibreOffice
// Calc, headless. The source is a flat OpenDocument sheet written here (styles,
// number formats, a merged title row, two sheets); LibreOffice saves it as XLSX
// and as CSV in the encodings and delimiters HR exports use. Broken files are
// made from those. Run: node scripts/make-import-fixtures.mjs [big | encodings | corpus [encoding]]
// ("big" also makes the large files the e2e and the benchmark use, in a temp folder).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const FIXTURES = path.resolve(here, '../src/renderer/features/import/fixtures');

const PEOPLE = [
  // employee no. (number shown through 00000), forename, surname, e-mail, status, start date
  [123, 'José', 'Müller', 'jose.muller@example.com', 'Active', '2024-03-05'],
  [4567, 'Zoë', 'Ødegård', 'zoe.odegard@example.com', 'Offline', '2023-11-30'],
  [89, 'Siân', "O'Brien", 'sian.obrien@example.com', 'Active', '2025-01-12'],
  [90210, 'Łukasz', 'Żółć', 'lukasz.zolc@example.com', 'Inactive', '2022-07-01'],
  [7, 'Nia', '=HYPERLINK("http://x","y")', 'nia@example.com', 'Active', '2024-09-09'],
];
const HEADERS = ['Employee No.', 'Forename', 'Surname', 'Work Email', 'Status', 'Start date'];

const esc = (s) =>
  String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const STRING_CELL = 'office:value-type="string" calcext:value-type="string"';
const text = (s) => {
  const escaped = esc(s);
  return `<table:table-cell ${STRING_CELL}><text:p>${escaped}</text:p></table:table-cell>`;
};
/** An employee number, stored as a number and shown through 00000 (as HR's sheets do). */
const idCell = (id) => {
  const shown = String(id).padStart(5, '0');
  const value = `office:value-type="float" office:value="${id}" calcext:value-type="float"`;
  return `<table:table-cell table:style-name="ce-id" ${value}><text:p>${shown}</text:p></table:table-cell>`;
};
const dateCell = (date) => {
  const value = `office:value-type="date" office:date-value="${date}" calcext:value-type="date"`;
  return `<table:table-cell table:style-name="ce-date" ${value}><text:p>${date}</text:p></table:table-cell>`;
};
const ID_NUMBER_STYLE = [
  '<number:number-style style:name="N-id">',
  '<number:number number:decimal-places="0" number:min-decimal-places="0" number:min-integer-digits="5"/>',
  '</number:number-style>',
].join('');
const DATE_NUMBER_STYLE = [
  '<number:date-style style:name="N-date">',
  '<number:day number:style="long"/><number:text>/</number:text>',
  '<number:month number:style="long"/><number:text>/</number:text>',
  '<number:year number:style="long"/>',
  '</number:date-style>',
].join('');
const TITLE_STYLE = [
  '<style:style style:name="ce-title" style:family="table-cell" style:parent-style-name="Default">',
  '<style:text-properties fo:font-weight="bold"/>',
  '</style:style>',
].join('');
/** A merged title row above the headers, as HR's exports have. */
const TITLE_ROW = [
  '<table:table-row>',
  '<table:table-cell table:style-name="ce-title" table:number-columns-spanned="6" table:number-rows-spanned="1"',
  ' office:value-type="string"><text:p>HR export — staff list, November 2026</text:p></table:table-cell>',
  '<table:covered-table-cell table:number-columns-repeated="5"/>',
  '</table:table-row>',
].join('');

function fods(rows = PEOPLE) {
  const body = rows
    .map(
      ([id, first, last, email, status, start]) => `<table:table-row>
      ${idCell(id)}
      ${text(first)}${text(last)}${text(email)}${text(status)}
      ${dateCell(start)}
    </table:table-row>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"
 xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"
 xmlns:number="urn:oasis:names:tc:opendocument:xmlns:datastyle:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"
 xmlns:calcext="urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0" office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.spreadsheet">
 <office:automatic-styles>
  ${ID_NUMBER_STYLE}
  ${DATE_NUMBER_STYLE}
  <style:style style:name="ce-id" style:family="table-cell" style:parent-style-name="Default" style:data-style-name="N-id"/>
  <style:style style:name="ce-date" style:family="table-cell" style:parent-style-name="Default" style:data-style-name="N-date"/>
  ${TITLE_STYLE}
 </office:automatic-styles>
 <office:body><office:spreadsheet>
  <table:table table:name="People">
   ${TITLE_ROW}
   <table:table-row><table:table-cell table:number-columns-repeated="6"/></table:table-row>
   <table:table-row>${HEADERS.map(text).join('')}</table:table-row>
   ${body}
  </table:table>
  <table:table table:name="Notes"><table:table-row>${text('Exported by the HR system')}</table:table-row></table:table>
 </office:spreadsheet></office:body>
</office:document>`;
}

function soffice(args, cwd) {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'lo-profile-'));
  try {
    execFileSync('soffice', [`-env:UserInstallation=file://${profile}`, '--headless', ...args], {
      cwd,
      stdio: 'pipe',
      timeout: 300_000,
    });
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}

/** Converts `source` (a file in `dir`) with a filter; the result gets the name `target` in FIXTURES. */
function convert(dir, source, filter, extension, target) {
  const out = path.join(dir, 'out');
  mkdirSync(out, { recursive: true });
  soffice(['--convert-to', filter, '--outdir', out, source], dir);
  const made = path.join(out, `${path.basename(source, path.extname(source))}.${extension}`);
  renameSync(made, path.join(FIXTURES, target));
}

export function makeSmall() {
  mkdirSync(FIXTURES, { recursive: true });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'import-fixtures-'));
  try {
    writeFileSync(path.join(dir, 'people.fods'), fods());
    convert(dir, 'people.fods', 'xlsx:Calc MS Excel 2007 XML', 'xlsx', 'people.xlsx');
    // CSV filter options: separator, quote, charset (76 UTF-8, 65535 UTF-16, 1 Windows-1252), first line, cell formats,
    // ..., "as shown"
    convert(
      dir,
      'people.fods',
      'csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,true',
      'csv',
      'people-utf8.csv',
    );
    convert(
      dir,
      'people.fods',
      'csv:Text - txt - csv (StarCalc):44,34,1,1,,0,false,true,true',
      'csv',
      'people-windows1252.csv',
    );
    convert(
      dir,
      'people.fods',
      'csv:Text - txt - csv (StarCalc):9,34,65535,1,,0,false,true,true',
      'csv',
      'people-utf16.txt',
    );
    convert(
      dir,
      'people.fods',
      'csv:Text - txt - csv (StarCalc):59,34,76,1,,0,false,true,true',
      'csv',
      'people-semicolon.csv',
    );
    convert(
      dir,
      'people.fods',
      'csv:Text - txt - csv (StarCalc):9,34,76,1,,0,false,true,true',
      'csv',
      'people-tab.tsv',
    );
    // Excel's "CSV UTF-8" starts with a byte-order mark
    writeFileSync(
      path.join(FIXTURES, 'people-utf8-bom.csv'),
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), readFileSync(path.join(FIXTURES, 'people-utf8.csv'))]),
    );
    writeFileSync(path.join(dir, 'headers.fods'), fods([]));
    convert(dir, 'headers.fods', 'xlsx:Calc MS Excel 2007 XML', 'xlsx', 'headers-only.xlsx');
    convert(dir, 'people.fods', 'ods', 'ods', 'people.ods');
    const xlsx = readFileSync(path.join(FIXTURES, 'people.xlsx'));
    writeFileSync(path.join(FIXTURES, 'truncated.xlsx'), xlsx.subarray(0, Math.floor(xlsx.length / 2)));
    writeFileSync(path.join(FIXTURES, 'empty.csv'), '');
    // a PNG renamed .xlsx: a real 1x1 image
    writeFileSync(
      path.join(FIXTURES, 'image.xlsx'),
      Buffer.from(
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
        'base64',
      ),
    );
    // a macro-enabled workbook as Excel saves it (its workbook part typed macroEnabled), not a renamed .xlsx
    convert(dir, 'people.fods', 'xlsm:Calc MS Excel 2007 VBA XML', 'xlsm', 'people.xlsm');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Names HR files hold, in the scripts the old single-byte encodings were made for. */
const CENTRAL_EUROPEAN = [
  ['lukasz.zolc', 'Łukasz', 'Żółć', '004711'],
  ['malgorzata.wisniewska', 'Małgorzata', 'Wiśniewska', '004712'],
  ['jiri.dvorak', 'Jiří', 'Dvořák', '004713'],
  ['zdenek.ruzicka', 'Zdeněk', 'Růžička', '004714'],
  ['agnieszka.szczesna', 'Agnieszka', 'Szczęsna', '004715'],
  ['pavla.cerna', 'Pavla', 'Černá', '004716'],
];
const CYRILLIC = [
  ['ivan.petrov', 'Иван', 'Петров', '005001'],
  ['olga.smirnova', 'Ольга', 'Смирнова', '005002'],
  ['dmitry.kuznetsov', 'Дмитрий', 'Кузнецов', '005003'],
  ['natalya.sokolova', 'Наталья', 'Соколова', '005004'],
  ['sergey.ivanov', 'Сергей', 'Иванов', '005005'],
];

/**
 * The same names saved by LibreOffice in the code pages Windows uses for them
 * (CSV filter token 3: 33 = Windows-1250, 34 = Windows-1251, 76 = UTF-8; 1250
 * and 1251 are not code page numbers there), and a UTF-8 file into which one
 * byte of another encoding strayed (a row pasted from a Windows-1252 file).
 */
export function makeEncodings() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'import-encodings-'));
  const csv = (rows) =>
    `${['Username,First name,Last name,Employee ID', ...rows.map((r) => r.join(','))].join('\n')}\n`;
  try {
    writeFileSync(path.join(dir, 'central.csv'), csv(CENTRAL_EUROPEAN));
    writeFileSync(path.join(dir, 'cyrillic.csv'), csv(CYRILLIC));
    const saveAs = (source, charset, target) => {
      const out = path.join(dir, `out-${charset}`);
      soffice(
        [
          '--infilter=CSV:44,34,76,1,,0,false,true',
          '--convert-to',
          `csv:Text - txt - csv (StarCalc):44,34,${charset},1,,0,false,true,true`,
          '--outdir',
          out,
          source,
        ],
        dir,
      );
      renameSync(path.join(out, source), path.join(FIXTURES, target));
    };
    saveAs('central.csv', 33, 'people-windows1250.csv');
    saveAs('cyrillic.csv', 34, 'people-windows1251.csv');
    saveAs('central.csv', 76, 'people-central-utf8.csv');
    const utf8 = readFileSync(path.join(FIXTURES, 'people-central-utf8.csv'));
    rmSync(path.join(FIXTURES, 'people-central-utf8.csv'));
    // "René Dupont" pasted in from a Windows-1252 file: é as the one byte 0xE9
    writeFileSync(
      path.join(FIXTURES, 'people-utf8-stray.csv'),
      Buffer.concat([utf8, Buffer.from('rene.dupont,Ren\xe9,Dupont,4717\n', 'latin1')]),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The encoding corpus: one staff list (Western, Central and Eastern European
 * names, and a few from East Asia, with €, curly quotes, °, £ and …), saved by
 * LibreOffice in every encoding the import preview offers, as HR's programs
 * save it: a character the encoding lacks becomes `?` or its nearest likeness.
 * Per encoding: the whole list, the list of the people that encoding was made
 * for, and two short files (2 and 4 people). The folder names the encoding
 * each file was saved in (the `TextDecoder` label): src/renderer/features/import/read/corpus.test.ts.
 */
const STAFF = {
  western: [
    ['helene.dubois', 'Hélène', 'Dubois', '12,50 €', 'Badge “Site A”'],
    ['gerard.lefevre', 'Gérard', 'Lefèvre', '8,75 €', 'Fridge at 4 °C'],
    ['francois.cote', 'François', 'Côté', '£30.00', 'Induction…'],
    ['jurgen.muller', 'Jürgen', 'Müller', '15,00 €', 'Größe L'],
    ['soren.odegard', 'Søren', 'Ødegård', '£12.40', 'Kontor “Nord”'],
    ['jose.nunez', 'José', 'Núñez', '9,90 €', 'Almacén 2…'],
    ['joao.conceicao', 'João', 'Conceição', '11,20 €', 'Armazém “B”'],
    ['zoe.obrien', 'Zoë', 'O’Brien', '£7.50', 'Shift at 6 °C'],
  ],
  central: [
    ['lukasz.zolc', 'Łukasz', 'Żółć', '12,50 €', 'Magazyn „Północ”'],
    ['malgorzata.wisniewska', 'Małgorzata', 'Wiśniewska', '8,00 €', 'Źródło'],
    ['jiri.dvorak', 'Jiří', 'Dvořák', '10,00 €', 'Sklad při 4 °C'],
    ['zdenek.ruzicka', 'Zdeněk', 'Růžička', '7,25 €', 'Údržba…'],
    ['lubica.stastna', 'Ľubica', 'Šťastná', '9,40 €', 'Šatňa'],
    ['gabor.szoke', 'Gábor', 'Szőke', '6,10 €', 'Raktár “Kelet”'],
    ['agnieszka.szczesna', 'Agnieszka', 'Szczęsna', '5,50 €', 'Ślusarnia'],
    ['ana.simic', 'Ana', 'Šimić', '4,80 €', 'Skladište'],
  ],
  cyrillic: [
    ['ivan.petrov', 'Иван', 'Петров', '12,50 €', 'Склад «Север»'],
    ['olga.smirnova', 'Ольга', 'Смирнова', '8,00 €', 'Холодильник 4 °C'],
    ['dmitry.kuznetsov', 'Дмитрий', 'Кузнецов', '10,00 €', 'Цех №2…'],
    ['natalya.sokolova', 'Наталья', 'Соколова', '7,25 €', 'Охрана'],
    ['georgi.ivanov', 'Георги', 'Иванов', '9,40 €', 'Работилница'],
    ['sergey.volkov', 'Сергей', 'Волков', '6,10 €', 'Бухгалтерия'],
  ],
  ukrainian: [
    ['iryna.kovalchuk', 'Ірина', 'Ковальчук', '12,50 €', 'Їдальня'],
    ['yevhen.hnatiuk', 'Євген', 'Гнатюк', '8,00 €', 'Ґанок'],
    ['olena.shevchenko', 'Олена', 'Шевченко', '10,00 €', 'Бібліотека'],
    ['yurii.tkachenko', 'Юрій', 'Ткаченко', '7,25 €', 'Подвір’я'],
  ],
  greek: [
    ['giorgos.papadopoulos', 'Γιώργος', 'Παπαδόπουλος', '12,50 €', 'Αποθήκη «Βορράς»'],
    ['eleni.konstantinou', 'Ελένη', 'Κωνσταντίνου', '8,00 €', 'Ψυγείο 4 °C'],
    ['nikos.georgiou', 'Νίκος', 'Γεωργίου', '10,00 €', 'Συντήρηση…'],
    ['maria.dimitriou', 'Μαρία', 'Δημητρίου', '7,25 €', 'Φύλαξη'],
  ],
  turkish: [
    ['ayse.yilmaz', 'Ayşe', 'Yılmaz', '12,50 €', 'Depo “Kuzey”'],
    ['sukru.ozturk', 'Şükrü', 'Öztürk', '8,00 €', 'Soğutucu 4 °C'],
    ['ibrahim.celik', 'İbrahim', 'Çelik', '10,00 €', 'Güvenlik…'],
    ['gulsen.dogan', 'Gülşen', 'Doğan', '7,25 €', 'Muhasebe'],
  ],
  baltic: [
    ['janis.berzins', 'Jānis', 'Bērziņš', '12,50 €', 'Noliktava “Ziemeļi”'],
    ['zydrunas.kavaliauskas', 'Žydrūnas', 'Kavaliauskas', '8,00 €', 'Šaldytuvas 4 °C'],
    ['ulle.kask', 'Ülle', 'Kask', '10,00 €', 'Ladu…'],
    ['ieva.lukosiute', 'Ieva', 'Lukošiūtė', '7,25 €', 'Apsauga'],
  ],
  japanese: [
    ['hanako.tanaka', '花子', '田中', '1,250円', '倉庫「北」'],
    ['taro.suzuki', '太郎', '鈴木', '980円', '冷蔵庫 4 °C'],
    ['yui.sato', '結衣', '佐藤', '1,500円', '警備…'],
    ['ken.watanabe', '健', '渡辺', '700円', '経理'],
  ],
  chinese: [
    ['wei.wang', '伟', '王', '12,50 €', '仓库“北”'],
    ['fang.li', '芳', '李', '8,00 €', '冷库 4 °C'],
    ['min.zhang', '敏', '张', '10,00 €', '保安…'],
    ['jing.liu', '静', '刘', '7,25 €', '会计'],
  ],
  traditional: [
    ['wei.chen', '偉', '陳', '12,50 €', '倉庫「北」'],
    ['mei.lin', '美玲', '林', '8,00 €', '冷藏 4 °C'],
    ['jian.huang', '建國', '黃', '10,00 €', '保全…'],
    ['ting.wu', '婷', '吳', '7,25 €', '會計'],
  ],
  // in won: LibreOffice writes € in EUC-KR as CP949's A2 E6, which TextDecoder('euc-kr') does not read
  korean: [
    ['minjun.kim', '민준', '김', '12,500원', '창고 “북”'],
    ['seoyeon.lee', '서연', '이', '8,000원', '냉장고 4 °C'],
    ['jiho.park', '지호', '박', '10,000원', '경비…'],
    ['yuna.choi', '유나', '최', '7,250원', '회계'],
  ],
};

/**
 * Each offered encoding: LibreOffice's number for it (CSV filter token 3, `rtl_TextEncoding`) and whose names it was
 * made for.
 */
const CORPUS_ENCODINGS = {
  'windows-1252': [1, ['western']],
  'iso-8859-15': [22, ['western']],
  macintosh: [2, ['western']],
  'windows-1250': [33, ['central']],
  'iso-8859-2': [13, ['central']],
  'windows-1257': [39, ['baltic']],
  'windows-1251': [34, ['cyrillic', 'ukrainian']],
  'koi8-r': [74, ['cyrillic']],
  'koi8-u': [88, ['ukrainian', 'cyrillic']],
  ibm866: [30, ['cyrillic']],
  'iso-8859-5': [16, ['cyrillic']],
  'x-mac-cyrillic': [44, ['cyrillic']],
  'windows-1253': [35, ['greek']],
  'iso-8859-7': [18, ['greek']],
  'windows-1254': [36, ['turkish']],
  shift_jis: [64, ['japanese']],
  gb18030: [85, ['chinese']],
  big5: [68, ['traditional']],
  'euc-kr': [79, ['korean']],
};
const CORPUS = path.join(FIXTURES, 'encodings');

function staffCsv(people) {
  const quote = (cell) => (/[",\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell);
  const rows = people.map(([username, first, last, allowance, note], i) => [
    username,
    first,
    last,
    String(20001 + i),
    allowance,
    note,
  ]);
  const header = ['Username', 'First name', 'Last name', 'Employee ID', 'Allowance', 'Note'];
  const lines = [header, ...rows].map((r) => r.map(quote).join(','));
  return `${lines.join('\n')}\n`;
}

/**
 * Saves the corpus (`only`: one encoding's files); checks that each encoding's own names come back from its file (a
 * wrong charset number would not).
 */
export function makeEncodingCorpus(only) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'import-corpus-'));
  const everyone = Object.values(STAFF).flat();
  try {
    for (const [label, [charset, regions]] of Object.entries(CORPUS_ENCODINGS)) {
      if (only && label !== only) continue;
      const own = regions.flatMap((region) => STAFF[region]);
      const sources = {
        'whole-list': everyone,
        'own-names': own,
        'short-2': own.slice(0, 2),
        'short-4': own.slice(0, 4),
      };
      const source = path.join(dir, label);
      mkdirSync(source, { recursive: true });
      for (const [name, people] of Object.entries(sources))
        writeFileSync(path.join(source, `${name}.csv`), staffCsv(people));
      const out = path.join(CORPUS, label);
      rmSync(out, { recursive: true, force: true });
      const filter = `csv:Text - txt - csv (StarCalc):44,34,${charset},1,,0,false,true,true`;
      soffice(
        [
          '--infilter=CSV:44,34,76,1,,0,false,true',
          '--convert-to',
          filter,
          '--outdir',
          out,
          ...Object.keys(sources).map((name) => `${name}.csv`),
        ],
        source,
      );
      const firstName = own[0][1];
      const text = new TextDecoder(label).decode(readFileSync(path.join(out, 'short-2.csv')));
      if (!text.includes(firstName))
        throw new Error(`LibreOffice's charset ${charset} is not ${label}: ${text}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A large workbook (or CSV) of `rows` people in 10 columns, saved by LibreOffice,
 * cached in the temp folder: for the e2e and the benchmark.
 */
export function makeBig(rows, format = 'xlsx') {
  const cache = path.join(os.tmpdir(), 'fieldbook-import-big');
  mkdirSync(cache, { recursive: true });
  const target = path.join(cache, `people-${rows}.${format}`);
  if (existsSync(target)) return target;
  const lines = [
    'Username,Employee No.,Forename,Surname,Work Email,Status,Department,Site,Job title,Start date',
  ];
  const departments = ['Nursing', 'Facilities', 'Kitchen', 'Admin', 'Security'];
  for (let n = 1; n <= rows; n += 1) {
    const employeeNo = `B${String(n).padStart(6, '0')}`;
    const surname = `Nowak-${n % 977}`;
    const status = n % 3 === 0 ? 'Offline' : 'Active';
    const department = departments[n % 5];
    const grade = `Carer grade ${n % 7}`;
    const start = `2024-0${(n % 9) + 1}-1${n % 10}`;
    const cells = [`big.${n}`, employeeNo, `Émile${n}`, surname, `big.${n}@example.com`, status, department];
    lines.push([...cells, 'North wing', grade, start].join(','));
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'import-big-'));
  try {
    const csv = path.join(dir, `people-${rows}.csv`);
    writeFileSync(csv, `${lines.join('\r\n')}\r\n`);
    if (format === 'csv') {
      renameSync(csv, target);
      return target;
    }
    soffice(
      [
        '--infilter=CSV:44,34,76,1',
        '--convert-to',
        'xlsx:Calc MS Excel 2007 XML',
        '--outdir',
        path.join(dir, 'out'),
        csv,
      ],
      dir,
    );
    renameSync(path.join(dir, 'out', `people-${rows}.xlsx`), target);
    return target;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv[2] === 'corpus') makeEncodingCorpus(process.argv[3]);
  else {
    if (process.argv[2] !== 'encodings') makeSmall();
    makeEncodings();
  }
  if (process.argv[2] === 'big') console.log(makeBig(50_000), makeBig(100_000, 'csv'));
}
