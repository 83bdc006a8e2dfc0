/**
 * Where a workbook's parts are, found as Excel finds them: the package's
 * relationships (`_rels/.rels`) name the workbook, the workbook's own name its
 * sheets, styles and shared strings. Most files keep them under `xl/`, but
 * nothing requires it. Pure.
 */
import { attributes } from './xml.ts';

const RELATIONSHIP = /<(?:\w+:)?Relationship\b[^>]*>/g;

export interface Relationship {
  id: string;
  /** the last segment of the type: "officeDocument", "worksheet", "styles", "sharedStrings" */
  type: string;
  /** the part's path in the package, without a leading slash */
  path: string;
}

/**
 * `target` of a part in `dir` ("xl"), as a path in the package: "worksheets/sheet1.xml" → "xl/worksheets/sheet1.xml".
 */
export function resolvePart(dir: string, target: string): string {
  const segments = target.startsWith('/') ? [] : dir.split('/').filter(Boolean);
  for (const segment of target.split('/')) {
    if (segment === '..') segments.pop();
    else if (segment !== '.' && segment !== '') segments.push(segment);
  }
  return segments.join('/');
}

/** The relationships of the part at `source` ('' for the package itself), from the XML of its .rels part. */
export function relationshipsOf(source: string, xml: string): Relationship[] {
  const dir = source.includes('/') ? source.slice(0, source.lastIndexOf('/')) : '';
  const out: Relationship[] = [];
  for (const [tag] of xml.matchAll(RELATIONSHIP)) {
    const a = attributes(tag);
    if (!a.Id || !a.Target || a.TargetMode === 'External') continue;
    out.push({
      id: a.Id,
      type: (a.Type ?? '').slice((a.Type ?? '').lastIndexOf('/') + 1),
      path: resolvePart(dir, a.Target),
    });
  }
  return out;
}

/** The .rels part that holds the relationships of `part`: "xl/workbook.xml" → "xl/_rels/workbook.xml.rels". */
export function relsPathOf(part: string): string {
  const slash = part.lastIndexOf('/');
  return `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`;
}
